// HTJ2K conformance on generated files: our writer's images, rewritten as HTJ2K256 and HTJ2K32 by
// OpenEXR 3.4's exr_recompress, decoded by exrview (OpenJPH's WebAssembly path and the TypeScript
// one) and by OpenEXR 3.4; the statistics must be equal.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOpenjph } from './compression/htj2k-openjph.js';
import { fileStatsOf } from './file-stats.js';
import { floatToHalf } from './core/half.js';
import { idValue, layeredChannels, patternValue, planeOf, rgbaSource, subsampledChannels } from '../testing/codec/oracle/images.js';
import { findOpenExr34, type OpenExr34 } from '../testing/codec/oracle/openexr34.js';
import { statsJson } from './stats.js';
import type { Box2i } from './core/types.js';
import { writeExrFile, type WriteChannel, type WritePart } from './writer.js';

const found = findOpenExr34();
const skipReason = 'reason' in found ? found.reason : null;
const box = (xMin: number, yMin: number, widthPx: number, heightPx: number): Box2i => ({
  xMin,
  yMin,
  xMax: xMin + widthPx - 1,
  yMax: yMin + heightPx - 1,
});

function halves(part: WritePart): WritePart {
  return {
    ...part,
    channels: part.channels.map((c) =>
      c.pixelType === 'float' ? { ...c, pixelType: 'half', data: Uint16Array.from(c.data as Float32Array, (v) => floatToHalf(v)) } : c,
    ),
  };
}
const uints = (part: WritePart): WritePart => ({
  ...part,
  channels: part.channels.map((c, i) => ({
    ...c,
    pixelType: 'uint',
    data: planeOf(
      'uint',
      part.dataWindow.xMax - part.dataWindow.xMin + 1,
      part.dataWindow.yMax - part.dataWindow.yMin + 1,
      (x, y) => idValue(x + i, y) * 977,
    ),
  })),
});
const channelsOf = (count: number, w: number, h: number, pixelType: 'half' | 'float'): WriteChannel[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `c${String(i).padStart(2, '0')}`,
    pixelType,
    data: planeOf(pixelType, w, h, (x, y) => patternValue(i % 4, x, y, 0.01) * (i + 1) - 0.5),
  }));

/** Sources, each rewritten in both HTJ2K compressions. */
const SOURCES: { name: string; part: () => WritePart }[] = [
  { name: 'half RGBA 97x301 (colour transform)', part: () => halves(rgbaSource(box(0, 0, 97, 301), 2)) },
  { name: 'float RGBA 61x45', part: () => rgbaSource(box(0, 0, 61, 45), 3) },
  {
    name: 'uint R, G 33x40',
    part: () => uints({ ...rgbaSource(box(0, 0, 33, 40), 4), channels: rgbaSource(box(0, 0, 33, 40), 4).channels.slice(1, 3) }),
  },
  {
    name: 'half, float and uint mixed, negative origin (-13, -7)',
    part: () => {
      const p = rgbaSource(box(-13, -7, 45, 39), 5);
      p.channels[0] = {
        ...p.channels[0]!,
        pixelType: 'half',
        data: Uint16Array.from(p.channels[0]!.data as Float32Array, (v) => floatToHalf(v)),
      };
      p.channels.push({ name: 'id', pixelType: 'uint', data: planeOf('uint', 45, 39, idValue) });
      return p;
    },
  },
  { name: 'one half channel', part: () => ({ dataWindow: box(0, 0, 40, 36), channels: channelsOf(1, 40, 36, 'half') }) },
  { name: 'two float channels', part: () => ({ dataWindow: box(5, 3, 29, 31), channels: channelsOf(2, 29, 31, 'float') }) },
  { name: '30 half channels', part: () => ({ dataWindow: box(0, 0, 23, 19), channels: channelsOf(30, 23, 19, 'half') }) },
  {
    name: '10 layers (32 channels: R, G, B per layer, depth, id)',
    part: () => ({ dataWindow: box(0, 0, 21, 17), channels: layeredChannels(10, 21, 17) }),
  },
  { name: '1x1 pixel half RGBA', part: () => halves(rgbaSource(box(6, 5, 1, 1), 6)) },
  { name: '1x1 pixel float RGBA', part: () => rgbaSource(box(-1, -1, 1, 1), 7) },
  { name: 'odd width 33x17 half', part: () => halves(rgbaSource(box(1, 0, 33, 17), 8)) },
  { name: 'odd width 35x9 float, odd origin', part: () => rgbaSource(box(-5, 3, 35, 9), 9) },
  { name: '1x997 half', part: () => halves(rgbaSource(box(0, 0, 1, 997), 10)) },
  { name: '1003x3 float', part: () => rgbaSource(box(0, 0, 1003, 3), 11) },
  {
    name: '2x2 subsampled chroma and uint, negative origin',
    part: () => ({ dataWindow: box(-14, -8, 38, 42), channels: subsampledChannels(38, 42) }),
  },
  {
    name: 'every half value (NaNs, infinities, subnormals)',
    part: () => {
      const all = (f: (i: number) => number) => Uint16Array.from({ length: 65536 }, (_, i) => f(i) & 0xffff);
      return {
        dataWindow: box(0, 0, 256, 256),
        channels: [
          { name: 'B', pixelType: 'half', data: all((i) => i * 40503) },
          { name: 'G', pixelType: 'half', data: all((i) => 65535 - i) },
          { name: 'R', pixelType: 'half', data: all((i) => i) },
        ],
      };
    },
  },
  { name: 'decreasing y half', part: () => ({ ...halves(rgbaSource(box(0, 0, 40, 70), 12)), lineOrder: 'decreasingY' }) },
];

let dir = '';

describe.skipIf(skipReason !== null)('HTJ2K generated files: exrview decodes what OpenEXR 3.4 decodes', () => {
  const tools = 'tools' in found ? found.tools : ({} as OpenExr34);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'exrview-htj2k-'));
  });
  afterAll(() => {
    useOpenjph(true);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  SOURCES.forEach((source, i) => {
    for (const compression of ['htj2k256', 'htj2k32']) {
      it(`${source.name}, ${compression}`, () => {
        const src = join(dir, `source-${i}.exr`);
        const path = join(dir, `case-${i}-${compression}.exr`);
        writeExrFile(src, [{ ...source.part(), compression: 'zip' }]);
        tools.recompress(src, path, compression);
        const want = tools.refStats(path);
        expect(want.startsWith('{"error"'), `OpenEXR 3.4 rejects the file: ${want}`).toBe(false);
        expect(want).toContain(`"compression":"${compression}"`);
        try {
          useOpenjph(true);
          expect(statsJson(fileStatsOf(path))).toBe(want);
          // the TypeScript decoder alone, for the chunks OpenJPH would have taken
          useOpenjph(false);
          expect(statsJson(fileStatsOf(path))).toBe(want);
        } finally {
          useOpenjph(true);
        }
      });
    }
  });
});

if (skipReason !== null) {
  describe('HTJ2K generated files', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
}
