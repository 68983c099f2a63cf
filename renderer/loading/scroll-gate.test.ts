// The grid's visible sets pass at once while the grid is still or scrolls slowly, are held while they turn over fast,
// and the latest passes once the scroll slows or stops.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ScrollGate } from './scroll-gate.js';

const cells = (from: number, count: number) => Array.from({ length: count }, (_, i) => `f${from + i}`);

describe('ScrollGate', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const gate = (passed: string[][]) =>
    new ScrollGate((ids) => passed.push(ids), { maxSetsPerSecond: 3, windowMs: 200, recheckMs: 100, now: () => Date.now() });

  it('passes the first set at once and a slow scroll step by step', () => {
    const passed: string[][] = [];
    const g = gate(passed);
    g.push(cells(0, 10));
    expect(passed).toEqual([cells(0, 10)]);
    // one new row of 2 cells every 100 ms: 2 new of 10 per 100 ms is 2 sets a second, under the limit
    for (let i = 1; i <= 5; i++) {
      vi.advanceTimersByTime(100);
      g.push(cells(2 * i, 10));
    }
    expect(passed).toHaveLength(6);
    expect(passed.at(-1)).toEqual(cells(10, 10));
    g.dispose();
  });

  it('holds the sets of a fast scroll and passes the latest once it stops', () => {
    const passed: string[][] = [];
    const g = gate(passed);
    g.push(cells(0, 10));
    // a new screenful every 16 ms frame: 60 sets a second
    for (let i = 1; i <= 30; i++) {
      vi.advanceTimersByTime(16);
      g.push(cells(10 * i, 10));
    }
    // only the first step after the quiet start went through (its turnover is measured from there on)
    expect(passed.length).toBeLessThanOrEqual(2);
    expect(g.skipped).toBeGreaterThan(25);
    // stopped: within the window and a recheck, the set on screen now goes
    vi.advanceTimersByTime(400);
    expect(passed.at(-1)).toEqual(cells(300, 10));
    g.dispose();
  });

  it('passes the set again once a fast scroll slows to a crawl', () => {
    const passed: string[][] = [];
    const g = gate(passed);
    g.push(cells(0, 10));
    for (let i = 1; i <= 10; i++) {
      vi.advanceTimersByTime(16);
      g.push(cells(10 * i, 10));
    }
    const during = passed.length;
    // slows to one cell every 150 ms: the turnover falls under the limit and the sets pass again
    for (let i = 1; i <= 6; i++) {
      vi.advanceTimersByTime(150);
      g.push(cells(100 + i, 10));
    }
    expect(passed.length).toBeGreaterThan(during);
    expect(passed.at(-1)).toEqual(cells(106, 10));
    g.dispose();
  });
});
