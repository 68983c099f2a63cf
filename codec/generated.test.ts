// Conformance on generated files: every compression, pixel type, tiling, level mode, line order, part mix and
// deep part, decoded by exrview and by the OpenEXR C++ library; the two must agree exactly.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStatsOf } from './file-stats.js';
import { channelStats, statsJson } from './stats.js';
import { openFileSource } from './file-source.js';
import {
  deepSource,
  layeredChannels,
  planeOf,
  patternValue,
  rgbaSource,
  subsampledChannels,
  idValue,
} from '../testing/codec/oracle/images.js';
import { findImageTools, findOracles, fnv1a, runJson, runText, sharedDir, type Oracles } from '../testing/codec/oracle/tools.js';
import { floatToHalf } from './core/half.js';
import { decodeDeep } from './deep.js';
import { ExrReader } from './reader.js';
import type { Box2i, Compression } from './core/types.js';
import { writeExrFile, type WritePart } from './writer.js';

const ALL: readonly Compression[] = ['none', 'rle', 'zips', 'zip', 'piz', 'pxr24', 'b44', 'b44a', 'dwaa', 'dwab'];
/** What OpenEXR allows in deep parts. */
const DEEP: readonly Compression[] = ['none', 'rle', 'zips'];
/** What the project's writer can compress (the other methods come from oiiotool). */
const WRITABLE: readonly Compression[] = ['none', 'rle', 'zips', 'zip', 'piz', 'pxr24'];
const deepCorpusFile = join(sharedDir, 'corpus/openexr-images/v2/LowResLeftView/Balls.exr');

const found = findOracles();
const tools = findImageTools();
const skipReason = 'reason' in found ? found.reason : null;
const noOiio = tools.oiiotool === null ? 'oiiotool is not installed (Debian: openimageio-tools)' : null;

interface Case {
  name: string;
  /** Makes the file; returns its path. */
  make: (path: string) => void;
  deep?: boolean;
  /** Made with oiiotool (or from a file it makes). */
  oiio?: boolean;
}

const box = (xMin: number, yMin: number, widthPx: number, heightPx: number): Box2i => ({
  xMin,
  yMin,
  xMax: xMin + widthPx - 1,
  yMax: yMin + heightPx - 1,
});
let dir = '';
const src = () => join(dir, 'source.exr');
let halfPath = '';
/** The source in half, scanline, for OpenEXR's own tools (made once). */
function halfSource(): string {
  if (!halfPath) {
    halfPath = join(dir, 'source-half.exr');
    oiio(src(), '-d', 'half', '--compression', 'zip', '-o', halfPath);
  }
  return halfPath;
}
const oiio = (...args: string[]) => execFileSync(tools.oiiotool!, args, { stdio: ['ignore', 'ignore', 'pipe'] });

/** oiiotool starts slowly: outputs that differ only in their output settings are written by one command. */
interface Batch {
  input: () => string[];
  outputs: string[][];
  ran: boolean;
}
const batches = new Map<string, Batch>();
const batchOutput = (key: string, n: number) => join(dir, `batch-${key}-${n}.exr`);

function runBatch(key: string): void {
  const batch = batches.get(key)!;
  if (batch.ran) return;
  batch.ran = true;
  oiio(...batch.input(), ...batch.outputs.flatMap((settings, n) => [...settings, '-o', batchOutput(key, n)]));
}

function cases(): Case[] {
  const out: Case[] = [];
  const oiioCase = (name: string, args: (path: string) => string[]) => out.push({ name, oiio: true, make: (path) => oiio(...args(path)) });
  const batched = (name: string, key: string, input: () => string[], settings: string[], deep = false) => {
    let batch = batches.get(key);
    if (!batch) batches.set(key, (batch = { input, outputs: [], ran: false }));
    const n = batch.outputs.push(settings) - 1;
    out.push({ name, deep, oiio: true, make: (path) => (runBatch(key), renameSync(batchOutput(key, n), path)) });
  };
  for (const type of ['half', 'float', 'uint32']) {
    for (const c of ALL) batched(`scanline ${c} ${type}`, type, () => [src(), '-d', type], ['--compression', c]);
  }
  for (const c of ALL) {
    // OpenImageIO writes DWA tiles only in sizes it likes (it falls back to ZIP for 17x13)
    const tile = c.startsWith('dwa') ? ['32', '16'] : ['17', '13'];
    batched(`tiled ${tile.join('x')} ${c} half and float`, 'tiled', () => [src(), '-d', 'half', '-d', 'A=float'], [
      '--tile',
      ...tile,
      '--compression',
      c,
    ]);
  }
  for (const c of ['piz', 'b44', 'b44a', 'dwaa', 'pxr24']) {
    batched(`1x1 pixel ${c}`, 'one-pixel', () => [src(), '--cut', '1x1+6+5', '-d', 'half'], ['--compression', c]);
  }
  for (const c of ['zip', 'piz', 'dwab']) {
    batched(`decreasing y ${c}`, 'decreasing', () => [src(), '--attrib', 'openexr:lineOrder', 'decreasingY', '-d', 'half'], [
      '--compression',
      c,
    ]);
  }
  for (const c of ['piz', 'b44a', 'dwaa', 'rle']) {
    batched(`negative data window origin ${c}`, 'origin', () => [src(), '--origin', '-13-7', '-d', 'half'], ['--compression', c]);
  }
  oiioCase('8K image, zip', (path) => [
    '--pattern',
    'fill:top=0:bottom=2',
    '8192x4320',
    '1',
    '--chnames',
    'Y',
    '-d',
    'half',
    '--compression',
    'zip',
    '-o',
    path,
  ]);
  for (const c of ALL) {
    batched(`every half value (NaNs, infinities, subnormals), ${c}`, 'all-halves', () => [join(dir, 'all-halves.exr'), '-d', 'half'], [
      '--compression',
      c,
    ]);
  }
  if (tools.exrmaketiled) {
    // OpenEXR's own encoder, which keeps each channel's type: half, float and uint in one tile
    for (const c of ['piz', 'pxr24', 'b44', 'b44a', 'dwaa', 'dwab']) {
      out.push({
        name: `exrmaketiled: tiles 17x13 ${c}, half/float/uint channels in one chunk`,
        make: (path) =>
          execFileSync(tools.exrmaketiled!, ['-o', '-t', '17', '13', '-z', c, join(dir, 'mixed-types.exr'), path], { stdio: 'ignore' }),
      });
    }
  }

  const levels = [
    ['mipmapLevels', 'roundDown'],
    ['mipmapLevels', 'roundUp'],
    ['ripmapLevels', 'roundDown'],
    ['ripmapLevels', 'roundUp'],
  ] as const;
  levels.forEach(([levelMode, roundingMode], i) => {
    out.push({
      name: `writer: ${levelMode} ${roundingMode}, tiles 17x13, 61x37 at (-5, 3)`,
      make: (path) => {
        const dw = box(-5, 3, 61, 37);
        writeExrFile(path, [
          { ...rgbaSource(dw, i), compression: i % 2 ? 'piz' : 'zip', tiles: { xSizePx: 17, ySizePx: 13, levelMode, roundingMode } },
        ]);
      },
    });
    if (tools.exrmaketiled) {
      out.push({
        name: `exrmaketiled: ${levelMode} ${roundingMode}, tiles 17x13`,
        oiio: true,
        make: (path) => {
          const flags = [levelMode === 'mipmapLevels' ? '-m' : '-r', roundingMode === 'roundUp' ? '-u' : '-d'];
          execFileSync(tools.exrmaketiled!, [...flags, '-t', '17', '13', '-z', i % 2 ? 'b44' : 'piz', halfSource(), path], {
            stdio: 'ignore',
          });
        },
      });
    }
  });

  for (const c of WRITABLE) {
    out.push({
      name: `writer: 2x2 subsampled chroma and uint, negative origin, ${c}`,
      make: (path) =>
        writeExrFile(path, [
          { compression: c, dataWindow: box(-14, -8, 38, 42), displayWindow: box(0, 0, 20, 20), channels: subsampledChannels(38, 42) },
        ]),
    });
  }
  out.push({
    name: 'writer: decreasing y, rle, half/float/uint',
    make: (path) => {
      const part = rgbaSource(box(2, -9, 33, 47), 3);
      part.channels.push({ name: 'id', pixelType: 'uint', data: planeOf('uint', 33, 47, idValue) });
      writeExrFile(path, [{ ...part, compression: 'rle', lineOrder: 'decreasingY' }]);
    },
  });
  for (const c of ['piz', 'zip'] as const) {
    out.push({
      name: `writer: 30 layers (122 channels), ${c}`,
      make: (path) => writeExrFile(path, [{ compression: c, dataWindow: box(0, 0, 40, 35), channels: layeredChannels(30, 40, 35) }]),
    });
  }
  out.push({
    name: 'writer: multipart mixing scanline, tiled mipmap, tiled ripmap and deep parts',
    make: (path) => {
      const rgba = rgbaSource(box(-3, -2, 45, 40), 5);
      const deep = deepSource(20, 11, 4);
      const parts: WritePart[] = [
        { ...rgba, name: 'beauty', compression: 'piz', view: 'left' },
        {
          name: 'depth',
          compression: 'zip',
          dataWindow: box(0, 0, 50, 31),
          channels: [{ name: 'Z', pixelType: 'float', data: planeOf('float', 50, 31, (x, y) => x + y * 0.5) }],
          tiles: { xSizePx: 16, ySizePx: 8, levelMode: 'mipmapLevels', roundingMode: 'roundUp' },
        },
        { name: 'chroma', compression: 'rle', dataWindow: box(-2, 4, 20, 10), channels: subsampledChannels(20, 10) },
        {
          name: 'ids',
          compression: 'none',
          dataWindow: box(5, 5, 23, 19),
          channels: [{ name: 'id', pixelType: 'uint', data: planeOf('uint', 23, 19, idValue) }],
          tiles: { xSizePx: 7, ySizePx: 5, levelMode: 'ripmapLevels', roundingMode: 'roundDown' },
        },
        { name: 'deep', compression: 'zips', dataWindow: box(1, 1, 20, 11), channels: deep.channels, deepSampleCounts: deep.sampleCounts },
      ];
      writeExrFile(path, parts);
    },
    deep: true,
  });
  if (tools.exrmultipart) {
    out.push({
      name: 'exrmultipart: scanline dwaa + tiled b44 + scanline pxr24',
      oiio: true,
      make: (path) => {
        const a = join(dir, 'mp-a.exr');
        const b = join(dir, 'mp-b.exr');
        const c = join(dir, 'mp-c.exr');
        oiio(src(), '-d', 'half', '--compression', 'dwaa', '-o', a);
        oiio(src(), '-d', 'half', '--tile', '17', '13', '--compression', 'b44', '-o', b);
        oiio(src(), '-d', 'float', '--compression', 'pxr24', '-o', c);
        execFileSync(tools.exrmultipart!, ['-combine', '-i', `${a}::one`, `${b}::two`, `${c}::three`, '-o', path], { stdio: 'ignore' });
      },
    });
  }
  for (const c of DEEP) {
    for (const tiled of [false, true]) {
      out.push({
        name: `writer: deep ${tiled ? 'tiled 17x13' : 'scanline'} ${c}, 0-5 samples per pixel, half/float/uint`,
        make: (path) => {
          const deep = deepSource(45, 38, 5, c.length + (tiled ? 10 : 0));
          writeExrFile(path, [
            {
              compression: c,
              dataWindow: box(-7, 3, 45, 38),
              channels: deep.channels,
              deepSampleCounts: deep.sampleCounts,
              ...(tiled ? { tiles: { xSizePx: 17, ySizePx: 13 } } : {}),
            },
          ]);
        },
        deep: true,
      });
    }
    // OpenImageIO writes deep parts in NONE and ZIPS only (RLE falls back to ZIPS)
    if (existsSync(deepCorpusFile) && c !== 'rle') {
      batched(
        `oiiotool: deep tiled 17x13 ${c} from the corpus`,
        'deep',
        () => [deepCorpusFile, '--tile', '17', '13'],
        ['--compression', c],
        true,
      );
    }
  }
  return out;
}

/** Statistics of every level of every tiled (flat) part, in exr_levels_ref's shape. */
function levelStats(path: string): unknown {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const parts = reader.parts
      .filter((p) => p.isTiled && !p.isDeep)
      .map((p) => ({
        part: p.index,
        levels: p.levels
          .slice()
          .sort((a, b) => a.ly - b.ly || a.lx - b.lx)
          .map((level) => {
            const image = reader.decode({ part: p.index, lx: level.lx, ly: level.ly });
            const r = image.region;
            return {
              lx: level.lx,
              ly: level.ly,
              dataWindow: [r.xMin, r.yMin, r.xMax, r.yMax],
              channels: image.channels.map((c) => ({ name: c.name, ...channelStats(c) })),
            };
          }),
      }));
    return { parts };
  } finally {
    source.close();
  }
}

/** Hashes of what exrview reads from each deep part, in exr_deep_ref's shape. */
function deepHashes(path: string): unknown {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const parts = reader.parts
      .filter((p) => p.isDeep)
      .map((p) => {
        const deep = decodeDeep(reader, { part: p.index });
        const bytes = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
        return {
          part: p.index,
          samples: deep.totalSamples,
          countsHash: fnv1a(bytes(deep.sampleCounts)),
          channels: deep.channels.map((c) => ({ name: c.name, hash: fnv1a(bytes(c.data)) })),
        };
      });
    return { parts };
  } finally {
    source.close();
  }
}

describe.skipIf(skipReason !== null)('generated files: exrview decodes what OpenEXR decodes', () => {
  const oracles = 'oracles' in found ? found.oracles : ({} as Oracles);
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'exrview-generated-'));
    writeExrFile(src(), [rgbaSource(box(0, 0, 97, 301))]);
    // three channels: OpenImageIO writes DWA only for images with at least three
    const halves = (f: (i: number) => number) => Uint16Array.from({ length: 65536 }, (_, i) => f(i) & 0xffff);
    writeExrFile(join(dir, 'all-halves.exr'), [
      {
        compression: 'zip',
        dataWindow: box(0, 0, 256, 256),
        channels: [
          { name: 'R', pixelType: 'half', data: halves((i) => i) },
          { name: 'G', pixelType: 'half', data: halves((i) => 65535 - i) },
          { name: 'B', pixelType: 'half', data: halves((i) => i * 40503) },
        ],
      },
    ]);
    const mixed = rgbaSource(box(0, 0, 61, 45), 9);
    mixed.channels[0] = { name: 'R', pixelType: 'half', data: Uint16Array.from(mixed.channels[0]!.data, (v) => floatToHalf(v)) };
    mixed.channels.push({ name: 'id', pixelType: 'uint', data: planeOf('uint', 61, 45, idValue) });
    writeExrFile(join(dir, 'mixed-types.exr'), [{ ...mixed, compression: 'zip' }]);
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  cases().forEach((c, i) => {
    it.skipIf(c.oiio === true && noOiio !== null)(c.oiio && noOiio ? `${c.name} (skipped: ${noOiio})` : c.name, () => {
      const path = join(dir, `case-${i}.exr`);
      c.make(path);
      const want = runText(oracles.refStats, [path]);
      expect(want.startsWith('{"error"'), `OpenEXR rejects the generated file: ${want}`).toBe(false);
      // the tools fall back to other methods silently: the case must test what it says
      const intended = ALL.find((m) => new RegExp(`\\b${m}\\b`).test(c.name));
      if (intended && !c.name.startsWith('writer: multipart') && !c.name.startsWith('exrmultipart'))
        expect(want).toContain(`"compression":"${intended}"`);
      expect(statsJson(fileStatsOf(path))).toBe(want);
      if (c.deep) expect(deepHashes(path)).toEqual(runJson(oracles.deepRef, [path]));
      // every level of every tiled part, not only level 0
      const levels = runText(oracles.levelsRef, [path]);
      if (levels !== '{"parts":[]}') expect(statsJson(levelStats(path))).toBe(levels);
      rmSync(path);
    });
  });

  it('patterns used above are not constant (a sanity check of the generator)', () => {
    expect(patternValue(0, 0, 0, 0)).not.toBe(patternValue(0, 30, 0, 0));
  });
});

if (skipReason !== null) {
  describe('generated files: exrview decodes what OpenEXR decodes', () => {
    it.skip(`skipped: ${skipReason}`, () => {});
  });
}
