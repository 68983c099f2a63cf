// The preview's message for unreadable files: where (part, chunk), the codec's reason, and advice that fits it.
import { describe, expect, it } from 'vitest';
import type { FileEntry } from '../host-client/api-types.js';
import { describeMissing, describeProblem, splitReason } from './file-problem.js';

const file = (patch: Partial<FileEntry>): FileEntry => ({
  id: 'f1',
  folderId: 'd1',
  relativePath: 'x.exr',
  name: 'x.exr',
  sizeBytes: 1,
  mtimeMs: 1,
  status: 'ok',
  ...patch,
});

describe('describeProblem', () => {
  it('names the part and chunk of a decode failure and says what to do', () => {
    const p = describeProblem(file({}), 'part 0, chunk 12: corrupt zlib stream (invalid distance)')!;
    expect(p.title).toBe('Cannot show x.exr');
    expect(p.where).toBe('part 0, chunk 12');
    expect(p.reason).toBe('corrupt zlib stream (invalid distance)');
    expect(p.advice).toMatch(/damaged/);
  });

  it("says the GPU's refusal is not the file's fault", () => {
    const p = describeProblem(file({}), "16384×8192 px needs 3668 MB of GPU memory, over the GPU cache's budget of 1611 MB")!;
    expect(p.reason).toMatch(/GPU cache's budget/);
    expect(p.advice).toMatch(/not at fault/);
    expect(p.advice).not.toMatch(/damaged/);
  });

  it('says a file still being written is retried, and that an unsupported one needs converting', () => {
    expect(describeProblem(file({ status: 'incomplete' }), null)!.retrying).toBe(true);
    // its header whole: shown as its chunks land, under "rendering…", not as a problem (nor while none has landed yet)
    const rendering = file({ status: 'incomplete', rendering: { chunksPresent: 0, chunksTotal: 9 } });
    expect(describeProblem(rendering, null)).toBeNull();
    expect(describeProblem(rendering, 'part 0, chunk 0: chunk is not written yet (incomplete file: 0 of 9 chunks)')).toBeNull();
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

describe('a damaged file shown in part', () => {
  const summary = { widthPx: 48, heightPx: 200, multipart: false, views: [], parts: [] };
  const cut = file({ status: 'error', error: 'the file is incomplete: 7 of 13 chunks are not written yet', summary });

  it('has no card while its readable chunks are shown; a card when not one chunk reads', () => {
    expect(describeProblem(cut, null)).toBeNull();
    const none = describeProblem(
      cut,
      'part 0, chunk 0: chunk is not in the file (incomplete file?) (and no other chunk of the image could be read either)',
    )!;
    expect(none.title).toBe('Cannot show x.exr');
    expect(none.where).toBe('part 0, chunk 0');
    // a file whose header does not read keeps its card
    expect(describeProblem(file({ status: 'error', error: 'not an OpenEXR file' }), null)!.reason).toBe('not an OpenEXR file');
  });

  it('says how many chunks were read, which rows or tiles are missing, why, and what to do', () => {
    const rows = describeMissing(
      cut,
      {
        regions: [[0, 96, 47, 199]],
        reason: 'part 0, chunk 6: chunk is not in the file (incomplete file?)',
        chunksRead: 6,
        chunksTotal: 13,
      },
      [0, 0, 47, 199],
    );
    expect(rows.title).toBe('6 of 13 chunks of x.exr could be read');
    expect(rows.where).toBe('first missing: part 0, chunk 6');
    expect(rows.missingText).toBe('Missing rows 96–199: shown hatched (their pixels read as 0).');
    expect(rows.advice).toMatch(/ends early/);
    const tiles = describeMissing(
      file({}),
      {
        regions: [
          [16, 16, 31, 31],
          [0, 32, 15, 47],
          [32, 32, 47, 47],
          [48, 0, 63, 15],
        ],
        reason: 'part 0, chunk 5: corrupt zlib stream (invalid distance)',
        chunksRead: 8,
        chunksTotal: 12,
      },
      [0, 0, 63, 47],
    );
    expect(tiles.missingText).toBe(
      'Missing columns 16–31 of rows 16–31; columns 0–15 of rows 32–47; columns 32–47 of rows 32–47 and 1 more region: shown hatched (their pixels read as 0).',
    );
    expect(tiles.advice).toMatch(/damaged/);
  });
});
