// The toolbar's overflow: the least important items leave the row first, and only what does not fit.
import { describe, expect, it } from 'vitest';
import { overflowKeys } from './toolbar-overflow.js';

const items = [
  { key: 'folder', priority: 100 },
  { key: 'view', priority: 90 },
  { key: 'look', priority: 70 },
  { key: 'marks', priority: 50 },
];
const widths = new Map([
  ['folder', 300],
  ['view', 300],
  ['look', 200],
  ['marks', 200],
]);

describe('overflowKeys', () => {
  it('keeps everything when it fits', () => {
    expect(overflowKeys(items, widths, 1030, 10)).toEqual([]);
  });

  it('moves the least important out first', () => {
    expect(overflowKeys(items, widths, 1000, 10)).toEqual(['marks']);
    expect(overflowKeys(items, widths, 700, 10)).toEqual(['look', 'marks']);
    expect(overflowKeys(items, widths, 100, 10)).toEqual(['folder', 'view', 'look', 'marks']);
  });

  it('fills the room left with a less important item that fits', () => {
    const w = new Map([
      ['folder', 300],
      ['view', 300],
      ['look', 400],
      ['marks', 100],
    ]);
    expect(overflowKeys(items, w, 720, 10)).toEqual(['look']);
  });

  it('counts an item not measured yet as fitting, to measure it in the row', () => {
    expect(overflowKeys(items, new Map([['folder', 300]]), 400, 10)).toEqual([]);
  });
});
