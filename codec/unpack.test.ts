// The reader's unpack, native (NativeKernels.unpackRows) against its TypeScript (unpackBlockTs): random blocks, regions,
// frames, samplings and channel selections; and the native one refusing plans and blocks that do not fit.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from './compression/native.js';
import { makeUnpackPlan, unpackBlockTs, type DecodedChannel } from './reader.js';
import { sampleCount } from './core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i, type Channel, type PixelType } from './core/types.js';

const PIXEL_TYPES: PixelType[] = ['half', 'float', 'uint'];

/** A block, its bytes, and a region and frame around part of it, as the reader's decode plans them. */
const caseArb = fc
  .record({
    channels: fc.array(
      fc.record({
        pixelType: fc.constantFrom(...PIXEL_TYPES),
        xSampling: fc.constantFrom(1, 2),
        ySampling: fc.constantFrom(1, 2, 3),
        wanted: fc.boolean(),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    x0: fc.integer({ min: -20, max: 20 }),
    y0: fc.integer({ min: -20, max: 20 }),
    widthPx: fc.integer({ min: 1, max: 40 }),
    heightPx: fc.integer({ min: 1, max: 20 }),
    cut: fc.array(fc.integer({ min: 0, max: 10 }), { minLength: 4, maxLength: 4 }),
    grow: fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 4, maxLength: 4 }),
    seed: fc.integer(),
  })
  .map(({ channels, x0, y0, widthPx, heightPx, cut, grow, seed }) => {
    const block: BlockLayout = {
      channels: channels.map((c, i): Channel => ({
        name: `c${i}`,
        pixelType: c.pixelType,
        pLinear: false,
        xSampling: c.xSampling,
        ySampling: c.ySampling,
      })),
      x0,
      y0,
      widthPx,
      heightPx,
    };
    const region: Box2i = {
      xMin: x0 + Math.min(cut[0]!, widthPx - 1),
      yMin: y0 + Math.min(cut[1]!, heightPx - 1),
      xMax: x0 + widthPx - 1,
      yMax: y0 + heightPx - 1,
    };
    region.xMax = Math.max(region.xMin, region.xMax - cut[2]!);
    region.yMax = Math.max(region.yMin, region.yMax - cut[3]!);
    const frame: Box2i = {
      xMin: region.xMin - grow[0]!,
      yMin: region.yMin - grow[1]!,
      xMax: region.xMax + grow[2]!,
      yMax: region.yMax + grow[3]!,
    };
    let bytes = 0;
    for (let y = y0; y < y0 + heightPx; y++) {
      for (const c of block.channels)
        if (((y % c.ySampling) + c.ySampling) % c.ySampling === 0)
          bytes += sampleCount(c.xSampling, x0, x0 + widthPx - 1) * PIXEL_TYPE_BYTES[c.pixelType];
    }
    const raw = Uint8Array.from({ length: bytes }, (_, i) => (i * 31 + seed) & 0xff);
    return { block, region, frame, raw, wanted: channels.map((c) => c.wanted) };
  });

/** Fresh planes over `frame`, filled with a marker so that bytes never written show. */
function planesFor(block: BlockLayout, frame: Box2i, wanted: boolean[]): (DecodedChannel | null)[] {
  return block.channels.map((ch, i) => {
    if (!wanted[i]) return null;
    const widthSamples = sampleCount(ch.xSampling, frame.xMin, frame.xMax);
    const heightSamples = sampleCount(ch.ySampling, frame.yMin, frame.yMax);
    const data = new Uint8Array(widthSamples * heightSamples * PIXEL_TYPE_BYTES[ch.pixelType]).fill(0xa5);
    return {
      name: ch.name,
      pixelType: ch.pixelType,
      xSampling: ch.xSampling,
      ySampling: ch.ySampling,
      widthSamples,
      heightSamples,
      data: new Uint16Array(data.buffer),
    };
  });
}

const bytesOf = (planes: (DecodedChannel | null)[]) => planes.map((p) => (p ? new Uint8Array(p.data.buffer) : null));

describe.skipIf(!nativeKernels)('unpackRows (native)', () => {
  it('writes the same bytes as the TypeScript unpack', () => {
    let copied = 0;
    fc.assert(
      fc.property(caseArb, ({ block, region, frame, raw, wanted }) => {
        const viaTs = planesFor(block, frame, wanted);
        const tsPlan = makeUnpackPlan(block, region, frame, viaTs);
        tsPlan.words[1] = block.y0;
        tsPlan.words[2] = block.heightPx;
        unpackBlockTs(raw, tsPlan);
        const viaNative = planesFor(block, frame, wanted);
        const plan = makeUnpackPlan(block, region, frame, viaNative);
        plan.words[1] = block.y0;
        plan.words[2] = block.heightPx;
        nativeKernels!.unpackRows(raw, plan.words, plan.views);
        expect(bytesOf(viaNative)).toEqual(bytesOf(viaTs));
        if (bytesOf(viaTs).some((b) => b?.some((v) => v !== 0xa5))) copied++;
      }),
      { numRuns: 400 },
    );
    // most cases copy something (a case with no wanted channel copies nothing, rightly)
    expect(copied).toBeGreaterThan(200);
  });

  it('refuses a block shorter than its lines, a plane too small for its rows, and a malformed plan', () => {
    const block: BlockLayout = {
      channels: [{ name: 'Y', pixelType: 'half', pLinear: false, xSampling: 1, ySampling: 1 }],
      x0: 0,
      y0: 0,
      widthPx: 8,
      heightPx: 4,
    };
    const box: Box2i = { xMin: 0, yMin: 0, xMax: 7, yMax: 3 };
    const planes = planesFor(block, box, [true]);
    const plan = makeUnpackPlan(block, box, box, planes);
    plan.words[2] = 4;
    expect(() => nativeKernels!.unpackRows(new Uint8Array(63), plan.words, plan.views)).toThrow(/shorter than its lines/);
    expect(() => nativeKernels!.unpackRows(new Uint8Array(64), plan.words, [new Uint8Array(63)])).toThrow(/outside its plane/);
    expect(() => nativeKernels!.unpackRows(new Uint8Array(64), plan.words.subarray(0, 11), plan.views)).toThrow(/plan/);
    expect(() => nativeKernels!.unpackRows(new Uint8Array(64), plan.words, [])).toThrow(/planes/);
    const badCopy = plan.words.slice();
    badCopy[8] = 17; // copyBytes past lineBytes
    expect(() => nativeKernels!.unpackRows(new Uint8Array(64), badCopy, plan.views)).toThrow(/plan/);
  });
});
