// The damaged cell's tooltip names the file, the chunks missing of how many, the reason and what to do; a file being
// written says how many of its chunks are there.
import { describe, expect, it } from 'vitest';
import { damageTitle, renderingLabel, renderingTitle } from './damage-badge.js';

describe('damageTitle', () => {
  it('says how many chunks are missing, why, and what to do', () => {
    const title = damageTitle('b_cut.exr', {
      chunksRead: 6,
      chunksTotal: 13,
      reason: 'part 0, chunk 6: chunk is not in the file (incomplete file?)',
    });
    expect(title).toBe(
      'b_cut.exr is damaged: 7 of 13 chunks could not be read and are hatched in its thumbnail ' +
        '(part 0, chunk 6: chunk is not in the file (incomplete file?)). ' +
        'Open it to see what can be read; copy or render it again to see all of it.',
    );
  });
});

describe('a file being written', () => {
  it('says how many of its chunks are there', () => {
    expect(renderingLabel({ chunksPresent: 34, chunksTotal: 57 })).toBe('rendering… 34 of 57 chunks');
    expect(renderingTitle('beauty.exr', { chunksPresent: 0, chunksTotal: 9 })).toBe(
      'beauty.exr is still being written: 0 of 9 chunks are there, the rest hatched. It refreshes as more land; the label goes when ' +
        'the file is complete.',
    );
  });
});
