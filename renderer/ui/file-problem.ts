// What the preview says about a file it cannot show, or shows only in part: what happened (file, part, chunk, the codec's
// reason, the pixels missing) and what to do. Pure.
import type { BoxTuple, FileEntry, MissingRegions } from '../host-client/api-types.js';

export interface Problem {
  title: string;
  where: string;
  reason: string;
  advice: string;
  retrying: boolean;
}

/** Splits "part 0, chunk 12: reason" (the codec's ExrError message) into where and why. */
export function splitReason(message: string): { where: string; reason: string } {
  const m = /(?:^|:\s)(part \d+(?:, chunk \d+)?):\s*(.*)$/s.exec(message);
  return m ? { where: m[1]!, reason: m[2]! } : { where: '', reason: message };
}

/**
 * The card that takes the preview's place, or null. A damaged file whose header reads (its summary is known) has its
 * readable chunks shown instead, under describeMissing's banner: a card only when not one chunk could be read.
 */
export function describeProblem(file: FileEntry, decodeError: string | null): Problem | null {
  // still being written, its header whole: its chunks so far are shown under "rendering…", not as a problem
  if (file.rendering) return null;
  if (file.status === 'incomplete') {
    return {
      title: `${file.name} is still being written`,
      where: '',
      reason: file.error ?? 'the file is shorter than its header says',
      advice: 'It is shown as soon as the writer finishes; exrview looks again every half second.',
      retrying: true,
    };
  }
  const shownInPart = file.status === 'error' && file.summary !== undefined;
  const message = file.status === 'error' && !shownInPart ? (file.error ?? 'cannot be read') : decodeError;
  if (!message) return null;
  const { where, reason } = splitReason(message);
  return { title: `Cannot show ${file.name}`, where, reason, advice: adviceFor(reason), retrying: false };
}

function adviceFor(reason: string): string {
  // the engine's refusals (gpu-guard.ts): the file is fine, this GPU cannot hold it now
  if (/\bGPU\b/.test(reason))
    return 'The file is not at fault: close other images or GPU-heavy programs and show it again, or pick a layer with fewer channels.';
  const unsupported = /unsupported|not supported|cannot decode .* yet/i.test(reason);
  return unsupported
    ? 'exrview cannot decode this yet: convert the file (for example oiiotool IN -o OUT --compression zip) or open it in another viewer.'
    : // a corrupt stream that runs out ("corrupt zlib stream (unexpected end of file)") is damage, not a short file
      /incomplete|stopped changing|truncated|cut short|end of file|not in the file/i.test(reason) &&
        !/corrupt|invalid|incorrect|checksum/i.test(reason)
      ? 'The file ends early: render, copy or download it again. Other images are not affected.'
      : 'The file is damaged: render or copy it again (a copy from the original location may be whole). Other images are not affected.';
}

export interface PartialRead {
  title: string;
  where: string;
  missingText: string;
  reason: string;
  advice: string;
}

/** The banner over a damaged image shown in part: how much was read, which pixels are missing (drawn hatched), why, what to do. */
export function describeMissing(file: FileEntry, missing: MissingRegions, dataWindow: BoxTuple): PartialRead {
  const { where, reason } = splitReason(missing.reason);
  const boxes = missing.regions.slice(0, 3).map((box) => boxText(box, dataWindow));
  const extra = missing.regions.length - 3;
  const more = extra > 0 ? ` and ${extra} more region${extra === 1 ? '' : 's'}` : '';
  return {
    title: `${missing.chunksRead} of ${missing.chunksTotal} chunks of ${file.name} could be read`,
    where: where ? `first missing: ${where}` : '',
    missingText: `Missing ${boxes.join('; ')}${more}: shown hatched (their pixels read as 0).`,
    reason,
    advice: adviceFor(reason),
  };
}

/** "rows 96–199" for a box as wide as the image, else its columns and rows. */
function boxText([x0, y0, x1, y1]: BoxTuple, [dx0, , dx1]: BoxTuple): string {
  const rows = y0 === y1 ? `row ${y0}` : `rows ${y0}–${y1}`;
  return x0 === dx0 && x1 === dx1 ? rows : `columns ${x0}–${x1} of ${rows}`;
}
