// Where A and B land in the compare pass: side by side, each half frames its own image with its display window.
import { describe, expect, it } from 'vitest';
import { COMPARE_VIEW_BYTES, FLAG_OUTLINE_B, packCompareView } from '../../shaders/compare-layouts.js';
import { DEFAULT_DISPLAY, FLAG_OUTLINES } from '../../shaders/display-params.js';
import { DISPLAY_WORDS, UniformBlock } from '../../shaders/layouts.js';
import { compareGeometry, type CompareView, type PlacedImage } from './compare-geometry.js';

const view = (mode: CompareView['mode']): CompareView => ({
  mode,
  showB: false,
  wipeFraction: 0.5,
  wipeAxis: 'x',
  colormap: 0,
  rangeMin: 0,
  rangeMax: 1,
});
const a: PlacedImage = { dataWindow: [0, 0, 399, 199], displayWindow: [0, 0, 399, 199], levelCount: 1 };
// B's data window inside a larger display window: its frame is its display window, not A's
const b: PlacedImage = { dataWindow: [10, 20, 109, 69], displayWindow: [0, 0, 199, 99], levelCount: 1 };
const panZoom = { zoom: 1, centerX: 200, centerY: 100 };

describe('compareGeometry', () => {
  it('side by side: B is outlined by its own display window, placed in its half', () => {
    const g = compareGeometry(panZoom, a, b, view('side-by-side'), 1000, 400, 0.1);
    expect(g.bDisplay).toEqual({ minX: -10, minY: -20, maxX: 190, maxY: 80 });
    // B's display window's corner in canvas px: the same view as A's, in the right half
    expect(g.b.originXPx + g.bDisplay!.minX / g.texelsPerPx).toBe(500 + 250 - 200);
    expect(g.viewFlags & FLAG_OUTLINES).toBe(FLAG_OUTLINES);
  });

  it('other modes frame only A (B lies over A there)', () => {
    for (const mode of ['wipe', 'flip', 'off', 'error'] as const)
      expect(compareGeometry(panZoom, a, b, view(mode), 1000, 400, 0.1).bDisplay).toBeUndefined();
  });

  it('packs B’s frame after the view words, and its flag only where there is one', () => {
    const block = new UniformBlock(COMPARE_VIEW_BYTES);
    packCompareView(block, DEFAULT_DISPLAY, compareGeometry(panZoom, a, b, view('side-by-side'), 1000, 400, 0.1));
    const o = DISPLAY_WORDS;
    expect(block.u32[o + 19]! & FLAG_OUTLINE_B).toBe(FLAG_OUTLINE_B);
    expect([...block.f32.slice(o + 24, o + 28)]).toEqual([-10, -20, 190, 80]);
    packCompareView(block, DEFAULT_DISPLAY, compareGeometry(panZoom, a, b, view('wipe'), 1000, 400, 0.1));
    expect(block.u32[o + 19]! & FLAG_OUTLINE_B).toBe(0);
  });
});
