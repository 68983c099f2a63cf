// The Layers view's tile layout: every tile inside the preview, none overlapping, aspect kept, the largest tiles chosen.
import { describe, expect, it } from 'vitest';
import { sheetLayout } from './sheet-layout.js';

describe('sheetLayout', () => {
  it('lays 7 wide layers out inside the preview without overlap, keeping their aspect', () => {
    const tiles = sheetLayout(7, 1000, 600, 16 / 9);
    expect(tiles).toHaveLength(7);
    for (const t of tiles) {
      expect(t.xPx).toBeGreaterThanOrEqual(0);
      expect(t.yPx).toBeGreaterThanOrEqual(0);
      expect(t.xPx + t.widthPx).toBeLessThanOrEqual(1000);
      expect(t.yPx + t.heightPx + 18).toBeLessThanOrEqual(600);
      expect(Math.abs(t.widthPx / t.heightPx - 16 / 9)).toBeLessThan(0.05);
    }
    for (let i = 0; i < 7; i++)
      for (let j = i + 1; j < 7; j++) {
        const a = tiles[i]!,
          b = tiles[j]!;
        const overlap = a.xPx < b.xPx + b.widthPx && b.xPx < a.xPx + a.widthPx && a.yPx < b.yPx + b.heightPx && b.yPx < a.yPx + a.heightPx;
        expect(overlap).toBe(false);
      }
  });

  it('one layer fills the preview; none gives no tiles', () => {
    const [t] = sheetLayout(1, 800, 600, 1);
    expect(t!.widthPx).toBeGreaterThan(500);
    expect(sheetLayout(0, 800, 600, 1)).toEqual([]);
  });
});
