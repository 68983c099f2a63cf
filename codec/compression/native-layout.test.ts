import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nativeLayout } from './native-layout.js';
import { PIXEL_TYPES, type BlockLayout, type Channel, type PixelType } from '../core/types.js';

/** The layout by its definition (native-layout.ts' header), sample by sample: the oracle. */
function layoutByDefinition(block: BlockLayout): number[] {
  const { channels, x0, y0, widthPx, heightPx } = block;
  const samples = (s: number, first: number, count: number) => {
    let n = 0;
    for (let v = first; v < first + count; v++) if (((v % s) + s) % s === 0) n++;
    return n;
  };
  const rows: number[] = [];
  for (let y = y0; y < y0 + heightPx; y++)
    channels.forEach((c, i) => ((y % c.ySampling) + c.ySampling) % c.ySampling === 0 && rows.push(i));
  return [
    channels.length,
    rows.length,
    ...channels.flatMap((c) => [
      samples(c.xSampling, x0, widthPx),
      samples(c.ySampling, y0, heightPx),
      PIXEL_TYPES.indexOf(c.pixelType),
      c.pLinear ? 1 : 0,
    ]),
    ...rows,
  ];
}

const channel = (name: string, pixelType: PixelType, xSampling = 1, ySampling = 1, pLinear = false): Channel => ({
  name,
  pixelType,
  pLinear,
  xSampling,
  ySampling,
});

const channelArb = fc.record({
  name: fc.constantFrom('R', 'G', 'B', 'A', 'Z', 'Y', 'RY', 'BY'),
  pixelType: fc.constantFrom<PixelType>('half', 'float', 'uint'),
  pLinear: fc.boolean(),
  xSampling: fc.constantFrom(1, 2, 3),
  ySampling: fc.constantFrom(1, 2, 3),
});

describe('nativeLayout', () => {
  it('matches its definition for any channels and block, through the cache and a fresh channel array alike', () => {
    fc.assert(
      fc.property(
        fc.array(channelArb, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (channels, x0, y0, widthPx, heightPx) => {
          const block = { channels, x0, y0, widthPx, heightPx };
          const expected = layoutByDefinition(block);
          expect([...nativeLayout(block)]).toEqual(expected);
          // again, from the cache, and for a copy of the channel list (a second open of the same file)
          expect([...nativeLayout(block)]).toEqual(expected);
          expect([...nativeLayout({ ...block, channels: channels.map((c) => ({ ...c })) })]).toEqual(expected);
        },
      ),
    );
  });

  it('shares one layout between opens of files with the same channel list, names aside', () => {
    const first = [channel('A', 'half'), channel('B', 'half'), channel('G', 'half'), channel('R', 'half')];
    const second = [channel('a', 'half'), channel('b', 'half'), channel('g', 'half'), channel('r', 'half')];
    const block = { x0: 0, y0: 0, widthPx: 3840, heightPx: 16 };
    expect(nativeLayout({ ...block, channels: second })).toBe(nativeLayout({ ...block, channels: first }));
  });

  it("shares one layout between a tiled part's columns unless a channel is subsampled across", () => {
    const full = [channel('R', 'half'), channel('Z', 'float')];
    const tile = (x0: number, channels: Channel[]) => nativeLayout({ channels, x0, y0: 0, widthPx: 128, heightPx: 128 });
    expect(tile(128, full)).toBe(tile(0, full));
    expect(tile(3840, full)).toBe(tile(0, full));
    const subsampled = [channel('Y', 'half'), channel('RY', 'half', 3, 1)];
    // 128 columns from x = 0 hold 43 samples a third; from x = 1, 42
    expect([...tile(1, subsampled)]).not.toEqual([...tile(0, subsampled)]);
    expect([...tile(1, subsampled)]).toEqual(layoutByDefinition({ channels: subsampled, x0: 1, y0: 0, widthPx: 128, heightPx: 128 }));
  });

  it('tells apart channel lists that differ in type, sampling or pLinear', () => {
    const base = [channel('R', 'half'), channel('Z', 'float')];
    const block = { x0: 0, y0: 0, widthPx: 64, heightPx: 4 };
    const layouts = [
      base,
      [channel('R', 'half'), channel('Z', 'uint')],
      [channel('R', 'half', 1, 2), channel('Z', 'float')],
      [channel('R', 'half', 1, 1, true), channel('Z', 'float')],
    ].map((channels) => nativeLayout({ ...block, channels }));
    expect(new Set(layouts).size).toBe(4);
    expect([...layouts[3]!]).not.toEqual([...layouts[0]!]);
  });
});
