// Property: any image (channel set, types, subsampling, size, data window, tiling, parts) written with a
// lossless compression reads back bit for bit.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { memorySource } from './source.js';
import { ExrReader } from './reader.js';
import type { Compression, PixelType } from './core/types.js';
import { writeExr, type WritePart } from './writer.js';

const LOSSLESS: readonly Compression[] = ['none', 'rle', 'zips', 'zip', 'piz'];
const NAMES = ['R', 'G', 'B', 'A', 'Y', 'RY', 'BY', 'Z', 'diffuse.R', 'diffuse.G', 'id', 'mask.a', 'N.x', 'N.y'];

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
const lcm = (a: number, b: number) => (a * b) / gcd(a, b);

interface ChannelSpec {
  name: string;
  pixelType: PixelType;
  xSampling: number;
  ySampling: number;
}

/** Random bit patterns of the channel's type: every half and float value, NaN payloads included. */
function planeBits(pixelType: PixelType, count: number, seed: number): Uint16Array | Float32Array | Uint32Array {
  const bits = new Uint32Array(count);
  let s = seed >>> 0 || 1;
  for (let i = 0; i < count; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    // runs of equal values too, so RLE and the predictors see both kinds of data
    bits[i] = i % 7 < 3 && i > 0 ? bits[i - 1]! : s;
  }
  if (pixelType === 'half') return Uint16Array.from(bits, (b) => b & 0xffff);
  if (pixelType === 'float') return new Float32Array(bits.buffer);
  return bits;
}

const channelSpecs = (subsampled: boolean) =>
  fc.uniqueArray(
    fc.record({
      name: fc.constantFrom(...NAMES),
      pixelType: fc.constantFrom<PixelType>('half', 'float', 'uint'),
      xSampling: subsampled ? fc.constantFrom(1, 2, 3) : fc.constant(1),
      ySampling: subsampled ? fc.constantFrom(1, 2, 3) : fc.constant(1),
    }),
    { minLength: 1, maxLength: 5, selector: (c) => c.name },
  );

const partSpec = (tiled: boolean) =>
  fc.record({
    channels: channelSpecs(!tiled),
    compression: fc.constantFrom(...LOSSLESS),
    widthSteps: fc.integer({ min: 1, max: 12 }),
    heightSteps: fc.integer({ min: 1, max: 12 }),
    xOriginSteps: fc.integer({ min: -8, max: 8 }),
    yOriginSteps: fc.integer({ min: -8, max: 8 }),
    decreasing: fc.boolean(),
    tileX: fc.integer({ min: 1, max: 20 }),
    tileY: fc.integer({ min: 1, max: 20 }),
    levelMode: fc.constantFrom('oneLevel', 'mipmapLevels', 'ripmapLevels' as const),
    roundUp: fc.boolean(),
    seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  });

type Spec = typeof partSpec extends (t: boolean) => fc.Arbitrary<infer T> ? T : never;

function buildPart(spec: Spec, tiled: boolean, index: number): WritePart {
  const xStep = spec.channels.reduce((m, c: ChannelSpec) => lcm(m, c.xSampling), 1);
  const yStep = spec.channels.reduce((m, c: ChannelSpec) => lcm(m, c.ySampling), 1);
  const widthPx = spec.widthSteps * xStep;
  const heightPx = spec.heightSteps * yStep;
  const xMin = spec.xOriginSteps * xStep;
  const yMin = spec.yOriginSteps * yStep;
  return {
    name: `part${index}`,
    compression: spec.compression,
    dataWindow: { xMin, yMin, xMax: xMin + widthPx - 1, yMax: yMin + heightPx - 1 },
    lineOrder: !tiled && spec.decreasing ? 'decreasingY' : 'increasingY',
    ...(tiled
      ? {
          tiles: {
            xSizePx: spec.tileX,
            ySizePx: spec.tileY,
            levelMode: spec.levelMode,
            roundingMode: spec.roundUp ? 'roundUp' : 'roundDown',
          },
        }
      : {}),
    channels: spec.channels.map((c: ChannelSpec, i: number) => ({
      ...c,
      data: planeBits(c.pixelType, (widthPx / c.xSampling) * (heightPx / c.ySampling), spec.seed + i),
    })),
  } as WritePart;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

function expectRoundTrip(parts: WritePart[]): void {
  const reader = ExrReader.open(memorySource(writeExr(parts)));
  expect(reader.parts.length).toBe(parts.length);
  parts.forEach((part, p) => {
    const info = reader.parts[p]!;
    expect(info.dataWindow).toEqual(part.dataWindow);
    expect(info.compression).toBe(part.compression);
    const image = reader.decode({ part: p });
    for (const channel of part.channels) {
      const decoded = image.channels.find((c) => c.name === channel.name)!;
      expect(decoded.pixelType).toBe(channel.pixelType);
      expect(Buffer.from(bytesOf(decoded.data)).equals(Buffer.from(bytesOf(channel.data))), `${channel.name} of part ${p}`).toBe(true);
    }
    // every lower level of a tiled part decodes to its own size
    for (const level of info.levels.slice(1)) {
      const lower = reader.decode({ part: p, lx: level.lx, ly: level.ly });
      expect(lower.widthPx * lower.heightPx).toBe(level.widthPx * level.heightPx);
    }
  });
}

describe('writer round trip (property)', () => {
  it('scanline parts with any channels, subsampling, data window and lossless compression read back bit for bit', () => {
    fc.assert(
      fc.property(partSpec(false), (spec) => expectRoundTrip([buildPart(spec, false, 0)])),
      { numRuns: 120 },
    );
  });

  it('tiled parts (one level, mipmap, ripmap; any tile size and rounding) read back bit for bit', () => {
    fc.assert(
      fc.property(partSpec(true), (spec) => expectRoundTrip([buildPart(spec, true, 0)])),
      { numRuns: 80 },
    );
  });

  it('multipart files mixing scanline and tiled parts read back bit for bit', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.boolean().chain((tiled) => partSpec(tiled).map((spec) => [spec, tiled] as const)),
          { minLength: 2, maxLength: 4 },
        ),
        (specs) => expectRoundTrip(specs.map(([spec, tiled], i) => buildPart(spec, tiled, i))),
      ),
      { numRuns: 40 },
    );
  });
});
