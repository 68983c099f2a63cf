// The staged reader: headers and offset tables once, then read -> decompress -> unpack for any part, level, region or channel set.

import {
  checkedRegion,
  chunkPlace,
  chunksForRegion,
  chunkStoreLayout,
  tileBlock,
  uncompressedBytes,
  type ChunkPlace,
  type ChunkStoreLayout,
} from './blocks.js';
import { unplacedReason, type ChunkWalk } from './chunk-walk.js';
import {
  ChunkExtents,
  minChunkHeaderBytes,
  parseChunk,
  readOffsetTables,
  type ChunkHeader,
  type OffsetTables,
  type ReadTables,
} from './chunks.js';
import { decompressInto, decompressTransient } from './compression/index.js';
import { nativeKernels } from './compression/native.js';
import { aborted, asExrError, ExrError, invalid, unsupported } from './core/errors.js';
import { blockInRegion, missingChunks, type ChunkFailure, type MissingChunks } from './missing.js';
import { headersFromPrefix, type RawHeaders, type VersionFlags } from './header.js';
import { buildParts, DEFAULT_LIMITS, findLevel, type Level, type PartInfo, type ReadLimits } from './part.js';
import { floorMod, sampleCount } from './core/sampling.js';
import type { ByteSource } from './source.js';
import { PIXEL_TYPE_BYTES, type BlockLayout, type Box2i, type PixelType } from './core/types.js';

export type PlaneData = Uint16Array | Float32Array | Uint32Array;

export interface DecodedChannel {
  name: string;
  pixelType: PixelType;
  xSampling: number;
  ySampling: number;
  widthSamples: number;
  heightSamples: number;
  /** Half channels hold raw binary16 bits; float and uint hold their values. Rows top to bottom. */
  data: PlaneData;
}

export interface StageTimings {
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  bytesRead: number;
  chunks: number;
}

/** Where a decode's pixels come from: the part, the level and the region of it (flat and deep decodes alike). */
export interface DecodedPlace {
  part: number;
  lx: number;
  ly: number;
  /** The decoded pixels, in absolute coordinates (a level's pixels start at the data window's origin). */
  region: Box2i;
  widthPx: number;
  heightPx: number;
}

export interface DecodedImage extends DecodedPlace {
  channels: DecodedChannel[];
  timings: StageTimings;
  /** A tolerant decode's chunks that could not be read (their pixels are zero); absent when every chunk was. */
  missing?: MissingChunks;
}

export interface AbortSignalLike {
  readonly aborted: boolean;
}

export interface DecodeOptions {
  part?: number;
  lx?: number;
  ly?: number;
  /** Channel names to decode, default all (header order is kept). */
  channels?: readonly string[];
  /** Part of the level to decode (absolute coordinates), default all of it. Only the chunks it touches are read. */
  region?: Box2i;
  signal?: AbortSignalLike;
  /** Where plane memory comes from (e.g. SharedArrayBuffer, or a pooled buffer); default new ArrayBuffer. */
  allocate?: (byteLength: number) => ArrayBufferLike;
  /**
   * Write into planes that already exist, laid out over `frame` (which holds `region`): how several
   * workers fill one image's shared planes, each decoding a band. One plane per selected channel, header order.
   */
  into?: { frame: Box2i; planes: PlaneData[] };
  /**
   * The level's decompressed chunks, kept so that other channels can be unpacked later without reading or
   * decompressing again. 'fill': each chunk read is decompressed into it as well as unpacked; 'read': the
   * selected channels are unpacked from it and the file is not touched. Laid out by `chunkStoreLayout`.
   */
  chunkStore?: { bytes: Uint8Array; mode: 'fill' | 'read' };
  /**
   * Decode every chunk that can be: one that cannot be read, parsed or decompressed is listed in the result's
   * `missing` and its pixels (and chunk store bytes) are zeroed, instead of failing the decode. Aborts still throw.
   * Off by default: statistics and conformance want the first error.
   */
  tolerant?: boolean;
}

export interface OpenOptions {
  limits?: ReadLimits;
}

/** Chunks closer than this are read in one go; spans are capped so one read never holds a whole huge file. */
const MAX_GAP_BYTES = 256 * 1024;
const MAX_SPAN_BYTES = 64 * 1024 * 1024;

/** All that opening a file parses from it: what a reader needs besides the file's bytes. */
export interface ParsedFile {
  flags: VersionFlags;
  parts: PartInfo[];
  offsets: OffsetTables;
  headerEndByte: number;
  /** ChunkExtents.sorted: where each chunk can end. */
  chunkEnds: Float64Array;
  /** Where the tables were rebuilt by walking the chunks (not written yet, or cut short): how far the walk got. */
  walk?: ChunkWalk;
}

/**
 * Headers and offset tables, validated: the work of an open. Reads the file's first bytes (further only while the
 * headers run on) and the tables where they are not among them. Errors are the parse's own (open() words them).
 */
export function parseFile(source: ByteSource, limits: ReadLimits = DEFAULT_LIMITS): ParsedFile {
  const reads = headersFromPrefix(source.sizeBytes);
  // the parse copies what it keeps, so the prefix may be in the thread's reused buffer (no fresh pages per open); it
  // usually holds the offset tables too (one read per open)
  const read = (byteLength: number) => (source.readAtTransient ? source.readAtTransient(0, byteLength) : source.readAt(0, byteLength));
  let step = reads.next();
  while (!step.done) step = reads.next(read(step.value));
  const { raw, prefix } = step.value;
  return withTables(source, raw, buildParts(raw, source.sizeBytes, limits), prefix);
}

/** The rest of an open once the headers are parsed: the offset tables (from `prefix` where they lie in it) and the chunk ends. */
export function withTables(source: ByteSource, raw: RawHeaders, parts: PartInfo[], prefix: Uint8Array): ParsedFile {
  return parsedWith(
    source,
    raw.flags,
    parts,
    raw.headerEndByte,
    readOffsetTables(source, raw.headerEndByte, parts, raw.flags.multipart, prefix),
  );
}

/**
 * The parse of a file read before (`parsed`), brought up to date with the file as a writer has grown it since
 * (`source`, opened again): the tables are read again (a writer fills them at close) and, while they are still not
 * written, the chunks are walked on from where the last walk stopped, not from the start. The headers are not read
 * again (a writer writes them first). A parse whose tables were whole is returned as it is.
 */
export function refreshParsed(source: ByteSource, parsed: ParsedFile): ParsedFile {
  if (!parsed.walk) return parsed;
  const { flags, parts, headerEndByte } = parsed;
  const previous = { tables: parsed.offsets, walk: parsed.walk };
  return parsedWith(
    source,
    flags,
    parts,
    headerEndByte,
    readOffsetTables(source, headerEndByte, parts, flags.multipart, undefined, previous),
  );
}

function parsedWith(source: ByteSource, flags: VersionFlags, parts: PartInfo[], headerEndByte: number, read: ReadTables): ParsedFile {
  // a walked file's chunks end where the walk stopped: the bytes after are a chunk still being written
  const chunksEndByte = read.walk ? read.walk.endByte : source.sizeBytes;
  return {
    flags,
    parts,
    offsets: read.tables,
    headerEndByte,
    chunkEnds: ChunkExtents.fromTables(read.tables, chunksEndByte).sorted,
    ...(read.walk ? { walk: read.walk } : {}),
  };
}

export class ExrReader {
  readonly extents: ChunkExtents;
  readonly flags: VersionFlags;
  readonly parts: PartInfo[];
  readonly offsets: OffsetTables;
  readonly headerEndByte: number;

  private constructor(
    readonly source: ByteSource,
    private readonly parsedFile: ParsedFile,
  ) {
    this.flags = parsedFile.flags;
    this.parts = parsedFile.parts;
    this.offsets = parsedFile.offsets;
    this.headerEndByte = parsedFile.headerEndByte;
    this.extents = new ChunkExtents(parsedFile.chunkEnds, source.sizeBytes);
  }

  static open(source: ByteSource, options: OpenOptions = {}): ExrReader {
    try {
      return new ExrReader(source, parseFile(source, options.limits));
    } catch (error) {
      throw asExrError(error);
    }
  }

  /**
   * A reader over `source` from what another open of the same file parsed (`parsed`, from parseFile or a reader's
   * `parsed`): nothing is read or checked again, so the caller vouches that it is the same version of the file.
   */
  static fromParsed(source: ByteSource, parsed: ParsedFile): ExrReader {
    return new ExrReader(source, parsed);
  }

  /** What this reader's open parsed (see fromParsed). */
  get parsed(): ParsedFile {
    return this.parsedFile;
  }

  get multipart(): boolean {
    return this.flags.multipart;
  }

  /** A file still being written (its tables not filled yet) or cut short: how many of its chunks are there; else null. */
  get incomplete(): ChunkWalk | null {
    const walk = this.parsedFile.walk;
    return walk && walk.chunksPresent < walk.chunksTotal ? walk : null;
  }

  part(index: number): PartInfo {
    const part = this.parts[index];
    if (!part) throw invalid(`there is no part ${index} (the file has ${this.parts.length})`);
    return part;
  }

  /** Reads and parses one chunk (no decompression), its place and the bytes it spans. */
  readChunk(partIndex: number, chunkIndex: number): ChunkHeader {
    const part = this.part(partIndex);
    const offset = this.offsets[partIndex]![chunkIndex];
    if (offset === undefined) throw invalid(`chunk ${chunkIndex} is out of range`, { part: partIndex });
    if (offset < 0) throw invalid(unplacedReason(this.incomplete), { part: partIndex, chunk: chunkIndex });
    const end = this.extents.endOf(offset);
    try {
      return parseChunk(this.source.readAt(offset, end - offset), part, this.multipart);
    } catch (error) {
      throw asExrError(error, { part: partIndex, chunk: chunkIndex });
    }
  }

  /** Decodes a flat (non-deep) part: one level, a region, a set of channels. */
  decode(options: DecodeOptions = {}): DecodedImage {
    const partIndex = options.part ?? 0;
    const part = this.part(partIndex);
    if (part.isDeep) throw unsupported('deep part: use decodeDeep', { part: partIndex });
    const lx = options.lx ?? 0;
    const ly = options.ly ?? lx;
    const level = findLevel(part, lx, ly);
    if (!level) throw invalid(`part has no level (${lx}, ${ly})`, { part: partIndex });
    const region = checkedRegion(part, level, options.region, partIndex);
    const wanted = options.channels ? new Set(options.channels) : null;
    if (wanted) {
      for (const name of wanted) {
        if (!part.channels.some((c) => c.name === name)) throw invalid(`part has no channel "${name}"`, { part: partIndex });
      }
    }

    const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
    const allocate = options.allocate ?? ((n: number) => new ArrayBuffer(n));
    const frame = options.into?.frame ?? region;
    if (frame.xMin > region.xMin || frame.yMin > region.yMin || frame.xMax < region.xMax || frame.yMax < region.yMax) {
      throw invalid('target frame does not hold the requested region', { part: partIndex });
    }
    let selected = 0;
    const planes = part.channels.map((ch) => {
      if (wanted && !wanted.has(ch.name)) return null;
      const widthSamples = sampleCount(ch.xSampling, frame.xMin, frame.xMax);
      const heightSamples = sampleCount(ch.ySampling, frame.yMin, frame.yMax);
      const count = widthSamples * heightSamples;
      let data: PlaneData;
      if (options.into) {
        const given = options.into.planes[selected++];
        const expectedType = ch.pixelType === 'half' ? Uint16Array : ch.pixelType === 'float' ? Float32Array : Uint32Array;
        if (!(given instanceof expectedType) || given.length !== count) {
          throw invalid(`target plane for channel "${ch.name}" does not match its type and size`, { part: partIndex });
        }
        data = given;
      } else {
        const buffer = allocate(count * PIXEL_TYPE_BYTES[ch.pixelType]);
        data =
          ch.pixelType === 'half'
            ? new Uint16Array(buffer, 0, count)
            : ch.pixelType === 'float'
              ? new Float32Array(buffer, 0, count)
              : new Uint32Array(buffer, 0, count);
      }
      return {
        name: ch.name,
        pixelType: ch.pixelType,
        xSampling: ch.xSampling,
        ySampling: ch.ySampling,
        widthSamples,
        heightSamples,
        data,
      } satisfies DecodedChannel;
    });

    const chunkIndices = chunksForRegion(part, level, region);
    const plans = new Map<string, UnpackPlan>();
    // no channel selected: a pass that only keeps the decompressed chunks (a chunk store's fill)
    const anyPlane = planes.some((p) => p !== null);
    const unpack = (place: ChunkPlace, raw: Uint8Array): void => {
      if (!anyPlane) return;
      const planKey = `${place.block.x0}:${place.block.widthPx}`;
      let plan = plans.get(planKey);
      if (!plan) plans.set(planKey, (plan = makeUnpackPlan(place.block, region, frame, planes)));
      unpackBlock(raw, place.block, plan);
    };
    const store = options.chunkStore;
    let missing: MissingChunks | undefined;
    const storeLayout = store ? this.chunkStoreLayout(partIndex, lx, ly) : null;
    if (store && store.bytes.length !== storeLayout!.totalBytes) {
      throw invalid(`chunk store holds ${store.bytes.length} bytes, the level needs ${storeLayout!.totalBytes}`, { part: partIndex });
    }
    if (store?.mode === 'read') {
      // every chunk is already decompressed: unpack only
      for (const chunkIndex of chunkIndices) {
        if (options.signal?.aborted) throw aborted();
        const place = chunkPlace(part, chunkIndex);
        const at = storeLayout!.offsets[chunkIndex - level.firstChunk]!;
        const t = performance.now();
        unpack(place, store.bytes.subarray(at, at + uncompressedBytes(place.block)));
        timings.unpackMs += performance.now() - t;
        timings.chunks++;
      }
    } else {
      const failures: ChunkFailure[] | null = options.tolerant ? [] : null;
      // a chunk that failed: zeros where its pixels (and decompressed bytes) go, in memory that may hold another
      // image's (fresh planes are zero already: a hostile header's huge chunk is not written to)
      const planesMayHoldOld = options.into !== undefined || options.allocate !== undefined;
      const onFailure = (chunkIndex: number, error: ExrError): void => {
        const place = chunkPlace(part, chunkIndex);
        const bytes = uncompressedBytes(place.block);
        const at = store ? storeLayout!.offsets[chunkIndex - level.firstChunk]! : 0;
        if (store) store.bytes.fill(0, at, at + bytes);
        if (planesMayHoldOld) unpack(place, new Uint8Array(bytes));
        failures!.push({ chunk: chunkIndex, region: blockInRegion(place.block, region), reason: error.message });
      };
      this.forEachChunk(
        partIndex,
        chunkIndices,
        timings,
        options.signal,
        (chunkIndex, chunk) => {
          const place = chunkPlace(part, chunkIndex);
          checkChunkCoordinates(part, place.block, place.tileX, place.tileY, place.level, chunk);
          const expectedBytes = uncompressedBytes(place.block);
          let t = performance.now();
          let raw: Uint8Array;
          if (store) {
            // straight into the shared chunk store: no intermediate buffer, no copy
            const at = storeLayout!.offsets[chunkIndex - level.firstChunk]!;
            raw = store.bytes.subarray(at, at + expectedBytes);
            decompressInto(part.compression, chunk.data, place.block, raw);
          } else {
            // unpacked into the planes below, before the next chunk reuses the buffer
            raw = decompressTransient(part.compression, chunk.data, place.block, expectedBytes);
          }
          const t2 = performance.now();
          timings.decompressMs += t2 - t;
          t = t2;
          unpack(place, raw);
          timings.unpackMs += performance.now() - t;
        },
        true,
        failures ? onFailure : undefined,
      );
      if (failures?.length) {
        failures.sort((a, b) => a.chunk - b.chunk);
        missing = missingChunks(failures, chunkIndices.length, this.incomplete);
      }
    }

    return {
      ...(missing ? { missing } : {}),
      part: partIndex,
      lx,
      ly,
      region,
      widthPx: region.xMax - region.xMin + 1,
      heightPx: region.yMax - region.yMin + 1,
      channels: planes.filter((p): p is DecodedChannel => p !== null),
      timings,
    };
  }

  private readonly storeLayouts = new Map<string, ChunkStoreLayout>();

  /** The chunk store layout of one level of a flat part (see blocks.ts), computed once per level. */
  chunkStoreLayout(partIndex: number, lx: number, ly: number): ChunkStoreLayout {
    const key = `${partIndex}:${lx}:${ly}`;
    const known = this.storeLayouts.get(key);
    if (known) return known;
    const part = this.part(partIndex);
    const level = findLevel(part, lx, ly);
    if (!level) throw invalid(`part has no level (${lx}, ${ly})`, { part: partIndex });
    const layout = chunkStoreLayout(part, level);
    this.storeLayouts.set(key, layout);
    return layout;
  }

  /**
   * Reads the given chunks in file order, coalescing neighbours into few large reads, and hands each
   * parsed chunk to `visit`. Errors are tagged with the part and chunk.
   */
  forEachChunk(
    partIndex: number,
    chunkIndices: number[],
    timings: StageTimings,
    signal: AbortSignalLike | undefined,
    visit: (chunkIndex: number, chunk: ChunkHeader) => void,
    /** `visit` is done with each chunk's bytes when it returns: they may be read into a reused buffer. */
    transient = false,
    /** Where chunks that cannot be read, parsed or visited go (tolerant decodes); without it the first one throws. */
    onFailure?: (chunkIndex: number, error: ExrError) => void,
  ): void {
    const part = this.part(partIndex);
    const table = this.offsets[partIndex]!;
    const minHeader = minChunkHeaderBytes(part, this.multipart);
    let order = chunkIndices.slice().sort((a, b) => table[a]! - table[b]!);
    if (onFailure) {
      // chunks the offset table does not place in the file are missing; the others are read as usual
      const unplaced = order.filter((c) => table[c]! < 0);
      for (const chunk of unplaced) onFailure(chunk, invalid(unplacedReason(this.incomplete), { part: partIndex, chunk }));
      if (unplaced.length) order = order.filter((c) => table[c]! >= 0);
    }
    let i = 0;
    while (i < order.length) {
      if (signal?.aborted) throw aborted();
      const first = order[i]!;
      const spanStart = table[first]!;
      if (spanStart < 0) {
        throw invalid(unplacedReason(this.incomplete), { part: partIndex, chunk: first });
      }
      let spanEnd = this.extents.endOf(spanStart);
      let j = i + 1;
      while (j < order.length) {
        const next = table[order[j]!]!;
        const nextEnd = this.extents.endOf(next);
        if (next - spanEnd > MAX_GAP_BYTES || nextEnd - spanStart > MAX_SPAN_BYTES) break;
        spanEnd = Math.max(spanEnd, nextEnd);
        j++;
      }
      const t0 = performance.now();
      const span =
        transient && this.source.readAtTransient
          ? this.source.readAtTransient(spanStart, spanEnd - spanStart)
          : this.source.readAt(spanStart, spanEnd - spanStart);
      timings.readMs += performance.now() - t0;
      timings.bytesRead += span.length;
      for (let k = i; k < j; k++) {
        const chunkIndex = order[k]!;
        if (signal?.aborted) throw aborted();
        const offset = table[chunkIndex]!;
        try {
          if (offset + minHeader > spanEnd) throw invalid('chunk is truncated');
          const chunkBytes = span.subarray(offset - spanStart, this.extents.endOf(offset) - spanStart);
          visit(chunkIndex, parseChunk(chunkBytes, part, this.multipart));
        } catch (error) {
          if (error instanceof ExrError && error.kind === 'aborted') throw error;
          const tagged = asExrError(error, { part: partIndex, chunk: chunkIndex });
          if (!onFailure) throw tagged;
          onFailure(chunkIndex, tagged);
          continue;
        }
        timings.chunks++;
      }
      i = j;
    }
  }
}

function checkChunkCoordinates(part: PartInfo, block: BlockLayout, tileX: number, tileY: number, level: Level, chunk: ChunkHeader): void {
  if (part.isTiled) {
    if (chunk.tileX !== tileX || chunk.tileY !== tileY || chunk.levelX !== level.lx || chunk.levelY !== level.ly) {
      throw invalid(
        `tile header says (${chunk.tileX}, ${chunk.tileY}) level (${chunk.levelX}, ${chunk.levelY}), expected (${tileX}, ${tileY}) level (${level.lx}, ${level.ly})`,
      );
    }
  } else if (chunk.y !== block.y0) {
    throw invalid(`chunk starts at line ${chunk.y}, expected ${block.y0}`);
  }
}

/**
 * How blocks of one x-range are copied into the planes: the same for every chunk of a scanline part. `words` is the
 * native unpack's plan (NativeKernels.unpackRows), read by the TypeScript unpack as well, so that the per-line loop
 * reads numbers only, whatever shape the caller's region and frame came in (a band's are structured-cloned: read from
 * them, the loop compiled in a worker's warm-up was thrown away at its first band): PLAN_HEAD_WORDS (channel
 * count, a block's y0 and rows, written in per call, the region's yMin and yMax, the frame's yMin), then
 * PLAN_CHANNEL_WORDS a channel (the PLAN_* offsets below).
 */
interface UnpackPlan {
  words: Int32Array;
  views: (Uint8Array | null)[];
}

const PLAN_HEAD_WORDS = 6;
const PLAN_CHANNEL_COUNT = 0;
const PLAN_Y0 = 1;
const PLAN_ROWS = 2;
const PLAN_REGION_Y_MIN = 3;
const PLAN_REGION_Y_MAX = 4;
const PLAN_FRAME_Y_MIN = 5;
const PLAN_CHANNEL_WORDS = 6;
/** A channel's words: bytes of its line in the block, of them skipped and copied, where the copy starts in a plane row, bytes a plane row, its y sampling. */
const PLAN_LINE_BYTES = 0;
const PLAN_SKIP_BYTES = 1;
const PLAN_COPY_BYTES = 2;
const PLAN_DST_COL_BYTES = 3;
const PLAN_ROW_BYTES = 4;
const PLAN_Y_SAMPLING = 5;

export function makeUnpackPlan(block: BlockLayout, region: Box2i, frame: Box2i, planes: (DecodedChannel | null)[]): UnpackPlan {
  const x1 = block.x0 + block.widthPx - 1;
  const xa = Math.max(block.x0, region.xMin);
  const xb = Math.min(x1, region.xMax);
  const count = block.channels.length;
  const words = new Int32Array(PLAN_HEAD_WORDS + PLAN_CHANNEL_WORDS * count);
  const views: (Uint8Array | null)[] = [];
  words.set([count, 0, 0, region.yMin, region.yMax, frame.yMin]);
  for (let c = 0; c < count; c++) {
    const ch = block.channels[c]!;
    const size = PIXEL_TYPE_BYTES[ch.pixelType];
    const plane = planes[c];
    words.set(
      [
        sampleCount(ch.xSampling, block.x0, x1) * size,
        sampleCount(ch.xSampling, block.x0, xa - 1) * size,
        xb >= xa ? sampleCount(ch.xSampling, xa, xb) * size : 0,
        sampleCount(ch.xSampling, frame.xMin, xa - 1) * size,
        plane ? plane.widthSamples * size : 0,
        ch.ySampling,
      ],
      PLAN_HEAD_WORDS + PLAN_CHANNEL_WORDS * c,
    );
    views.push(plane ? new Uint8Array(plane.data.buffer, plane.data.byteOffset, plane.data.byteLength) : null);
  }
  return { words, views };
}

/** The native kernels' unpack where they loaded: a tile's 128 lines a channel are one call, not 128 views and copies. */
const unpackRows = nativeKernels?.unpackRows;

/** Copies the part of a decompressed block that lies in the plan's region into the channel planes, laid out over its frame. */
function unpackBlock(raw: Uint8Array, block: BlockLayout, plan: UnpackPlan): void {
  plan.words[PLAN_Y0] = block.y0;
  plan.words[PLAN_ROWS] = block.heightPx;
  if (unpackRows) unpackRows(raw, plan.words, plan.views);
  else unpackBlockTs(raw, plan);
}

/** unpackBlock in TypeScript, for the block whose y0 and rows are in the plan: the fallback without the native kernels, and their oracle in tests. */
export function unpackBlockTs(raw: Uint8Array, plan: UnpackPlan): void {
  const { words, views } = plan;
  const count = words[PLAN_CHANNEL_COUNT]!;
  const y0 = words[PLAN_Y0]!;
  const y1 = y0 + words[PLAN_ROWS]! - 1;
  const regionYMin = words[PLAN_REGION_Y_MIN]!;
  const regionYMax = words[PLAN_REGION_Y_MAX]!;
  const frameYMin = words[PLAN_FRAME_Y_MIN]!;
  let pos = 0;
  for (let y = y0; y <= y1; y++) {
    const inRegion = y >= regionYMin && y <= regionYMax;
    for (let c = 0; c < count; c++) {
      const at = PLAN_HEAD_WORDS + PLAN_CHANNEL_WORDS * c;
      const ys = words[at + PLAN_Y_SAMPLING]!;
      if (ys !== 1 && floorMod(y, ys) !== 0) continue;
      const view = views[c];
      const n = words[at + PLAN_COPY_BYTES]!;
      if (view && inRegion && n > 0) {
        const row = ys === 1 ? y - frameYMin : sampleCount(ys, frameYMin, y - 1);
        const src = pos + words[at + PLAN_SKIP_BYTES]!;
        view.set(raw.subarray(src, src + n), row * words[at + PLAN_ROW_BYTES]! + words[at + PLAN_DST_COL_BYTES]!);
      }
      pos += words[at + PLAN_LINE_BYTES]!;
    }
  }
}

export { tileBlock };
