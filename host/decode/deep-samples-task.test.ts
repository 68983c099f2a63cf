// Deep samples against OpenEXR: each pixel's list (one chunk read) and the depth-range composite of generated deep
// files (scanline and tiled, several compressions, overlapping volumes, zero-sample pixels) match exr_deep_range_ref.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExr } from '../../codec/writer.js';
import type { Compression } from '../../codec/core/types.js';
import { columnsOf } from '../../shaders/deep/columns.js';
import { compositeRange } from '../../shaders/deep/range-composite.js';
import { chunkSpans } from '../../testing/codec/damage.js';
import { deepVolumeSource } from '../../testing/codec/oracle/deep-volumes.js';
import { rgbaSource } from '../../testing/codec/oracle/images.js';
import { findOracles, runJson } from '../../testing/codec/oracle/tools.js';
import { deepSamplesTask } from './deep-samples-task.js';

interface OracleReply {
  width: number;
  height: number;
  channels: { name: string; type: string }[];
  counts: number[];
  samples: number[][];
  composite: number[][];
}

const found = findOracles();
const dir = mkdtempSync(join(tmpdir(), 'exrview-deep-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = { signal: { aborted: false } };
const X0 = -3;
const Y0 = 2;
const W = 13;
const H = 9;

function writeDeepFile(name: string, compression: Compression, tiles?: { xSizePx: number; ySizePx: number }): string {
  const deep = deepVolumeSource(W, H, 6, name.length * 31);
  const bytes = writeExr([
    {
      compression,
      dataWindow: { xMin: X0, yMin: Y0, xMax: X0 + W - 1, yMax: Y0 + H - 1 },
      channels: deep.channels,
      deepSampleCounts: deep.sampleCounts,
      ...(tiles ? { tiles } : {}),
    },
  ]);
  const path = join(dir, `${name}.exr`);
  writeFileSync(path, bytes);
  return path;
}

const bitsOf = (data: ArrayBuffer, pixelType: string): number[] =>
  Array.from(pixelType === 'half' ? new Uint16Array(data) : new Uint32Array(data));

const FILES: { name: string; compression: Compression; tiles?: { xSizePx: number; ySizePx: number } }[] = [
  { name: 'scan-none', compression: 'none' },
  { name: 'scan-rle', compression: 'rle' },
  { name: 'scan-zips', compression: 'zips' },
  { name: 'tiled-none', compression: 'none', tiles: { xSizePx: 16, ySizePx: 16 } },
  { name: 'tiled-zips', compression: 'zips', tiles: { xSizePx: 4, ySizePx: 3 } },
  { name: 'tiled-rle', compression: 'rle', tiles: { xSizePx: 5, ySizePx: 4 } },
];

/** Whole range, a cut through volumes, one depth only (point samples there), and nothing. */
const RANGES = [
  { near: 0, far: 100 },
  { near: 2.625, far: 5.125 },
  { near: 4, far: 4 },
  { near: 50, far: 60 },
];

describe.skipIf(!('oracles' in found))(`deep samples match OpenEXR${'reason' in found ? ` (skipped: ${found.reason})` : ''}`, () => {
  const oracle = 'oracles' in found ? found.oracles.deepRangeRef : '';

  for (const file of FILES) {
    it(`${file.name}: every pixel's samples, in file order with their depth order`, () => {
      const path = writeDeepFile(file.name, file.compression, file.tiles);
      const want = runJson(oracle, [path, '0', '0', '100']) as OracleReply;
      expect(want.width).toBe(W);
      let start = 0;
      for (let p = 0; p < W * H; p++) {
        const count = want.counts[p]!;
        const { result } = deepSamplesTask({ path, part: 0, pixel: { xPx: X0 + (p % W), yPx: Y0 + Math.floor(p / W) } }, ctx);
        expect(Array.from(new Uint32Array(result.sampleCounts))).toEqual([count]);
        result.channels.forEach((c, i) => {
          expect(c.name).toBe(want.channels[i]!.name);
          expect(bitsOf(c.data, c.pixelType)).toEqual(want.samples[i]!.slice(start, start + count));
        });
        expect(Array.from(new Uint32Array(result.fileIndex))).toEqual([...Array(count).keys()]);
        // the depth order sorts by Z, then ZBack
        const z = new Float32Array(result.channels.find((c) => c.name === 'Z')!.data);
        const back = new Float32Array(result.channels.find((c) => c.name === 'ZBack')!.data);
        const byDepth = [...Array(count).keys()].sort(
          (a, b) => new Uint32Array(result.depthIndex)[a]! - new Uint32Array(result.depthIndex)[b]!,
        );
        for (let k = 1; k < count; k++) {
          const [a, b] = [byDepth[k - 1]!, byDepth[k]!];
          expect(z[a]! < z[b]! || (z[a] === z[b] && (back[a]! < back[b]! || (back[a] === back[b] && a < b)))).toBe(true);
        }
        start += count;
      }
    });

    it(`${file.name}: the depth-range composite, sorted on the host, bit for bit`, () => {
      const path = writeDeepFile(`${file.name}-range`, file.compression, file.tiles);
      const { result } = deepSamplesTask({ path, part: 0, sortByDepth: true }, ctx);
      expect(result.region).toEqual([X0, Y0, X0 + W - 1, Y0 + H - 1]);
      const columns = columnsOf(result);
      for (const range of RANGES) {
        const want = runJson(oracle, [path, '0', String(range.near), String(range.far)]) as OracleReply;
        const got = compositeRange(columns, range);
        got.forEach((plane, c) =>
          expect(bitsOf(plane.buffer as ArrayBuffer, 'float'), `${want.channels[c]!.name} over ${range.near}..${range.far}`).toEqual(
            want.composite[c],
          ),
        );
      }
      const [near, far] = result.depthExtent!;
      expect(near).toBe(1);
      expect(far).toBeGreaterThan(8);
    });
  }
});

describe('deep samples: what a person is told', () => {
  it('a flat part, a pixel outside the data window, a damaged chunk', () => {
    const flat = join(dir, 'flat.exr');
    writeFileSync(flat, writeExr([rgbaSource({ xMin: 0, yMin: 0, xMax: 7, yMax: 7 })]));
    expect(() => deepSamplesTask({ path: flat, part: 0, pixel: { xPx: 1, yPx: 1 } }, ctx)).toThrow(/part 0 is not deep/);
    const path = writeDeepFile('errors', 'zips');
    expect(() => deepSamplesTask({ path, part: 0, pixel: { xPx: X0 - 1, yPx: Y0 } }, ctx)).toThrow(/outside the data window.*pick a pixel/);
    expect(() => deepSamplesTask({ path, part: 3, pixel: { xPx: X0, yPx: Y0 } }, ctx)).toThrow(/no part 3/);
    expect(() => deepSamplesTask({ path, part: 0, sortByDepth: true, maxSamples: 10 }, ctx)).toThrow(
      /more than 10 samples, more than the depth range takes at once: the sample list and the flattened view still work/,
    );

    const bytes = writeExr([{ compression: 'zips', dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 }, ...deepChunks() }]);
    const spans = chunkSpans(bytes);
    // chunk 4's compressed samples zeroed: line 4 cannot be read, line 0 still can
    for (let i = spans[4]!.start + 28; i < spans[4]!.end; i++) bytes[i] = 0;
    const damaged = join(dir, 'damaged.exr');
    writeFileSync(damaged, bytes);
    expect(() => deepSamplesTask({ path: damaged, part: 0, pixel: { xPx: 0, yPx: 4 } }, ctx)).toThrow(
      /the chunk holding pixel \(0, 4\) could not be read: .*damaged there/,
    );
    expect(new Uint32Array(deepSamplesTask({ path: damaged, part: 0, pixel: { xPx: 1, yPx: 0 } }, ctx).result.sampleCounts)[0]).toBe(
      deepVolumeSource(W, H, 6, 1).sampleCounts[1],
    );
  });
});

function deepChunks() {
  const deep = deepVolumeSource(W, H, 6, 1);
  return { channels: deep.channels, deepSampleCounts: deep.sampleCounts };
}
