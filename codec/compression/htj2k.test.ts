// HTJ2K: the corpus files against OpenEXR 3.4's statistics, and damaged chunks (truncated, bit
// flips, lying lengths) refused with the codec's typed error on both decode paths.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkPlace, uncompressedBytes } from '../blocks.js';
import { ExrError } from '../core/errors.js';
import { fileStatsOf } from '../file-stats.js';
import { floatToHalf } from '../core/half.js';
import { memorySource } from '../index.js';
import { rgbaSource } from '../../testing/codec/oracle/images.js';
import { findOpenExr34 } from '../../testing/codec/oracle/openexr34.js';
import { sharedDir } from '../../testing/codec/oracle/tools.js';
import { ExrReader } from '../reader.js';
import { statsJson } from '../stats.js';
import { writeExrFile } from '../writer.js';
import { useOpenjph } from './htj2k-openjph.js';
import { decompress } from './index.js';
import { readHtChunkHeader } from './htj2k.js';

const corpusDir = join(sharedDir, 'corpus/htj2k');
const corpusFiles = existsSync(corpusDir) ? ['Tree_htj2k256', 'StillLife_htj2k32'] : [];

describe.skipIf(corpusFiles.length === 0)('HTJ2K corpus (../shared/corpus/htj2k) equals OpenEXR 3.4', () => {
  for (const name of corpusFiles) {
    it(`${name} (OpenJPH path, then TypeScript path)`, () => {
      const want = readFileSync(join(corpusDir, `${name}.json`), 'utf8').trim();
      const path = join(corpusDir, `${name}.exr`);
      expect(statsJson(fileStatsOf(path))).toBe(want);
      try {
        useOpenjph(false);
        expect(statsJson(fileStatsOf(path))).toBe(want);
      } finally {
        useOpenjph(true);
      }
    }, 60_000);
  }
});

describe('HTJ2K chunk header', () => {
  const header = (magic: number, plen: number, map: number[]) => {
    const b = new Uint8Array(8 + 2 * map.length + 4);
    const v = new DataView(b.buffer);
    v.setUint16(0, magic);
    v.setUint32(2, plen);
    v.setUint16(6, map.length);
    map.forEach((c, i) => v.setUint16(8 + 2 * i, c));
    return b;
  };

  it('reads the channel map and where the codestream starts', () => {
    expect(readHtChunkHeader(header(0x4854, 8, [2, 0, 1]), 3)).toEqual({ channelOfComponent: [2, 0, 1], codestreamStart: 14 });
  });

  it('refuses a wrong magic number, a lying payload length, a wrong or repeated channel', () => {
    const refuse = (bytes: Uint8Array, channels: number, pattern: RegExp) => {
      let error: unknown;
      try {
        readHtChunkHeader(bytes, channels);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ExrError);
      expect((error as ExrError).kind).toBe('invalid');
      expect((error as ExrError).message).toMatch(pattern);
    };
    refuse(header(0x4855, 8, [0, 1, 2]), 3, /magic/);
    refuse(header(0x4854, 4000, [0, 1, 2]), 3, /claims 4000 bytes/);
    refuse(header(0x4854, 2, [0, 1, 2]), 3, /cannot map 3 channels/);
    refuse(header(0x4854, 8, [0, 1, 2]), 4, /maps 3 channels, the part has 4/);
    refuse(header(0x4854, 8, [0, 1, 1]), 3, /out of range or taken/);
    refuse(header(0x4854, 8, [0, 1, 3]), 3, /out of range or taken/);
    refuse(header(0x4854, 12, [0, 1, 2]), 3, /no codestream/);
    refuse(new Uint8Array(5), 1, /too short/);
  });
});

const found = findOpenExr34();
const noTools = 'reason' in found ? found.reason : null;

describe.skipIf(noTools !== null)('damaged HTJ2K chunks are refused with ExrError or decoded, on both paths', () => {
  let dir = '';
  const files: Record<string, Uint8Array> = {};
  beforeAll(() => {
    if (!('tools' in found)) return;
    dir = mkdtempSync(join(tmpdir(), 'exrview-htj2k-damage-'));
    const half = rgbaSource({ xMin: 0, yMin: 0, xMax: 40, yMax: 39 }, 3);
    half.channels = half.channels.map((c) => ({
      ...c,
      pixelType: 'half' as const,
      data: Uint16Array.from(c.data as Float32Array, (v) => floatToHalf(v)),
    }));
    writeExrFile(join(dir, 'half.exr'), [{ ...half, compression: 'zip' }]);
    writeExrFile(join(dir, 'float.exr'), [{ ...rgbaSource({ xMin: -2, yMin: 1, xMax: 30, yMax: 40 }, 4), compression: 'zip' }]);
    for (const name of ['half', 'float']) {
      found.tools.recompress(join(dir, `${name}.exr`), join(dir, `${name}-ht.exr`), 'htj2k32');
      files[name] = new Uint8Array(readFileSync(join(dir, `${name}-ht.exr`)));
    }
  });
  afterAll(() => {
    useOpenjph(true);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The first chunk's compressed bytes and what decompress needs for it. */
  function firstChunk(bytes: Uint8Array) {
    const reader = ExrReader.open(memorySource(bytes));
    const part = reader.part(0);
    const chunk = reader.readChunk(0, 0);
    const { block } = chunkPlace(part, 0);
    return { compression: part.compression, data: chunk.data, block, expected: uncompressedBytes(block) };
  }

  /** Decodes or throws ExrError: anything else (a TypeError, a RangeError, a hang) fails the test. */
  function outcome(run: () => Uint8Array): 'decoded' | string {
    try {
      run();
      return 'decoded';
    } catch (error) {
      expect(error).toBeInstanceOf(ExrError);
      expect((error as ExrError).reason.length).toBeGreaterThan(0);
      return (error as ExrError).reason;
    }
  }

  for (const name of ['half', 'float']) {
    for (const openjph of [true, false]) {
      it(`${name} chunk, ${openjph ? 'OpenJPH' : 'TypeScript'} path: truncations, bit flips and lying lengths`, () => {
        useOpenjph(openjph);
        const { compression, data, block, expected } = firstChunk(files[name]!);
        expect(outcome(() => decompress(compression, data, block, expected))).toBe('decoded');
        const reasons = new Set<string>();
        // truncated anywhere: the header, the main header, the packet headers, the code-blocks
        for (const cut of [1, 5, 7, 9, 20, 40, 60, 90, 130, data.length >> 2, data.length >> 1, data.length - 3, data.length - 1]) {
          reasons.add(outcome(() => decompress(compression, data.subarray(0, Math.max(1, cut)), block, expected)));
        }
        // single bit flips across the whole chunk (deterministic positions)
        let decodedFlips = 0;
        for (let k = 0; k < 400; k++) {
          const at = (k * 7919) % data.length;
          const bad = data.slice();
          bad[at]! ^= 1 << (k % 8);
          const r = outcome(() => decompress(compression, bad, block, expected));
          if (r === 'decoded') decodedFlips++;
          else reasons.add(r);
        }
        // lying lengths: the payload length, the SIZ size, a tile-part length, a marker length
        const lie = (at: number, value: number) => {
          const bad = data.slice();
          bad[at] = value;
          return outcome(() => decompress(compression, bad, block, expected));
        };
        const plenAt = 5;
        const csStart = readHtChunkHeader(data, block.channels.length).codestreamStart;
        reasons.add(lie(plenAt, data[plenAt]! + 9));
        reasons.add(lie(2, 0x7f));
        reasons.add(lie(csStart + 4 + 2 + 4 + 3, 0xff)); // Xsiz's low byte
        reasons.add(lie(csStart + 3, 0xff)); // SIZ's length
        reasons.delete('decoded');
        // the checks that fire are many and say what is wrong
        expect(reasons.size).toBeGreaterThan(6);
        expect(decodedFlips).toBeLessThan(400);
        useOpenjph(true);
      }, 60_000);
    }
  }
});

if (noTools !== null) {
  describe('damaged HTJ2K chunks', () => {
    it.skip(`skipped: ${noTools}`, () => {});
  });
}
if (corpusFiles.length === 0) {
  describe('HTJ2K corpus', () => {
    it.skip(`skipped: ${corpusDir} is absent (the shared corpus sits beside the checkout)`, () => {});
  });
}
