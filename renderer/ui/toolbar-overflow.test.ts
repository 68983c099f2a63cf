// The toolbar's overflow: the least important items leave the row first, and only what does not fit; from one layout to
// the next nothing swings between the row and the menu, and the item under the pointer keeps its place.
import { describe, expect, it } from 'vitest';
import { RETURN_MARGIN_PX, overflowKeys } from './toolbar-overflow.js';

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

  // as the toolbar has them (display order), at about 1280 px
  const bar = [
    { key: 'folder', priority: 100 },
    { key: 'view', priority: 90 },
    { key: 'compare', priority: 80 },
    { key: 'inspect', priority: 75 },
    { key: 'look', priority: 85 },
    { key: 'grade', priority: 60 },
    { key: 'marks', priority: 50 },
  ];
  const narrow = new Map([
    ['folder', 200],
    ['view', 250],
    ['compare', 200],
    ['inspect', 120],
    ['look', 120],
    ['grade', 150],
    ['marks', 200],
  ]);
  const AVAILABLE = 1150;

  it('a group widened as it is used keeps its place: the groups after it leave first, then those before', () => {
    const first = overflowKeys(bar, narrow, AVAILABLE, 8);
    expect(first).toEqual(['marks']);
    // HDR on: Look grows by 180 px; Grade (after it) leaves, not Inspect (before it, less important than Grade is not)
    const hdr = new Map(narrow).set('look', 300);
    expect(overflowKeys(bar, hdr, AVAILABLE, 8, first, { kept: 'look', frozen: true })).toEqual(['grade', 'marks']);
    // A/B flip: Compare grows; everything after it goes before it would, even Look, more important
    const flip = new Map(narrow).set('compare', 560);
    const flipped = overflowKeys(bar, flip, AVAILABLE, 8, first, { kept: 'compare', frozen: true });
    expect(flipped).toEqual(['inspect', 'look', 'grade', 'marks']);
    // the pointer gone, Look (more important) does not displace the kept Compare: the layout stays
    expect(overflowKeys(bar, flip, AVAILABLE, 8, flipped, { kept: 'compare' })).toEqual(flipped);
    // without a group kept, the more important Look stays and Compare, less important, goes
    expect(overflowKeys(bar, flip, AVAILABLE, 8, first)).toContain('compare');
  });

  it('nothing comes back while the pointer is on the toolbar; it comes back after, where it fits', () => {
    const hdr = new Map(narrow).set('look', 300);
    const on = overflowKeys(bar, hdr, AVAILABLE, 8, ['marks'], { kept: 'look', frozen: true });
    // HDR off again, the pointer still there: Grade waits
    expect(overflowKeys(bar, narrow, AVAILABLE, 8, on, { kept: 'look', frozen: true })).toEqual(on);
    // the pointer gone: Grade comes back
    expect(overflowKeys(bar, narrow, AVAILABLE, 8, on, { kept: 'look' })).toEqual(['marks']);
  });

  it('an item in the menu comes back only with room to spare, so re-measuring by a few px moves nothing', () => {
    const fitsExactly = [...narrow.values()].slice(0, 6).reduce((a, b) => a + b, 0) + 5 * 8;
    // out before: exactly the room it needs is not enough
    expect(overflowKeys(bar, narrow, fitsExactly, 8, ['grade', 'marks'])).toEqual(['grade', 'marks']);
    expect(overflowKeys(bar, narrow, fitsExactly + RETURN_MARGIN_PX, 8, ['grade', 'marks'])).toEqual(['marks']);
    // stable: the layout computed again from itself is itself, at every width, with and without a group kept
    for (let px = 300; px < 1400; px += 7)
      for (const kept of [null, 'folder', 'compare', 'look', 'marks']) {
        const once = overflowKeys(bar, narrow, px, 8, [], { kept });
        expect(overflowKeys(bar, narrow, px, 8, once, { kept })).toEqual(once);
      }
  });

  it('a group that narrows in the menu comes back once it fits, displacing less important ones', () => {
    const wide = new Map(narrow).set('compare', 700);
    const out = overflowKeys(bar, wide, AVAILABLE, 8);
    expect(out).toEqual(['compare']);
    expect(overflowKeys(bar, narrow, AVAILABLE, 8, out)).toEqual(['marks']);
  });
});
