// Files still being written: offset tables zeroed until close, chunks landing after them. Every state a writer passes
// through decodes exactly the chunks written; a refresh walks only the bytes added since; OpenEXR 3.4 agrees on the whole files.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeChunkByChunk, type ChunkByChunk } from '../testing/codec/incomplete.js';
import { sharedDir } from '../testing/codec/oracle/tools.js';
import {
  chunkPlace,
  decodeDeep,
  ExrReader,
  memorySource,
  readerStats,
  refreshParsed,
  statsJson,
  writeExr,
  type ByteSource,
  type DecodedImage,
  type WritePart,
} from './index.js';

function ramp(w: number, h: number, c: number): Float32Array {
  const data = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data[y * w + x] = 1 + c + x * 0.25 + y * 0.0625 + ((x * 7 + y * 13) % 5) * 0.01;
  return data;
}

const halfRamp = (w: number, h: number) => Uint16Array.from(ramp(w, h, 3), (v) => 0x3c00 + (Math.round(v * 64) & 0x3ff));

/** 57 chunks of 16 lines (ZIP), the last of 11, as the issue's file. */
function scanlinePart(lineOrder: 'increasingY' | 'decreasingY' = 'increasingY'): WritePart {
  const w = 24;
  const h = 56 * 16 + 11;
  return {
    compression: 'zip',
    lineOrder,
    dataWindow: { xMin: -3, yMin: 5, xMax: -3 + w - 1, yMax: 5 + h - 1 },
    channels: [
      { name: 'R', pixelType: 'float', data: ramp(w, h, 0) },
      { name: 'G', pixelType: 'float', data: ramp(w, h, 1) },
      { name: 'Y', pixelType: 'half', data: halfRamp(w, h) },
    ],
  };
}

/** Tiles of 16 with mipmap levels: 12 + 4 + 1 + 1 + 1 + 1 + 1 chunks, each placed by its tile and level coordinates. */
function tiledPart(): WritePart {
  return {
    compression: 'zip',
    dataWindow: { xMin: 0, yMin: 0, xMax: 63, yMax: 47 },
    tiles: { xSizePx: 16, ySizePx: 16, levelMode: 'mipmapLevels' },
    channels: [
      { name: 'Y', pixelType: 'half', data: halfRamp(64, 48) },
      { name: 'Z', pixelType: 'float', data: ramp(64, 48, 2) },
    ],
  };
}

function deepPart(): WritePart {
  const w = 8;
  const h = 12;
  const counts = Uint32Array.from({ length: w * h }, (_, i) => i % 3);
  const total = counts.reduce((a, b) => a + b, 0);
  return {
    name: 'deep',
    compression: 'zips',
    dataWindow: { xMin: 0, yMin: 0, xMax: w - 1, yMax: h - 1 },
    deepSampleCounts: counts,
    channels: [{ name: 'Z', pixelType: 'float', data: Float32Array.from({ length: total }, (_, i) => i * 0.5) }],
  };
}

/** The levels of a part, as (lx, ly). */
function levelsOf(reader: ExrReader, part: number): { lx: number; ly: number }[] {
  return reader.part(part).levels.map((l) => ({ lx: l.lx, ly: l.ly }));
}

const completeDecodes = new WeakMap<ExrReader, Map<string, DecodedImage>>();

/** The complete file's decode of a level, with the pixels of the chunks not in `written` zeroed. */
function expectedDecode(complete: ExrReader, part: number, lx: number, ly: number, written: Set<string>): DecodedImage {
  const key = `${part}:${lx}:${ly}`;
  let whole = completeDecodes.get(complete)?.get(key);
  if (!whole) {
    whole = complete.decode({ part, lx, ly });
    completeDecodes.set(complete, (completeDecodes.get(complete) ?? new Map()).set(key, whole));
  }
  const image = { ...whole, channels: whole.channels.map((c) => ({ ...c, data: c.data.slice() })) };
  const info = complete.part(part);
  const level = info.levels.find((l) => l.lx === lx && l.ly === ly)!;
  const chunks = info.isTiled ? level.tilesX * level.tilesY : info.chunkCount;
  for (let c = level.firstChunk; c < level.firstChunk + chunks; c++) {
    if (written.has(`${part}:${c}`)) continue;
    const { block } = chunkPlace(info, c);
    for (const channel of image.channels) {
      for (let y = block.y0; y < block.y0 + block.heightPx; y++) {
        const row = (y - image.region.yMin) * channel.widthSamples;
        channel.data.fill(0, row + block.x0 - image.region.xMin, row + block.x0 - image.region.xMin + block.widthPx);
      }
    }
  }
  return image;
}

/** A plane's bytes, compared as one (an element-wise toEqual of every state's planes takes minutes). */
const bytesOf = (data: ArrayBufferView) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);

const completeReaders = new WeakMap<ChunkByChunk, ExrReader>();

/** Every flat level of every part of `state` decodes to the complete file's pixels where its chunks are written, zero elsewhere. */
function expectDecodesWritten(file: ChunkByChunk, state: Uint8Array, writtenCount: number): void {
  let complete = completeReaders.get(file);
  if (!complete) completeReaders.set(file, (complete = ExrReader.open(memorySource(file.complete))));
  const reader = ExrReader.open(memorySource(state));
  const written = file.order.slice(0, writtenCount);
  const writtenKeys = new Set(written.map((id) => `${id.part}:${id.chunk}`));
  const total = file.order.length;
  if (writtenCount < total) expect(reader.incomplete).toMatchObject({ chunksPresent: writtenCount, chunksTotal: total });
  else expect(reader.incomplete).toBeNull();
  // the rebuilt tables: the complete file's offsets for the chunks written, nothing for the others
  expect(reader.offsets.map((t) => [...t])).toEqual(
    complete.offsets.map((t, part) => [...t].map((offset, chunk) => (writtenKeys.has(`${part}:${chunk}`) ? offset : -1))),
  );
  for (const info of reader.parts) {
    if (info.isDeep) {
      const partWritten = written.filter((id) => id.part === info.index).length;
      if (partWritten === 0) continue; // a deep decode of no chunk at all has nothing to show, and says so
      const deep = decodeDeep(reader, { part: info.index, tolerant: true });
      const unwritten = info.chunkCount - partWritten;
      expect(deep.missing?.failures.length ?? 0).toBe(unwritten);
      continue;
    }
    for (const { lx, ly } of levelsOf(reader, info.index)) {
      const got = reader.decode({ part: info.index, lx, ly, tolerant: true });
      const want = expectedDecode(complete, info.index, lx, ly, writtenKeys);
      got.channels.forEach((channel, c) =>
        expect(
          bytesOf(channel.data).equals(bytesOf(want.channels[c]!.data)),
          `part ${info.index} level (${lx}, ${ly}) ${channel.name}`,
        ).toBe(true),
      );
      const failed = got.missing?.failures.map((f) => f.chunk) ?? [];
      const level = info.levels.find((l) => l.lx === lx && l.ly === ly)!;
      const levelChunks = info.isTiled ? level.tilesX * level.tilesY : info.chunkCount;
      const notWritten: number[] = [];
      for (let c = level.firstChunk; c < level.firstChunk + levelChunks; c++)
        if (!writtenKeys.has(`${info.index}:${c}`)) notWritten.push(c);
      expect(failed).toEqual(notWritten);
      for (const failure of got.missing?.failures ?? []) {
        expect(failure.reason).toBe(
          `part ${info.index}, chunk ${failure.chunk}: chunk is not written yet (incomplete file: ${writtenCount} of ${total} chunks)`,
        );
      }
      if (notWritten.length) expect(got.missing!.incomplete).toEqual({ chunksPresent: writtenCount, chunksTotal: total });
    }
  }
}

function everyState(file: ChunkByChunk, check: (state: Uint8Array, written: number) => void): void {
  for (let written = 0; written <= file.order.length; written++) {
    check(file.after(written), written);
    // the next chunk half there: its header, or its header and some of its data
    if (written < file.order.length) {
      check(file.after(written, 6), written);
      check(file.after(written, 40), written);
    }
  }
}

describe('a file still being written (offset tables zeroed until close)', () => {
  it("the issue's file: a scanline ZIP file cut after 34 of its 57 chunks decodes those 34, the rest not written yet", () => {
    const file = writeChunkByChunk([scanlinePart()]);
    expect(file.order).toHaveLength(57);
    const reader = ExrReader.open(memorySource(file.after(34)));
    expect(reader.incomplete).toMatchObject({ chunksPresent: 34, chunksTotal: 57 });
    expect(() => reader.decode()).toThrow('part 0, chunk 34: chunk is not written yet (incomplete file: 34 of 57 chunks)');
    expectDecodesWritten(file, file.after(34), 34);
  });

  it('scanline, every state: exactly the chunks written decode, the others are listed as not written yet', () => {
    const file = writeChunkByChunk([scanlinePart()]);
    everyState(file, (state, written) => expectDecodesWritten(file, state, written));
  });

  it('scanline in decreasing line order: chunks land bottom first and are placed by their lines', () => {
    const file = writeChunkByChunk([scanlinePart('decreasingY')]);
    expect(file.order[0]).toEqual({ part: 0, chunk: 56 });
    for (const written of [0, 1, 20, 56, 57]) expectDecodesWritten(file, file.after(written), written);
  });

  it('tiled with mipmap levels, every state: tiles placed by their tile and level coordinates', () => {
    const file = writeChunkByChunk([tiledPart()]);
    expect(file.order.length).toBe(21);
    everyState(file, (state, written) => expectDecodesWritten(file, state, written));
  });

  it('multipart (scanline, tiled, deep) with the parts written in turn, every state: each chunk placed in its own part', () => {
    const file = writeChunkByChunk(
      [{ ...scanlinePart(), name: 'beauty' }, { ...tiledPart(), name: 'tiles' }, deepPart()].map((p) => ({
        ...p,
        displayWindow: scanlinePart().dataWindow,
      })),
      true,
    );
    expect(new Set(file.order.slice(0, 3).map((id) => id.part))).toEqual(new Set([0, 1, 2]));
    everyState(file, (state, written) => expectDecodesWritten(file, state, written));
  });

  it('all chunks written, tables still zeros: whole, nothing missing', () => {
    const file = writeChunkByChunk([tiledPart()]);
    const reader = ExrReader.open(memorySource(file.after(file.order.length)));
    expect(reader.incomplete).toBeNull();
    expect(reader.decode({ tolerant: true }).missing).toBeUndefined();
  });

  it('statistics of an incomplete file are those of the lines written, and say how many chunks are there', () => {
    const file = writeChunkByChunk([scanlinePart()]);
    const stats = readerStats(ExrReader.open(memorySource(file.after(10))));
    expect(stats.incomplete).toEqual({ chunksPresent: 10, chunksTotal: 57 });
    // the same pixels written as a file of their own: 10 chunks of 16 lines
    const part = scanlinePart();
    const w = 24;
    const lines = 160;
    const top: WritePart = {
      ...part,
      dataWindow: { ...part.dataWindow, yMax: part.dataWindow.yMin + lines - 1 },
      channels: part.channels.map((c) => ({ ...c, data: c.data.slice(0, w * lines) })),
    };
    const topStats = readerStats(ExrReader.open(memorySource(writeExr([top]))));
    expect(stats.parts[0]!.channels).toEqual(topStats.parts[0]!.channels);
    expect(readerStats(ExrReader.open(memorySource(file.complete))).incomplete).toBeUndefined();
  });

  it('a chunk among those written that is damaged still fails the statistics', () => {
    const file = writeChunkByChunk([scanlinePart()]);
    const state = file.after(10);
    const reader = ExrReader.open(memorySource(state));
    const at = reader.offsets[0]![3]!;
    state.fill(0xff, at + 8, at + 40); // chunk 3's compressed data, its header left whole
    expect(() => readerStats(ExrReader.open(memorySource(state)))).toThrow(/^part 0, chunk 3: /);
  });
});

/** A reader of the file as its writer has grown it since (`source`, the file opened again). */
const refreshed = (reader: ExrReader, source: ByteSource) => ExrReader.fromParsed(source, refreshParsed(source, reader.parsed));

/** A source over `bytes` that records the ranges read. */
function recordingSource(bytes: Uint8Array): ByteSource & { reads: [number, number][] } {
  const reads: [number, number][] = [];
  return {
    reads,
    sizeBytes: bytes.length,
    readAt(byteOffset, byteLength) {
      reads.push([byteOffset, byteOffset + byteLength]);
      return bytes.subarray(byteOffset, byteOffset + byteLength);
    },
  };
}

describe('refreshing a file as it grows', () => {
  const cases: [string, () => ChunkByChunk][] = [
    ['scanline', () => writeChunkByChunk([scanlinePart()])],
    ['tiled', () => writeChunkByChunk([tiledPart()])],
    [
      'multipart',
      () =>
        writeChunkByChunk(
          [
            { ...scanlinePart(), name: 'a' },
            { ...tiledPart(), name: 'b', displayWindow: scanlinePart().dataWindow },
          ],
          true,
        ),
    ],
  ];
  for (const [name, make] of cases) {
    it(`${name}: each refresh reads the tables and the bytes after the last walk, and gives what a fresh open gives`, () => {
      const file = make();
      const total = file.order.length;
      const headerEndByte = ExrReader.open(memorySource(file.complete)).headerEndByte;
      // states as a viewer polling a render might see them: some chunks apart, some mid-chunk
      const steps: [number, number][] = [
        [0, 0],
        [1, 3],
        [3, 0],
        [3, 0],
        [Math.floor(total / 2), 20],
        [total - 1, 0],
        [total, 0],
      ];
      let reader = ExrReader.open(memorySource(file.after(0)));
      for (const [written, intoNext] of steps) {
        const before = reader.parsed.walk!.endByte;
        const source = recordingSource(file.after(written, intoNext));
        reader = refreshed(reader, source);
        for (const [start, end] of source.reads) {
          const inTables = start >= headerEndByte && end <= file.tablesEndByte;
          expect(inTables || start >= before, `read [${start}, ${end}) after a walk to ${before}`).toBe(true);
        }
        const fresh = ExrReader.open(memorySource(file.after(written, intoNext)));
        expect(reader.offsets).toEqual(fresh.offsets);
        expect(reader.parsed.walk).toEqual(fresh.parsed.walk);
        expect(reader.incomplete).toEqual(fresh.incomplete);
        const freshPlanes = fresh.decode({ tolerant: true }).channels;
        reader
          .decode({ tolerant: true })
          .channels.forEach((c, i) => expect(bytesOf(c.data).equals(bytesOf(freshPlanes[i]!.data))).toBe(true));
      }
      // closed: the filled tables are read, nothing is walked
      const closed = recordingSource(file.complete);
      reader = refreshed(reader, closed);
      expect(reader.parsed.walk).toBeUndefined();
      expect(reader.incomplete).toBeNull();
      expect(reader.offsets).toEqual(ExrReader.open(memorySource(file.complete)).offsets);
      expect(closed.reads).toEqual([[headerEndByte, file.tablesEndByte]]);
    });
  }

  it('a file that shrank since (written again from the start) is walked afresh', () => {
    const file = writeChunkByChunk([scanlinePart()]);
    const grown = ExrReader.open(memorySource(file.after(30)));
    const restarted = refreshed(grown, memorySource(file.after(5)));
    expect(restarted.incomplete).toMatchObject({ chunksPresent: 5, chunksTotal: 57 });
    expect(restarted.offsets).toEqual(ExrReader.open(memorySource(file.after(5))).offsets);
  });
});

const refStats = join(sharedDir, 'tools/openexr-3.4/exr_ref_stats');
const noRef = existsSync(refStats) ? null : `${refStats} is absent (../shared is not beside the repository)`;

describe('OpenEXR 3.4 on the complete files', () => {
  it.skipIf(noRef !== null)(`agrees on the closed files' statistics${noRef ? ` (skipped: ${noRef})` : ''}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'exrview-incomplete-'));
    const files: [string, ChunkByChunk][] = [
      ['scanline', writeChunkByChunk([scanlinePart()])],
      ['tiled', writeChunkByChunk([tiledPart()])],
      [
        'multipart',
        writeChunkByChunk(
          [
            { ...scanlinePart(), name: 'a' },
            { ...tiledPart(), name: 'b', displayWindow: scanlinePart().dataWindow },
          ],
          true,
        ),
      ],
    ];
    for (const [name, file] of files) {
      const path = join(dir, `${name}.exr`);
      writeFileSync(path, file.complete);
      const openexr = execFileSync(refStats, [path], { encoding: 'utf8' }).trim();
      expect(statsJson(readerStats(ExrReader.open(memorySource(file.complete)))), name).toBe(openexr);
      // every chunk written, the tables not yet filled: the same pixels, rebuilt from the chunks
      expect(statsJson(readerStats(ExrReader.open(memorySource(file.after(file.order.length))))), name).toBe(openexr);
    }
  });
});
