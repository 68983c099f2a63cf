// The main thread's parse handed to the workers: the same parse a worker's own open makes, refused for another version
// of the file, and never made from tables a worker would have to rebuild.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, openFileSource } from '../../codec/index.js';
import { writeExr, writeExrFile, type WritePart } from '../../codec/writer.js';
import { readHeader, readSummary } from './summary.js';
import { takeHandoff } from './header-handoff.js';
import { closeAllReaders, readerCacheCounts, withReader } from '../decode/reader-cache.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-handoff-'));
afterAll(() => {
  closeAllReaders();
  rmSync(dir, { recursive: true, force: true });
});

const ramp = (count: number, seed: number) => Uint16Array.from({ length: count }, (_, i) => (seed * 977 + i * 13) & 0x7bff);
const box = (w: number, h: number) => ({ xMin: 0, yMin: 0, xMax: w - 1, yMax: h - 1 });

/** A scanline render, a mipmapped tiled part and a two-part file: the layouts a worker opens. */
const FILES: Record<string, WritePart[]> = {
  'scanline.exr': [
    {
      compression: 'zip',
      dataWindow: box(40, 70),
      attributes: { owner: { type: 'string', value: 'lighting' } },
      channels: ['B', 'G', 'R'].map((name, i) => ({ name, pixelType: 'half' as const, data: ramp(40 * 70, i) })),
    },
  ],
  'tiled.exr': [
    {
      compression: 'piz',
      dataWindow: box(37, 29),
      tiles: { xSizePx: 16, ySizePx: 8, levelMode: 'mipmapLevels' },
      channels: [{ name: 'Y', pixelType: 'half', data: ramp(37 * 29, 3) }],
    },
  ],
  'two-parts.exr': [
    { name: 'beauty', compression: 'rle', dataWindow: box(9, 33), channels: [{ name: 'R', pixelType: 'half', data: ramp(9 * 33, 4) }] },
    {
      name: 'depth',
      compression: 'zips',
      dataWindow: box(9, 33),
      channels: [{ name: 'Z', pixelType: 'float', data: Float32Array.from({ length: 9 * 33 }, (_, i) => i / 7) }],
    },
  ],
};

const identityOf = (path: string) => {
  const source = openFileSource(path);
  source.close();
  return { sizeBytes: source.sizeBytes, ...source.identity };
};

describe('header handoff', () => {
  for (const [name, parts] of Object.entries(FILES)) {
    it(`hands over exactly what a worker's own open parses (${name})`, async () => {
      const path = join(dir, name);
      writeExrFile(path, parts);
      const { handoff, parts: headerParts } = await readHeader(path);
      expect(handoff).not.toBeNull();
      const handed = takeHandoff(handoff!, identityOf(path));
      const source = openFileSource(path);
      try {
        const opened = ExrReader.open(source);
        expect(handed).toEqual(opened.parsed);
        expect(handed!.parts).toEqual(headerParts);
        // and a reader made from it decodes every part as the parsing one does
        const fromHandoff = ExrReader.fromParsed(source, handed!);
        for (const part of opened.parts)
          expect(fromHandoff.decode({ part: part.index }).channels).toEqual(opened.decode({ part: part.index }).channels);
      } finally {
        source.close();
      }
      // the library's listing makes the same one
      const summary = await readSummary(path);
      expect(summary.kind).toBe('ok');
      if (summary.kind === 'ok') expect(takeHandoff(summary.handoff!, identityOf(path))).toEqual(handed);
    });
  }

  it('is refused for another version of the file: another size, modification time or inode', async () => {
    const path = join(dir, 'versions.exr');
    writeExrFile(path, FILES['scanline.exr']!);
    const { handoff } = await readHeader(path);
    const now = identityOf(path);
    expect(takeHandoff(handoff!, now)).not.toBeNull();
    expect(takeHandoff(handoff!, { ...now, sizeBytes: now.sizeBytes + 1 })).toBeNull();
    expect(takeHandoff(handoff!, { ...now, mtimeMs: now.mtimeMs + 1 })).toBeNull();
    expect(takeHandoff(handoff!, { ...now, inode: now.inode + 1 })).toBeNull();
  });

  it('is the rebuilt table where a reader rebuilds a damaged one from the chunks read with the header, else none', async () => {
    // the first entry zeroed, as a writer leaves the table until the end: the open rebuilds it from the chunks
    const damage = async (name: string, parts: WritePart[]) => {
      const path = join(dir, name);
      writeExrFile(path, parts);
      const bytes = readFileSync(path);
      const { headerBytes } = await readHeader(path);
      bytes.fill(0, headerBytes, headerBytes + 8);
      writeFileSync(path, bytes);
      return path;
    };
    // a small file: every chunk is among the bytes read with the header, and the table is rebuilt as a worker would
    const small = await damage('damaged-small.exr', FILES['scanline.exr']!);
    const source = openFileSource(small);
    try {
      expect(takeHandoff((await readHeader(small)).handoff!, identityOf(small))).toEqual(ExrReader.open(source).parsed);
    } finally {
      source.close();
    }
    // a large one: rebuilding would read the whole file, which is the worker's to do
    const widthPx = 256;
    const large = await damage('damaged-large.exr', [
      {
        compression: 'none',
        dataWindow: box(widthPx, widthPx),
        channels: [{ name: 'Y', pixelType: 'half', data: ramp(widthPx * widthPx, 5) }],
      },
    ]);
    const header = await readHeader(large);
    expect(header.handoff).toBeNull();
    expect(header.parts).toHaveLength(1);
  });
});

describe('withReader with a handoff', () => {
  const firstSample = (path: string, handoff: SharedArrayBuffer | null) =>
    withReader(path, (reader) => reader.decode().channels[0]!.data[0], handoff).value;

  it('opens the file from the handoff without parsing it, and parses a file changed since the main thread read it', async () => {
    const path = join(dir, 'cache.exr');
    const image = (first: number): WritePart[] => [
      { dataWindow: box(2, 2), channels: [{ name: 'Y', pixelType: 'half', data: Uint16Array.from([first, 2, 3, 4]) }] },
    ];
    writeExrFile(path, image(1));
    const { handoff } = await readHeader(path);
    const before = { ...readerCacheCounts };
    expect(firstSample(path, handoff)).toBe(1);
    expect(readerCacheCounts.handedOver - before.handedOver).toBe(1);
    expect(readerCacheCounts.parsed - before.parsed).toBe(0);
    // rewritten in place after the header was read: the same size, another modification time; the old handoff is refused
    writeFileSync(path, writeExr(image(7)));
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    expect(firstSample(path, handoff)).toBe(7);
    expect(readerCacheCounts.handedOver - before.handedOver).toBe(1);
    expect(readerCacheCounts.parsed - before.parsed).toBe(1);
  });
});

describe('names in a handoff', () => {
  it("arrive as the interned constants the codec compares with, not as the deserializer's copies", async () => {
    const path = join(dir, 'scanline.exr');
    const { handoff } = await readHeader(path);
    writeFileSync(join(dir, 'handoff.bin'), new Uint8Array(handoff!));
    // An interned string has a map of its own: V8's %HaveSameMap tells it from a copy with the same characters (in a
    // process of its own, started with the flag that lets a script ask).
    const script = `
      import { readFileSync, statSync } from 'node:fs';
      import { takeHandoff } from ${JSON.stringify(join(__dirname, 'header-handoff.ts'))};
      const st = statSync(${JSON.stringify(path)});
      const bytes = readFileSync(${JSON.stringify(join(dir, 'handoff.bin'))});
      const shared = new SharedArrayBuffer(bytes.length);
      new Uint8Array(shared).set(bytes);
      const part = takeHandoff(shared, { sizeBytes: st.size, mtimeMs: st.mtimeMs, inode: st.ino }).parts[0];
      const interned = (s) => eval('%HaveSameMap(s, "half")');
      const copy = String.fromCharCode(104, 97, 108, 102);
      console.log(JSON.stringify({ pixelType: interned(part.channels[0].pixelType), compression: interned(part.compression), copy: interned(copy) }));
    `;
    const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stderr).toBe(0);
    // a copy made at run time is not interned: the probe can tell the two apart
    expect(JSON.parse(r.stdout.trim().split('\n').at(-1)!)).toEqual({ pixelType: true, compression: true, copy: false });
  });
});
