// Selective decode: one part, one level, a channel subset, a region — and only the chunks it needs are read.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, openFileSource, type DecodedImage } from './index.js';
import { memorySource } from './source.js';
import { writeExr } from './writer.js';

const corpus = join(__dirname, '..', '..', 'shared', 'corpus', 'openexr-images');
const hasCorpus = existsSync(corpus);

function withReader<T>(name: string, fn: (reader: ExrReader, stats: { bytesRead: number }, sizeBytes: number) => T): T {
  const source = openFileSource(join(corpus, name));
  try {
    return fn(ExrReader.open(source), source.stats, source.sizeBytes);
  } finally {
    source.close();
  }
}

function sample(image: DecodedImage, channel: string, x: number, y: number): number {
  const c = image.channels.find((ch) => ch.name === channel)!;
  return c.data[(y - image.region.yMin) * c.widthSamples + (x - image.region.xMin)]!;
}

describe.skipIf(!hasCorpus)('selective decode', () => {
  it('a region of a scanline part equals the same pixels of a full decode, and reads fewer bytes', () => {
    withReader('ScanLines/Desk.exr', (reader, stats, sizeBytes) => {
      const full = reader.decode();
      const fullBytes = stats.bytesRead;
      const dw = reader.parts[0]!.dataWindow;
      const region = { xMin: dw.xMin + 100, yMin: dw.yMin + 200, xMax: dw.xMin + 163, yMax: dw.yMin + 231 };
      const before = stats.bytesRead;
      const part = reader.decode({ region, channels: ['G'] });
      const regionBytes = stats.bytesRead - before;
      expect(part.channels.map((c) => c.name)).toEqual(['G']);
      expect(part.widthPx).toBe(64);
      expect(part.heightPx).toBe(32);
      for (let y = region.yMin; y <= region.yMax; y += 7) {
        for (let x = region.xMin; x <= region.xMax; x += 5) expect(sample(part, 'G', x, y)).toBe(sample(full, 'G', x, y));
      }
      expect(fullBytes).toBeGreaterThan(sizeBytes * 0.9);
      expect(regionBytes).toBeLessThan(fullBytes / 4);
    });
  });

  it('a small MIP level of a tiled part reads only its own tiles', () => {
    withReader('MultiResolution/Bonita.exr', (reader, stats, sizeBytes) => {
      const part = reader.parts[0]!;
      expect(part.levels.length).toBeGreaterThan(5);
      const smallest = part.levels[part.levels.length - 1]!;
      const before = stats.bytesRead;
      const image = reader.decode({ lx: smallest.lx, ly: smallest.ly });
      expect(image.widthPx).toBe(smallest.widthPx);
      expect(image.heightPx).toBe(smallest.heightPx);
      expect(stats.bytesRead - before).toBeLessThan(sizeBytes / 20);
      const level2 = reader.decode({ lx: 2, ly: 2 });
      expect(level2.widthPx).toBe(Math.floor(part.widthPx / 4));
    });
  });

  it('decodes one part of a multipart file by index', () => {
    withReader('Beachball/multipart.0001.exr', (reader) => {
      const depth = reader.parts.findIndex((p) => p.name === 'depth_left');
      expect(depth).toBeGreaterThan(0);
      const image = reader.decode({ part: depth });
      expect(image.part).toBe(depth);
      expect(image.channels.map((c) => c.name)).toEqual(['Z']);
    });
  });

  it('keeps subsampled channel planes at their own resolution', () => {
    withReader('LuminanceChroma/MtTamNorth.exr', (reader) => {
      const image = reader.decode();
      const y = image.channels.find((c) => c.name === 'Y')!;
      const ry = image.channels.find((c) => c.name === 'RY')!;
      expect(ry.xSampling).toBe(2);
      expect(ry.widthSamples).toBe(y.widthSamples / 2);
      expect(ry.heightSamples).toBe(y.heightSamples / 2);
    });
  });

  it('refuses a region outside the level and an unknown channel with typed errors', () => {
    withReader('ScanLines/Desk.exr', (reader) => {
      const dw = reader.parts[0]!.dataWindow;
      expect(() => reader.decode({ region: { ...dw, xMax: dw.xMax + 1 } })).toThrow(/outside the level/);
      expect(() => reader.decode({ channels: ['nope'] })).toThrow(/no channel "nope"/);
      expect(() => reader.decode({ part: 3 })).toThrow(/no part 3/);
    });
  });
});

describe('opening', () => {
  it('reads headers longer than its first read (a 300 KB preview), over a file and over memory', () => {
    const rgba = Uint8Array.from({ length: 4 * 320 * 240 }, (_, i) => (i * 31) & 0xff);
    const luma = Uint16Array.from({ length: 12 }, (_, i) => 0x3c00 + i);
    const bytes = writeExr([
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: 3, yMax: 2 },
        channels: [{ name: 'Y', pixelType: 'half', data: luma }],
        preview: { widthPx: 320, heightPx: 240, rgba },
      },
    ]);
    const dir = mkdtempSync(join(tmpdir(), 'exrview-reader-'));
    const path = join(dir, 'big-header.exr');
    writeFileSync(path, bytes);
    const source = openFileSource(path);
    try {
      for (const reader of [ExrReader.open(memorySource(bytes)), ExrReader.open(source)]) {
        const preview = reader.parts[0]!.attributes.find((a) => a.name === 'preview')!.value as { value: { rgba: Uint8Array } };
        expect(preview.value.rgba).toEqual(rgba);
        expect([...reader.decode().channels[0]!.data]).toEqual([...luma]);
      }
    } finally {
      source.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads offset tables that lie past its first read, and keeps what it parsed when the next file is opened', () => {
    // 1 line a chunk over 5,000 lines: the table (40 KB) runs past the first 32 KB read
    const tall = Uint16Array.from({ length: 2 * 5000 }, (_, i) => i & 0x7bff);
    const small = Uint16Array.from({ length: 4 }, (_, i) => 0x3c00 + i);
    const dir = mkdtempSync(join(tmpdir(), 'exrview-reader-'));
    const tallPath = join(dir, 'tall.exr');
    const smallPath = join(dir, 'small.exr');
    writeFileSync(
      tallPath,
      writeExr([
        {
          dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 4999 },
          compression: 'none',
          channels: [{ name: 'tall.Y', pixelType: 'half', data: tall }],
        },
      ]),
    );
    writeFileSync(
      smallPath,
      writeExr([{ dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 }, channels: [{ name: 'small.Y', pixelType: 'half', data: small }] }]),
    );
    const sources = [openFileSource(tallPath), openFileSource(smallPath)];
    try {
      // the headers are read into one reused buffer per thread: the first reader's parse must not share it
      const [first, second] = sources.map((source) => ExrReader.open(source));
      expect(first!.parts[0]!.channels.map((c) => c.name)).toEqual(['tall.Y']);
      expect(first!.parts[0]!.chunkCount).toBe(5000);
      expect([...first!.decode().channels[0]!.data]).toEqual([...tall]);
      expect([...second!.decode().channels[0]!.data]).toEqual([...small]);
      expect(second!.parts[0]!.channels.map((c) => c.name)).toEqual(['small.Y']);
    } finally {
      for (const source of sources) source.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
