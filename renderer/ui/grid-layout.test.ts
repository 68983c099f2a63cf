// Virtualized grid math: a 10,000-file folder renders only the rows in view (plus overscan).
import { describe, expect, it } from 'vitest';
import { cellPosition, gridLayout } from './grid-layout.js';

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
