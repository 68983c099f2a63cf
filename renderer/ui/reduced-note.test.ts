// The reduced level's note says which level, of what size, why, and that figures come from it.
import { describe, expect, it } from 'vitest';
import { reducedNote } from './reduced-note.js';

describe('reducedNote', () => {
  it('names the level, both sizes, how it was made and the limit it was over', () => {
    const n = reducedNote({ factor: 2, from: 'box-filter', fullWidthPx: 16384, fullHeightPx: 8192, over: 'side', limit: 8192 }, 8192, 4096);
    expect(n.title).toBe('showing a 1/2 level (8192×4096 of 16384×8192 px, box-filtered as it was decoded)');
    expect(n.why).toBe("over the GPU's 8192 px texture limit");
    expect(n.caveat).toMatch(/statistics and the histogram are level 0's, measured on the host/);
    const m = reducedNote(
      { factor: 4, from: 'mip-level', fullWidthPx: 8000, fullHeightPx: 8000, over: 'pixels', limit: 42_000_000 },
      2000,
      2000,
    );
    expect(m.title).toContain("the file's own MIP level");
    expect(m.why).toBe("over what the GPU cache's budget holds (42 megapixels)");
  });
});
