// Virtualized grid math: a 10,000-file folder renders only the rows in view (plus overscan).
import { describe, expect, it } from 'vitest';
import { cellPosition, gridLayout, rowLayout, scrollRow } from './grid-layout.js';

describe('gridLayout', () => {
  it('renders only the visible rows of 10,000 files', () => {
    const l = gridLayout(10_000, 1000, 50_000, 800, 120, 8);
    expect(l.columns).toBe(7);
    expect(l.rows).toBe(Math.ceil(10_000 / 7));
    expect(l.last - l.first + 1).toBeLessThanOrEqual(7 * (Math.ceil(800 / 128) + 5));
    const top = cellPosition(l, l.first).yPx;
    expect(top).toBeLessThanOrEqual(50_000);
    expect(cellPosition(l, l.last).yPx + 128).toBeGreaterThanOrEqual(50_800);
  });

  it('clamps at both ends and handles an empty folder', () => {
    expect(gridLayout(0, 500, 0, 500, 100, 10)).toMatchObject({ rows: 0, first: 0, last: -1 });
    const end = gridLayout(20, 500, 99_999, 500, 100, 10);
    expect(end.last).toBe(19);
    expect(gridLayout(3, 50, 0, 500, 100, 10).columns).toBe(1);
  });
});

describe('rowLayout', () => {
  it('renders, for a whole row of scroll positions, every cell the exact layout shows', () => {
    const [cellPx, gapPx, heightPx] = [144, 8, 800];
    for (const widthPx of [300, 1000]) {
      for (let scrollTopPx = 0; scrollTopPx < 20_000; scrollTopPx += 7) {
        const row = scrollRow(scrollTopPx, cellPx + gapPx);
        const rendered = rowLayout(10_000, widthPx, row, heightPx, cellPx, gapPx);
        const exact = gridLayout(10_000, widthPx, scrollTopPx, heightPx, cellPx, gapPx, 0);
        expect(rendered.first).toBeLessThanOrEqual(exact.first);
        expect(rendered.last).toBeGreaterThanOrEqual(exact.last);
      }
    }
  });

  it('changes only when a scroll crosses a row', () => {
    const pitchPx = 152;
    expect(scrollRow(0, pitchPx)).toBe(0);
    expect(scrollRow(151, pitchPx)).toBe(0);
    expect(scrollRow(152, pitchPx)).toBe(1);
    expect(scrollRow(-40, pitchPx)).toBe(0);
    const a = rowLayout(10_000, 300, 3, 800, 144, 8);
    expect(rowLayout(10_000, 300, 3, 800, 144, 8)).toEqual(a);
    expect(rowLayout(10_000, 300, 4, 800, 144, 8).first).toBe(a.first + a.columns);
  });
});
