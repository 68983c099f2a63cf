// Fuzz seeds: small files made by the project's own writer (every compression it writes, tiled, multipart, deep), plus the shared corpus when present.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deepSource, layeredChannels, rgbaSource, subsampledChannels } from '../oracle/images.js';
import { findOpenExr34 } from '../oracle/openexr34.js';
import type { Box2i, Compression } from '../../../codec/core/types.js';
import { writeExr, type WritePart } from '../../../codec/writer.js';

export interface Seed {
  name: string;
  bytes: Uint8Array;
  /** True for files read from ../shared/corpus: never write them (or cases made from them) into the repository. */
  fromCorpus: boolean;
}

/** What the writer can compress; B44 and DWA seeds come from the corpus only. */
export const WRITABLE: readonly Compression[] = ['none', 'rle', 'zips', 'zip', 'piz', 'pxr24'];
const DEEP: readonly Compression[] = ['none', 'rle', 'zips'];

const box = (xMin: number, yMin: number, widthPx: number, heightPx: number): Box2i => ({
  xMin,
  yMin,
  xMax: xMin + widthPx - 1,
  yMax: yMin + heightPx - 1,
});

/** Odd sizes and a non-zero origin, so edge chunks and negative coordinates are part of every seed. */
function rgba(compression: Compression, window: Box2i, halfChannels: boolean): WritePart {
  const part = rgbaSource(window, 3);
  if (halfChannels) {
    // keep A float so one seed mixes pixel types
    part.channels = part.channels.map((c) =>
      c.name === 'A'
        ? c
        : {
            ...c,
            pixelType: 'half',
            data: Uint16Array.from(c.data as Float32Array, (v) => (Number.isFinite(v) ? Math.min(0x7bff, Math.abs(v) * 100) | 0 : 0x7c00)),
          },
    );
  }
  return { ...part, compression };
}

/** The project's own seeds: a few KB each so a case decodes in about a millisecond. */
export function generatedSeeds(): Seed[] {
  const out: Seed[] = [];
  const add = (name: string, parts: WritePart[]) => out.push({ name, bytes: writeExr(parts), fromCorpus: false });
  for (const c of WRITABLE) {
    add(`scanline-${c}-half`, [rgba(c, box(-3, 2, 37, 21), true)]);
    add(`scanline-${c}-float`, [rgba(c, box(0, 0, 19, 40), false)]);
    add(`tiled-${c}-one`, [{ ...rgba(c, box(1, -1, 23, 17), true), tiles: { xSizePx: 8, ySizePx: 8 } }]);
  }
  add('scanline-zip-decreasing', [{ ...rgba('zip', box(0, 0, 16, 40), true), lineOrder: 'decreasingY' }]);
  add('tiled-zip-mipmap', [
    { ...rgba('zip', box(0, 0, 33, 18), true), tiles: { xSizePx: 8, ySizePx: 4, levelMode: 'mipmapLevels', roundingMode: 'roundUp' } },
  ]);
  add('tiled-piz-ripmap', [{ ...rgba('piz', box(0, 0, 20, 12), true), tiles: { xSizePx: 4, ySizePx: 4, levelMode: 'ripmapLevels' } }]);
  add('layers-uint-pxr24', [{ compression: 'pxr24', dataWindow: box(0, 0, 12, 10), channels: layeredChannels(2, 12, 10) }]);
  add('subsampled-zips', [{ compression: 'zips', dataWindow: box(0, 0, 16, 12), channels: subsampledChannels(16, 12) }]);
  add('subsampled-piz', [{ compression: 'piz', dataWindow: box(0, 0, 16, 12), channels: subsampledChannels(16, 12) }]);
  add('multipart-scan-tiled', [
    { ...rgba('zip', box(0, 0, 17, 9), true), name: 'beauty' },
    { ...rgba('piz', box(0, 0, 17, 9), false), name: 'tiles', tiles: { xSizePx: 8, ySizePx: 8, levelMode: 'mipmapLevels' } },
    { ...rgba('rle', box(2, 2, 5, 5), true), name: 'crop' },
  ]);
  for (const c of DEEP) {
    const deep = deepSource(9, 7, 3, 11);
    add(`deep-scanline-${c}`, [
      { compression: c, dataWindow: box(0, 0, 9, 7), channels: deep.channels, deepSampleCounts: deep.sampleCounts },
    ]);
  }
  const deep = deepSource(10, 6, 4, 13);
  add('deep-tiled-zips', [
    {
      compression: 'zips',
      dataWindow: box(0, 0, 10, 6),
      channels: deep.channels,
      deepSampleCounts: deep.sampleCounts,
      tiles: { xSizePx: 4, ySizePx: 4 },
    },
  ]);
  const d2 = deepSource(6, 5, 2, 17);
  add('multipart-deep-flat', [
    { compression: 'zips', name: 'deep', dataWindow: box(0, 0, 6, 5), channels: d2.channels, deepSampleCounts: d2.sampleCounts },
    { ...rgba('zip', box(0, 0, 6, 5), true), name: 'flat' },
  ]);
  return out;
}

/**
 * HTJ2K seeds, which the writer cannot make: small files of ours rewritten by OpenEXR 3.4's
 * exr_recompress (../shared/tools); empty when it is absent. Half-only seeds reach the OpenJPH
 * path, the others the TypeScript decoder. Made by an outside tool: never write them into the repository.
 */
export function htj2kSeeds(): Seed[] {
  const found = findOpenExr34();
  if (!('tools' in found)) return [];
  const dir = mkdtempSync(join(tmpdir(), 'exrview-htj2k-seeds-'));
  try {
    const sources: [string, WritePart][] = [
      ['half', rgba('zip', box(-3, 2, 37, 21), true)],
      ['mixed', rgba('zip', box(0, 0, 19, 40), false)],
      ['subsampled', { compression: 'zip', dataWindow: box(0, 0, 16, 12), channels: subsampledChannels(16, 12) }],
    ];
    const out: Seed[] = [];
    for (const [name, part] of sources) {
      const halfOnly = { ...part, channels: name === 'half' ? part.channels.filter((c) => c.pixelType === 'half') : part.channels };
      writeFileSync(join(dir, 'source.exr'), writeExr([halfOnly]));
      for (const compression of ['htj2k32', 'htj2k256']) {
        const path = join(dir, `${name}-${compression}.exr`);
        found.tools.recompress(join(dir, 'source.exr'), path, compression);
        out.push({ name: `htj2k:${name}-${compression}`, bytes: new Uint8Array(readFileSync(path)), fromCorpus: true });
      }
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The shared corpus beside a checkout whose root is `projectRoot`. */
export const corpusDirOf = (projectRoot: string): string => join(projectRoot, '..', 'shared', 'corpus', 'openexr-images');

/** Corpus files up to `maxBytes` (empty when ../shared is absent). Read only; cases from them stay out of the repository. */
export function corpusSeeds(corpusDir: string, maxBytes: number): Seed[] {
  if (!existsSync(corpusDir)) return [];
  const out: Seed[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (/\.exr$/i.test(name) && st.size <= maxBytes)
        out.push({ name: `corpus:${full.slice(corpusDir.length + 1)}`, bytes: new Uint8Array(readFileSync(full)), fromCorpus: true });
    }
  };
  walk(corpusDir);
  return out;
}
