// The streaming writer: the same bytes as writeExr for the same pixels, scanline and tiled with levels; repeated blocks reused.

import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { floatToHalf } from './core/half.js';
import type { Box2i, Compression } from './core/types.js';
import { fromFloatPlane, reduce, toFloatPlane, type Plane } from './mip-levels.js';
import type { Level } from './part.js';
import { ExrReader } from './reader.js';
import { memorySource } from './source.js';
import { writeExrFileStreaming, type BlockPixels, type BlockSource, type StreamPart } from './writer-stream.js';
import { writeExr, type WriteChannel, type WritePart } from './writer.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-writer-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two channels given out of name order (they are stored sorted), one half and one float. */
function channelsOf(widthPx: number, heightPx: number): WriteChannel[] {
  const g = new Float32Array(widthPx * heightPx);
  const a = new Uint16Array(widthPx * heightPx);
  for (let y = 0; y < heightPx; y++)
    for (let x = 0; x < widthPx; x++) {
      g[y * widthPx + x] = Math.sin(x * 0.37) * y + x / 7;
      a[y * widthPx + x] = floatToHalf(((x * 13 + y * 29) % 64) / 64);
    }
  return [
    { name: 'G', pixelType: 'float', data: g },
    { name: 'A', pixelType: 'half', data: a },
  ];
}

/** The block of each level's planes (level 0 the channels' own, lower levels box-filtered as writeExr does). */
function blocksOf(part: WritePart): BlockPixels {
  const w = part.dataWindow.xMax - part.dataWindow.xMin + 1,
    h = part.dataWindow.yMax - part.dataWindow.yMin + 1;
  const levels = new Map<string, Plane[]>();
  return (level: Level, block) => {
    const key = `${level.lx},${level.ly}`;
    if (!levels.has(key)) {
      levels.set(
        key,
        part.channels.map((c) => {
          let p = toFloatPlane(c.data, c.pixelType, w, h);
          for (let i = 0; i < level.lx; i++) p = reduce(reduce(p, 'x', 'roundDown'), 'y', 'roundDown');
          return level.lx === 0 ? c.data : fromFloatPlane(p, c.pixelType);
        }),
      );
    }
    const x0 = block.x0 - part.dataWindow.xMin,
      y0 = block.y0 - part.dataWindow.yMin;
    return levels.get(key)!.map((plane) => {
      const out = new (plane.constructor as new (n: number) => Plane)(block.widthPx * block.heightPx);
      for (let y = 0; y < block.heightPx; y++) {
        const from = (y0 + y) * level.widthPx + x0;
        out.set(plane.subarray(from, from + block.widthPx), y * block.widthPx);
      }
      return out;
    });
  };
}

function streamed(name: string, part: StreamPart | WritePart, source: BlockSource): Uint8Array {
  const path = join(dir, name);
  writeExrFileStreaming(path, { ...part, channels: part.channels.map((c) => ({ name: c.name, pixelType: c.pixelType })) }, source);
  return new Uint8Array(readFileSync(path));
}

describe('writeExrFileStreaming', () => {
  const dataWindow: Box2i = { xMin: -5, yMin: 3, xMax: 90, yMax: 70 };
  const cases: [string, Compression, WritePart['tiles']][] = [
    ['scanline ZIP', 'zip', undefined],
    ['scanline PIZ', 'piz', undefined],
    ['tiled ZIP, one level', 'zip', { xSizePx: 32, ySizePx: 16 }],
    ['tiled ZIP, MIP levels', 'zip', { xSizePx: 16, ySizePx: 16, levelMode: 'mipmapLevels' }],
  ];
  for (const [what, compression, tiles] of cases) {
    it(`writes what writeExr writes: ${what}`, () => {
      const part: WritePart = { dataWindow, compression, ...(tiles ? { tiles } : {}), channels: channelsOf(96, 68) };
      const bytes = streamed(`${what}.exr`, part, { pixels: blocksOf(part) });
      expect(Buffer.from(bytes).equals(Buffer.from(writeExr([part])))).toBe(true);
      const decoded = ExrReader.open(memorySource(bytes)).decode();
      expect(decoded.channels.map((c) => c.name)).toEqual(['A', 'G']);
      expect(decoded.channels[1]!.data).toEqual(part.channels[0]!.data);
    });
  }

  it('asks for, and compresses, a block named as one already written once; the file is the one writeExr writes', () => {
    const tileOf = (odd: boolean): Uint16Array => Uint16Array.from({ length: 64 }, (_, i) => floatToHalf((odd ? 63 - i : i) / 64));
    const isOdd = (x0: number, y0: number): boolean => x0 === 8 && y0 === 16;
    let asked = 0;
    const part = { dataWindow: { xMin: 0, yMin: 0, xMax: 31, yMax: 31 }, tiles: { xSizePx: 8, ySizePx: 8 } };
    const bytes = streamed(
      'repeated.exr',
      { ...part, channels: [{ name: 'Y', pixelType: 'half' }] },
      {
        pixels: (_, b) => {
          asked++;
          return [tileOf(isOdd(b.x0, b.y0))];
        },
        sameAs: (_, b) => (isOdd(b.x0, b.y0) ? 'odd' : 'even'),
      },
    );
    expect(asked).toBe(2);
    const whole = new Uint16Array(32 * 32);
    for (let y = 0; y < 32; y++) for (let x = 0; x < 32; x++) whole[y * 32 + x] = tileOf(isOdd(x & ~7, y & ~7))[(y % 8) * 8 + (x % 8)]!;
    const expected = writeExr([{ ...part, channels: [{ name: 'Y', pixelType: 'half', data: whole }] }]);
    expect(Buffer.from(bytes).equals(Buffer.from(expected))).toBe(true);
  });

  it('refuses a block of the wrong size or type, and leaves no file behind', () => {
    const part = { dataWindow: { xMin: 0, yMin: 0, xMax: 7, yMax: 7 }, channels: [{ name: 'Y', pixelType: 'half' as const }] };
    expect(() => streamed('short.exr', part, { pixels: () => [new Uint16Array(3)] })).toThrow(/the block holds 3 samples, expected 64/);
    expect(() => streamed('type.exr', part, { pixels: (_, b) => [new Float32Array(b.widthPx * b.heightPx)] })).toThrow(
      /is half but its block is a Float32Array/,
    );
    expect(() => streamed('count.exr', part, { pixels: () => [] })).toThrow(/a block needs 1 planes, was given 0/);
    expect(readdirSync(dir).filter((f) => f.includes('short') || f.includes('type.exr') || f.includes('count'))).toEqual([]);
  });
});
