// What the preview says about a file it cannot show: what happened (file, part, chunk, the codec's reason) and what to do. Pure.
import type { FileEntry } from '../host-client/api-types.js';

export interface Problem { title: string; where: string; reason: string; advice: string; retrying: boolean }

/** Splits "part 0, chunk 12: reason" (the codec's ExrError message) into where and why. */
export function splitReason(message: string): { where: string; reason: string } {
  const m = /(?:^|:\s)(part \d+(?:, chunk \d+)?):\s*(.*)$/s.exec(message);
  return m ? { where: m[1]!, reason: m[2]! } : { where: '', reason: message };
}

export function describeProblem(file: FileEntry, decodeError: string | null): Problem | null {
  if (file.status === 'incomplete') {
    return { title: `${file.name} is still being written`, where: '', reason: file.error ?? 'the file is shorter than its header says', advice: 'It is shown as soon as the writer finishes; exrview looks again every half second.', retrying: true };
  }
  const message = file.status === 'error' ? file.error ?? 'cannot be read' : decodeError;
  if (!message) return null;
  const { where, reason } = splitReason(message);
  const unsupported = /unsupported|not supported|cannot decode .* yet/i.test(reason);
  const advice = unsupported
    ? 'exrview cannot decode this yet: convert the file (for example oiiotool IN -o OUT --compression zip) or open it in another viewer.'
    // a corrupt stream that runs out ("corrupt zlib stream (unexpected end of file)") is damage, not a short file
    : /incomplete|stopped changing|truncated|cut short|end of file/i.test(reason) && !/corrupt|invalid|incorrect|checksum/i.test(reason)
      ? 'The file ends early: render, copy or download it again. Other images are not affected.'
      : 'The file is damaged: render or copy it again (a copy from the original location may be whole). Other images are not affected.';
  return { title: `Cannot show ${file.name}`, where, reason, advice, retrying: false };
}
