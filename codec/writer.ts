// The OpenEXR writer: scanline, tiled (one level, mipmap, ripmap) and deep parts, single- or multipart, to bytes or a file.

import { closeSync, openSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, basename, join } from 'node:path';
import type { AttributeValue, Chromaticities, LevelMode, LevelRoundingMode, Preview } from './attributes.js';
import { encodeAttribute } from './attributes-write.js';
import { chunkPlace } from './blocks.js';
import { ByteWriter, utf8Bytes } from './byte-writer.js';
import { compress } from './compression/index.js';
import { encodeDeepChunk, type DeepSamples } from './deep-write.js';
import { invalid, unsupported } from './core/errors.js';
import { EXR_MAGIC, parseRawHeaders } from './header.js';
import { fromFloatPlane, reduce, toFloatPlane, type FloatPlane, type Plane } from './mip-levels.js';
import { packBlock, type PackPlane } from './pack.js';
import { buildParts, type PartInfo } from './part.js';
import { sampleCount } from './core/sampling.js';
import type { BlockLayout, Box2i, Channel, Compression, PixelType } from './core/types.js';

export interface WriteChannel {
  name: string;
  pixelType: PixelType;
  xSampling?: number;
  ySampling?: number;
  pLinear?: boolean;
  /**
   * Flat parts: level 0's samples over the data window, rows top to bottom (half as binary16 bits,
   * float and uint as values). Deep parts: every sample of every pixel, pixels in row order.
   */
  data: Plane;
}

export interface WriteTiles {
  xSizePx: number;
  ySizePx: number;
  levelMode?: LevelMode;
  roundingMode?: LevelRoundingMode;
}

export interface WritePart {
  /** Required when the file has more than one part. */
  name?: string;
  compression?: Compression;
  dataWindow: Box2i;
  /** Default: the data window. */
  displayWindow?: Box2i;
  lineOrder?: 'increasingY' | 'decreasingY';
  /** Makes the part tiled; lower levels are box-filtered from level 0. */
  tiles?: WriteTiles;
  /** In any order: they are stored sorted by name, as OpenEXR requires. */
  channels: WriteChannel[];
  /** Makes the part deep: samples per pixel over the data window, rows top to bottom. */
  deepSampleCounts?: Uint32Array;
  view?: string;
  chromaticities?: Chromaticities;
  preview?: Preview;
  /** Any further attributes (pixelAspectRatio and screenWindow* may be overridden here). */
  attributes?: Record<string, AttributeValue>;
}

/** Attributes the writer derives from the part description, which `attributes` may not set. */
const STRUCTURAL = new Set([
  'channels',
  'compression',
  'dataWindow',
  'displayWindow',
  'lineOrder',
  'tiles',
  'type',
  'name',
  'chunkCount',
  'version',
  'view',
  'chromaticities',
  'preview',
]);
const SHORT_NAME_BYTES = 31;

/** An encoded file, as pieces in file order (so a large file can be streamed to disk without one big copy). */
export interface EncodedFile {
  pieces: Uint8Array[];
  byteLength: number;
}

export function writeExr(parts: readonly WritePart[]): Uint8Array {
  const encoded = encodeExr(parts);
  const out = new Uint8Array(encoded.byteLength);
  let at = 0;
  for (const piece of encoded.pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** Writes to a temporary file beside `path`, then renames it into place: readers never see half a file. */
export function writeExrFile(path: string, parts: readonly WritePart[]): void {
  const encoded = encodeExr(parts);
  writeThenRename(path, (put) => {
    let at = 0;
    for (const piece of encoded.pieces) {
      put(piece, at);
      at += piece.length;
    }
  });
}

/**
 * Runs `write` on a temporary file beside `path` (`put` writes bytes at a byte offset), then renames it into place;
 * a failure removes the temporary file and is thrown.
 */
export function writeThenRename(path: string, write: (put: (bytes: Uint8Array, byteOffset: number) => void) => void): void {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.tmp`);
  const fd = openSync(temporary, 'w');
  const put = (bytes: Uint8Array, byteOffset: number): void => {
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, byteOffset + done);
  };
  try {
    write(put);
  } catch (error) {
    closeSync(fd);
    unlinkSync(temporary);
    throw error;
  }
  closeSync(fd);
  renameSync(temporary, path);
}

interface Prepared {
  spec: WritePart;
  info: PartInfo;
  /** Channel data in header (sorted) order. */
  sorted: WriteChannel[];
}

export function encodeExr(parts: readonly WritePart[]): EncodedFile {
  const { headerBytes, infos, multipart } = encodeHeaders(parts);
  const headerEndByte = headerBytes.length;
  const prepared: Prepared[] = parts.map((spec, i) => prepare(spec, infos[i]!));

  const tableBytes = infos.reduce((sum, p) => sum + p.chunkCount * 8, 0);
  const tables = new ByteWriter(tableBytes);
  const pieces: Uint8Array[] = [headerBytes, new Uint8Array(0)];
  let byteOffset = headerEndByte + tableBytes;
  for (const part of prepared) {
    const offsets = new Float64Array(part.info.chunkCount);
    const levelPlanes = part.spec.deepSampleCounts ? null : levelPlanesOf(part);
    for (const chunkIndex of chunkOrder(part.info)) {
      const chunk = encodeChunk(part, chunkIndex, levelPlanes, multipart);
      offsets[chunkIndex] = byteOffset;
      pieces.push(chunk);
      byteOffset += chunk.length;
    }
    for (const o of offsets) tables.u64(o);
  }
  pieces[1] = tables.finish();
  return { pieces, byteLength: byteOffset };
}

/** A part as far as its header goes: channels without their samples. */
export type HeaderPart = Omit<WritePart, 'channels'> & { channels: readonly Omit<WriteChannel, 'data'>[] };

/** The file's headers (magic, version, attributes) and each part's geometry, read back by the reader's rules. */
export function encodeHeaders(parts: readonly HeaderPart[]): { headerBytes: Uint8Array; infos: PartInfo[]; multipart: boolean } {
  if (parts.length === 0) throw invalid('a file needs at least one part');
  const multipart = parts.length > 1;
  const isDeep = parts.some((p) => p.deepSampleCounts !== undefined);
  // parts of one file share a display window: a part that names none takes the first part's
  const sharedDisplay = parts[0]!.displayWindow ?? parts[0]!.dataWindow;
  const headerLists = parts.map((p) =>
    headerAttributes(multipart ? { ...p, displayWindow: p.displayWindow ?? sharedDisplay } : p, multipart),
  );
  if (multipart) checkSharedAttributes(headerLists);
  const longNames = headerLists.some((list) =>
    list.some(
      ([name, value]) =>
        byteLength(name) > SHORT_NAME_BYTES || (value.type === 'chlist' && value.value.some((c) => byteLength(c.name) > SHORT_NAME_BYTES)),
    ),
  );
  const singleTiled = !multipart && !isDeep && parts[0]!.tiles !== undefined;
  const version = 2 | (singleTiled ? 0x200 : 0) | (longNames ? 0x400 : 0) | (isDeep ? 0x800 : 0) | (multipart ? 0x1000 : 0);

  const head = new ByteWriter(4096);
  head.i32(EXR_MAGIC).i32(version);
  for (const list of headerLists) {
    for (const [name, value] of list) encodeAttribute(head, name, value);
    head.u8(0);
  }
  if (multipart) head.u8(0);

  // Read our own header back with the reader's rules: one definition of chunk geometry, and a check.
  const headerBytes = head.finish();
  const raw = parseRawHeaders(headerBytes, headerBytes.length);
  return { headerBytes, infos: buildParts(raw, Number.MAX_SAFE_INTEGER), multipart };
}

/**
 * OpenEXR refuses multipart files whose parts disagree on the display window or pixel aspect ratio,
 * or where a later part has a chromaticities or timecode attribute that differs from the first's.
 */
function checkSharedAttributes(headerLists: [string, AttributeValue][][]): void {
  const first = new Map(headerLists[0]!);
  headerLists.forEach((list, index) => {
    const attributes = new Map(list);
    for (const name of ['displayWindow', 'pixelAspectRatio', 'chromaticities', 'timecode']) {
      const mine = attributes.get(name);
      const required = name === 'displayWindow' || name === 'pixelAspectRatio';
      if (!mine && !required) continue;
      if (JSON.stringify(mine) !== JSON.stringify(first.get(name))) {
        throw invalid(`part ${index}: attribute "${name}" differs from the first part's (parts of one file share it)`);
      }
    }
  });
}

function byteLength(text: string): number {
  return utf8Bytes(text).length;
}

function utf8Compare(a: string, b: string): number {
  const x = utf8Bytes(a);
  const y = utf8Bytes(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

function headerAttributes(spec: HeaderPart, multipart: boolean): [string, AttributeValue][] {
  const deep = spec.deepSampleCounts !== undefined;
  const compression = spec.compression ?? 'zip';
  const channels: Channel[] = spec.channels
    .map((c) => ({
      name: c.name,
      pixelType: c.pixelType,
      pLinear: c.pLinear ?? false,
      xSampling: c.xSampling ?? 1,
      ySampling: c.ySampling ?? 1,
    }))
    .sort((a, b) => utf8Compare(a.name, b.name));
  if (spec.lineOrder === 'decreasingY' && spec.tiles) throw unsupported('writing tiled parts in decreasing-Y order');
  const attributes = new Map<string, AttributeValue>([
    ['channels', { type: 'chlist', value: channels }],
    ['compression', { type: 'compression', value: compression }],
    ['dataWindow', { type: 'box2i', value: { ...spec.dataWindow } }],
    ['displayWindow', { type: 'box2i', value: { ...(spec.displayWindow ?? spec.dataWindow) } }],
    ['lineOrder', { type: 'lineOrder', value: spec.lineOrder ?? 'increasingY' }],
    ['pixelAspectRatio', { type: 'float', value: 1 }],
    ['screenWindowCenter', { type: 'v2f', value: [0, 0] }],
    ['screenWindowWidth', { type: 'float', value: 1 }],
  ]);
  if (spec.tiles) {
    const t = spec.tiles;
    attributes.set('tiles', {
      type: 'tiledesc',
      value: { xSizePx: t.xSizePx, ySizePx: t.ySizePx, levelMode: t.levelMode ?? 'oneLevel', roundingMode: t.roundingMode ?? 'roundDown' },
    });
  }
  if (multipart || deep) {
    const type = deep ? (spec.tiles ? 'deeptile' : 'deepscanline') : spec.tiles ? 'tiledimage' : 'scanlineimage';
    attributes.set('type', { type: 'string', value: type });
  }
  if (deep) attributes.set('version', { type: 'int', value: 1 });
  if (spec.name !== undefined) attributes.set('name', { type: 'string', value: spec.name });
  else if (multipart) throw invalid('every part of a multipart file needs a name');
  if (spec.view !== undefined) attributes.set('view', { type: 'string', value: spec.view });
  if (spec.chromaticities) attributes.set('chromaticities', { type: 'chromaticities', value: spec.chromaticities });
  if (spec.preview) attributes.set('preview', { type: 'preview', value: spec.preview });
  for (const [name, value] of Object.entries(spec.attributes ?? {})) {
    if (STRUCTURAL.has(name)) throw invalid(`attribute "${name}" is set by the writer from the part description`);
    if (name === '') throw invalid('an attribute needs a name');
    attributes.set(name, value);
  }
  if (multipart || deep) {
    // the reader checks this against the geometry: computed by the same rules
    const list = [...attributes.entries()];
    attributes.set('chunkCount', { type: 'int', value: geometryOf(list, spec.tiles !== undefined).chunkCount });
  }
  return [...attributes.entries()].sort((a, b) => utf8Compare(a[0], b[0]));
}

/** Geometry of a part from its attributes, by the reader's own rules (a single-part view of it). */
function geometryOf(attributes: [string, AttributeValue][], tiled: boolean): PartInfo {
  const [info] = buildParts(
    {
      flags: { version: 2, singlePartTiled: tiled, longNames: true, nonImage: false, multipart: false },
      parts: [attributes.map(([name, value]) => ({ name, typeName: value.type, value }))],
      headerEndByte: 0,
    },
    Number.MAX_SAFE_INTEGER,
  );
  return info!;
}

function prepare(spec: WritePart, info: PartInfo): Prepared {
  const byName = new Map(spec.channels.map((c) => [c.name, c]));
  if (byName.size !== spec.channels.length) throw invalid('two channels have the same name');
  const sorted = info.channels.map((c) => byName.get(c.name)!);
  const deepCounts = spec.deepSampleCounts;
  if (deepCounts) {
    // OpenEXR reads deep parts in NONE, RLE and ZIPS only
    if (!['none', 'rle', 'zips'].includes(info.compression))
      throw unsupported(`deep parts cannot use ${info.compression.toUpperCase()} compression`);
    if (info.levels.length !== 1) throw unsupported('writing deep parts with more than one level');
    if (deepCounts.length !== info.widthPx * info.heightPx) {
      throw invalid(`deep sample counts hold ${deepCounts.length} entries, the data window has ${info.widthPx * info.heightPx} pixels`);
    }
    let total = 0;
    for (const n of deepCounts) total += n;
    for (const ch of sorted) {
      if ((ch.xSampling ?? 1) !== 1 || (ch.ySampling ?? 1) !== 1) throw invalid(`deep channel "${ch.name}" is subsampled`);
      checkArrayType(ch);
      if (ch.data.length !== total)
        throw invalid(`deep channel "${ch.name}" holds ${ch.data.length} samples, the counts add up to ${total}`);
    }
    return { spec, info, sorted };
  }
  for (const ch of sorted) {
    checkArrayType(ch);
    const xs = ch.xSampling ?? 1;
    const ys = ch.ySampling ?? 1;
    const expected =
      sampleCount(xs, info.dataWindow.xMin, info.dataWindow.xMax) * sampleCount(ys, info.dataWindow.yMin, info.dataWindow.yMax);
    if (ch.data.length !== expected) throw invalid(`channel "${ch.name}" holds ${ch.data.length} samples, expected ${expected}`);
  }
  return { spec, info, sorted };
}

function checkArrayType(ch: WriteChannel): void {
  const ok =
    (ch.pixelType === 'half' && ch.data instanceof Uint16Array) ||
    (ch.pixelType === 'float' && ch.data instanceof Float32Array) ||
    (ch.pixelType === 'uint' && ch.data instanceof Uint32Array);
  if (!ok) throw invalid(`channel "${ch.name}" is ${ch.pixelType} but its data is a ${ch.data.constructor.name}`);
}

/** Chunk indices in the order they are stored: increasing or decreasing y. */
function chunkOrder(info: PartInfo): number[] {
  const order = Array.from({ length: info.chunkCount }, (_, i) => i);
  return info.lineOrder === 'decreasingY' && !info.isTiled ? order.reverse() : order;
}

/** Each level's planes, keyed "lx,ly"; level 0 is the caller's data, lower levels are filtered from it. */
function levelPlanesOf(part: Prepared): Map<string, PackPlane[]> {
  const { info, sorted } = part;
  const out = new Map<string, PackPlane[]>();
  out.set(
    '0,0',
    sorted.map((c) => ({
      xSampling: c.xSampling ?? 1,
      ySampling: c.ySampling ?? 1,
      pixelType: c.pixelType,
      data: c.data,
      widthSamples: sampleCount(c.xSampling ?? 1, info.dataWindow.xMin, info.dataWindow.xMax),
    })),
  );
  if (info.levels.length === 1) return out;
  const rounding = info.tiles!.roundingMode;
  const floats = new Map<string, FloatPlane[]>();
  floats.set(
    '0,0',
    sorted.map((c) => toFloatPlane(c.data, c.pixelType, info.widthPx, info.heightPx)),
  );
  for (const level of info.levels) {
    const key = `${level.lx},${level.ly}`;
    if (key === '0,0') continue;
    // mipmaps shrink both axes at once; ripmaps along x within a row of levels, along y down the first column
    let source: FloatPlane[];
    if (info.tiles!.levelMode === 'mipmapLevels') {
      source = floats.get(`${level.lx - 1},${level.ly - 1}`)!.map((p) => reduce(reduce(p, 'x', rounding), 'y', rounding));
    } else if (level.lx > 0) {
      source = floats.get(`${level.lx - 1},${level.ly}`)!.map((p) => reduce(p, 'x', rounding));
    } else {
      source = floats.get(`0,${level.ly - 1}`)!.map((p) => reduce(p, 'y', rounding));
    }
    for (const p of source) {
      if (p.widthPx !== level.widthPx || p.heightPx !== level.heightPx) throw new Error('level size mismatch (writer bug)');
    }
    floats.set(key, source);
    out.set(
      key,
      source.map((p, c) => ({
        xSampling: 1,
        ySampling: 1,
        pixelType: sorted[c]!.pixelType,
        data: fromFloatPlane(p, sorted[c]!.pixelType),
        widthSamples: p.widthPx,
      })),
    );
  }
  return out;
}

/**
 * A deep chunk's count table as OpenEXR 3.1 readers accept it: compressed when that is smaller than
 * the block's raw table, else raw and padded to a whole tile (they take any shorter table as compressed).
 */
function packCountTable(info: PartInfo, counts: Uint8Array, block: BlockLayout): Uint8Array {
  const packed = compress(info.compression, counts, block);
  if (packed.length < counts.length || !info.isTiled) return packed;
  const padded = new Uint8Array(info.tiles!.xSizePx * info.tiles!.ySizePx * 4);
  padded.set(counts);
  return padded;
}

function encodeChunk(part: Prepared, chunkIndex: number, levelPlanes: Map<string, PackPlane[]> | null, multipart: boolean): Uint8Array {
  const { info } = part;
  const place = chunkPlace(info, chunkIndex);
  const w = new ByteWriter(64);
  if (multipart) w.i32(info.index);
  if (info.isTiled) w.i32(place.tileX).i32(place.tileY).i32(place.level.lx).i32(place.level.ly);
  else w.i32(place.block.y0);
  if (levelPlanes === null) {
    const deep: DeepSamples = { sampleCounts: part.spec.deepSampleCounts!, channels: part.sorted };
    const { counts, samples } = encodeDeepChunk(deep, info.dataWindow, info.widthPx, place.block);
    const packedCounts = packCountTable(info, counts, place.block);
    const packedSamples = compress(info.compression, samples, place.block);
    w.u64(packedCounts.length).u64(packedSamples.length).u64(samples.length);
    w.bytes(packedCounts).bytes(packedSamples);
    return w.finish();
  }
  const planes = levelPlanes.get(`${place.level.lx},${place.level.ly}`)!;
  const raw = packBlock(planes, info.dataWindow, place.block);
  const packed = compress(info.compression, raw, place.block);
  w.i32(packed.length).bytes(packed);
  return w.finish();
}
