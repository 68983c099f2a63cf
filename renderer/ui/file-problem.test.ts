// The preview's message for unreadable files: where (part, chunk), the codec's reason, and advice that fits it.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../host-client/api-types.js';
import { describeProblem, splitReason } from './file-problem.js';

const file = (patch: Partial<FileEntry>): FileEntry => ({ id: 'f1', folderId: 'd1', relativePath: 'x.exr', name: 'x.exr', sizeBytes: 1, mtimeMs: 1, status: 'ok', ...patch });

describe('describeProblem', () => {
  it('names the part and chunk of a decode failure and says what to do', () => {
    const p = describeProblem(file({}), 'part 0, chunk 12: corrupt zlib stream (invalid distance)')!;
    expect(p.title).toBe('Cannot show x.exr');
    expect(p.where).toBe('part 0, chunk 12');
    expect(p.reason).toBe('corrupt zlib stream (invalid distance)');
    expect(p.advice).toMatch(/damaged/);
  });

  it('says a file still being written is retried, and that an unsupported one needs converting', () => {
    expect(describeProblem(file({ status: 'incomplete' }), null)!.retrying).toBe(true);
    expect(describeProblem(file({ status: 'error', error: 'unsupported compression htj2k' }), null)!.advice).toMatch(/convert/);
    expect(describeProblem(file({}), null)).toBeNull();
    expect(splitReason('f3.exr: part 1: bad magic')).toEqual({ where: 'part 1', reason: 'bad magic' });
  });
});

describe('advice for a corrupt stream that runs out', () => {
  it('calls it damage, not a file that ends early', () => {
    expect(describeProblem(file({}), 'part 0, chunk 1: corrupt zlib stream (unexpected end of file)')!.advice).toMatch(/damaged/);
    expect(describeProblem(file({}), 'part 0, chunk 1: the file ends before chunk 1 (end of file)')!.advice).toMatch(/ends early/);
  });
});
