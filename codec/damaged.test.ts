// Damaged files: every file of OpenEXR's damaged corpus is refused with a typed error or decoded, strictly and tolerantly
// (nothing crashes or hangs); files the writer made, then cut short or zeroed, decode tolerantly: every readable chunk,
// the others listed with their reason and zeroed.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrError, ExrReader, memorySource, missingRegions, openFileSource, writeExr, type DecodedImage, type WritePart } from './index.js';

const damagedDir = join(__dirname, '..', '..', 'shared', 'corpus', 'openexr-images', 'Damaged');
const available = existsSync(damagedDir);

describe.skipIf(!available)('damaged corpus (../shared/corpus/openexr-images/Damaged)', () => {
  const files = available ? readdirSync(damagedDir).filter((n) => !n.endsWith('.rst') && statSync(join(damagedDir, n)).isFile()) : [];

  it('has the files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  for (const name of files) {
    it(`${name.slice(0, 60)}: refused cleanly or decoded`, () => {
      const t0 = performance.now();
      const source = openFileSource(join(damagedDir, name));
      let outcome: 'decoded' | 'refused';
      try {
        const reader = ExrReader.open(source);
        for (const part of reader.parts) {
          if (part.isDeep) continue;
          reader.decode({ part: part.index });
        }
        outcome = 'decoded';
      } catch (error) {
        // a typed error with a reason, never a TypeError or an engine error
        expect(error).toBeInstanceOf(ExrError);
        expect((error as ExrError).reason.length).toBeGreaterThan(0);
        outcome = 'refused';
      } finally {
        source.close();
      }
      expect(['decoded', 'refused']).toContain(outcome);
      expect(performance.now() - t0).toBeLessThan(10_000);
    });

    it(`${name.slice(0, 60)}: a tolerant decode lists what it could not read, or refuses cleanly`, () => {
      const t0 = performance.now();
      const source = openFileSource(join(damagedDir, name));
      try {
        const reader = ExrReader.open(source);
        for (const part of reader.parts) {
          if (part.isDeep) continue;
          const image = reader.decode({ part: part.index, tolerant: true });
          if (!image.missing) continue;
          expect(image.missing.chunksRead + image.missing.failures.length).toBe(image.missing.chunksTotal);
          for (const failure of image.missing.failures)
            expect(failure.reason).toMatch(new RegExp(`^part ${part.index}, chunk ${failure.chunk}: .`));
        }
      } catch (error) {
        expect(error).toBeInstanceOf(ExrError);
        expect((error as ExrError).reason.length).toBeGreaterThan(0);
      } finally {
        source.close();
      }
      expect(performance.now() - t0).toBeLessThan(10_000);
    });
  }
});

const W = 40;
const H = 100; // ZIP: 16 lines a chunk, 7 chunks (the last of 4 lines)

function ramp(w: number, h: number, c: number): Float32Array {
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = 1 + c + x * 0.25 + y * 0.0625;
  return data;
}

function scanlineFile(): Uint8Array {
  const part: WritePart = {
    compression: 'zip',
    dataWindow: { xMin: 10, yMin: 20, xMax: 10 + W - 1, yMax: 20 + H - 1 },
    channels: ['R', 'G'].map((name, c) => ({ name, pixelType: 'float' as const, data: ramp(W, H, c) })),
  };
  return writeExr([part]);
}

function tiledFile(): Uint8Array {
  return writeExr([
    {
      compression: 'zip',
      dataWindow: { xMin: 0, yMin: 0, xMax: 63, yMax: 47 },
      tiles: { xSizePx: 16, ySizePx: 16 },
      channels: [{ name: 'Y', pixelType: 'half', data: Uint16Array.from(ramp(64, 48, 0), (v) => 0x3c00 + Math.round(v)) }],
    },
  ]);
}

/** Where each chunk of part 0 starts and ends in the file (chunks in file order). */
function chunkSpans(bytes: Uint8Array): { start: number; end: number }[] {
  const table = ExrReader.open(memorySource(bytes)).offsets[0]!;
  const starts = [...table];
  const sorted = [...starts].sort((a, b) => a - b);
  return starts.map((start) => ({ start, end: sorted.find((s) => s > start) ?? bytes.length }));
}

function decode(bytes: Uint8Array, tolerant: boolean): DecodedImage {
  return ExrReader.open(memorySource(bytes)).decode({ tolerant });
}

/** The plane's rows outside [yMin, yMax] (image rows, from 0) equal the whole file's; those inside are zero. */
function expectRowsMissing(got: DecodedImage, whole: DecodedImage, rows: { yMin: number; yMax: number }): void {
  for (let c = 0; c < whole.channels.length; c++) {
    const a = got.channels[c]!.data;
    const b = whole.channels[c]!.data;
    const width = whole.channels[c]!.widthSamples;
    for (let y = 0; y < whole.heightPx; y++) {
      const row = a.subarray(y * width, (y + 1) * width);
      if (y >= rows.yMin && y <= rows.yMax) expect(row.every((v) => v === 0)).toBe(true);
      else expect(row).toEqual(b.subarray(y * width, (y + 1) * width));
    }
  }
}

describe('tolerant decode', () => {
  const whole = scanlineFile();
  const spans = chunkSpans(whole);

  it('reads a whole file as the strict decode does, with nothing missing', () => {
    const got = decode(whole, true);
    expect(got.missing).toBeUndefined();
    expect(got.channels.map((c) => c.data)).toEqual(decode(whole, false).channels.map((c) => c.data));
  });

  it('a file cut short: the chunks before the cut decoded, the rest one missing box with the reason; strict still throws', () => {
    const cut = whole.subarray(0, spans[4]!.start + 10); // chunks 0-3 whole, chunk 4 cut inside its data
    expect(() => decode(cut, false)).toThrow(ExrError);
    const got = decode(cut, true);
    expect(got.missing).toMatchObject({ chunksRead: 4, chunksTotal: 7 });
    expect(got.missing!.failures.map((f) => f.chunk)).toEqual([4, 5, 6]);
    expect(got.missing!.failures[0]!.reason).toMatch(/^part 0, chunk 4: .*(incomplete|truncated|claims)/);
    expect(missingRegions(got.missing!.failures)).toEqual([{ xMin: 10, yMin: 20 + 64, xMax: 10 + W - 1, yMax: 20 + H - 1 }]);
    expectRowsMissing(got, decode(whole, false), { yMin: 64, yMax: H - 1 });
  });

  it('one zeroed chunk: only its lines missing, the chunks after it decoded', () => {
    const damaged = whole.slice();
    damaged.fill(0, spans[2]!.start, spans[2]!.end);
    expect(() => decode(damaged, false)).toThrow(/chunk 2/);
    const got = decode(damaged, true);
    expect(got.missing).toMatchObject({ chunksRead: 6, chunksTotal: 7 });
    expect(got.missing!.failures).toHaveLength(1);
    expect(got.missing!.failures[0]).toMatchObject({ chunk: 2, region: { xMin: 10, yMin: 20 + 32, xMax: 10 + W - 1, yMax: 20 + 47 } });
    expect(got.missing!.failures[0]!.reason).toMatch(/^part 0, chunk 2: /);
    expectRowsMissing(got, decode(whole, false), { yMin: 32, yMax: 47 });
  });

  it('a region decode lists only the failed chunks it touches, clipped to the region', () => {
    const damaged = whole.slice();
    damaged.fill(0, spans[2]!.start, spans[2]!.end);
    const reader = ExrReader.open(memorySource(damaged));
    const region = { xMin: 15, yMin: 20 + 40, xMax: 30, yMax: 20 + 70 };
    const got = reader.decode({ tolerant: true, region });
    expect(got.missing).toMatchObject({ chunksRead: 2, chunksTotal: 3 });
    expect(got.missing!.failures[0]!.region).toEqual({ xMin: 15, yMin: 60, xMax: 30, yMax: 67 });
    expect(reader.decode({ tolerant: true, region: { ...region, yMin: 20 + 48 } }).missing).toBeUndefined();
  });

  it('zeroes the missing pixels of planes that held something else, and of a chunk store, whose read gives zeros there', () => {
    const damaged = whole.slice();
    damaged.fill(0, spans[5]!.start, spans[5]!.end);
    const reader = ExrReader.open(memorySource(damaged));
    const frame = reader.parts[0]!.dataWindow;
    const planes = [new Float32Array(W * H).fill(7), new Float32Array(W * H).fill(7)];
    const storeBytes = new Uint8Array(reader.chunkStoreLayout(0, 0, 0).totalBytes).fill(0xab);
    const filled = reader.decode({ tolerant: true, into: { frame, planes }, chunkStore: { bytes: storeBytes, mode: 'fill' } });
    expect(filled.missing!.failures.map((f) => f.chunk)).toEqual([5]);
    const strictWhole = decode(whole, false);
    expectRowsMissing(filled, strictWhole, { yMin: 80, yMax: 95 });
    const fromStore = reader.decode({ channels: ['G'], chunkStore: { bytes: storeBytes, mode: 'read' } });
    const g = fromStore.channels[0]!.data;
    expect(g.subarray(80 * W, 96 * W).every((v) => v === 0)).toBe(true);
    expect(g.subarray(0, 80 * W)).toEqual(strictWhole.channels.find((c) => c.name === 'G')!.data.subarray(0, 80 * W));
  });

  it('a tiled file with a zeroed tile: that tile missing, its neighbours decoded', () => {
    const tiled = tiledFile();
    const tileSpans = chunkSpans(tiled);
    const damaged = tiled.slice();
    damaged.fill(0, tileSpans[5]!.start, tileSpans[5]!.end); // tile (1, 1) of 4 x 3
    const got = decode(damaged, true);
    expect(got.missing).toMatchObject({ chunksRead: 11, chunksTotal: 12 });
    expect(missingRegions(got.missing!.failures)).toEqual([{ xMin: 16, yMin: 16, xMax: 31, yMax: 31 }]);
    const strict = decode(tiled, false).channels[0]!.data;
    const y = got.channels[0]!.data;
    for (let row = 0; row < 48; row++) {
      for (let x = 0; x < 64; x++) {
        const inTile = row >= 16 && row < 32 && x >= 16 && x < 32;
        expect(y[row * 64 + x]).toBe(inTile ? 0 : strict[row * 64 + x]);
      }
    }
  });

  it('an abort still throws', () => {
    const reader = ExrReader.open(memorySource(whole));
    expect(() => reader.decode({ tolerant: true, signal: { aborted: true } })).toThrow(/cancelled/);
  });
});

describe('missingRegions', () => {
  const f = (chunk: number, xMin: number, yMin: number, xMax: number, yMax: number) => ({
    chunk,
    region: { xMin, yMin, xMax, yMax },
    reason: '',
  });

  it('joins a row of tiles, then rows with the same columns; keeps apart what does not touch', () => {
    const boxes = missingRegions([
      f(0, 0, 0, 15, 15),
      f(1, 16, 0, 31, 15),
      f(4, 0, 16, 15, 31),
      f(5, 16, 16, 31, 31),
      f(9, 48, 32, 63, 47),
    ]);
    expect(boxes).toEqual([
      { xMin: 0, yMin: 0, xMax: 31, yMax: 31 },
      { xMin: 48, yMin: 32, xMax: 63, yMax: 47 },
    ]);
  });
});

if (!available) {
  describe('damaged corpus', () => {
    it.skip(`skipped: ${damagedDir} is absent (the shared corpus sits beside the checkout)`, () => {});
  });
}
