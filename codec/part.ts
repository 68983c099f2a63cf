// All header validation in one place, and each part's derived geometry: levels, tiles, chunk counts.

import type { Attribute, AttributeValue, LineOrder, TileDescription, Chromaticities, Preview } from './attributes.js';
import { invalid, unsupported } from './core/errors.js';
import type { RawHeaders } from './header.js';
import { LINES_PER_CHUNK, type Box2i, type Channel, type Compression } from './core/types.js';

export type PartType = 'scanlineimage' | 'tiledimage' | 'deepscanline' | 'deeptile';
const PART_TYPES: readonly string[] = ['scanlineimage', 'tiledimage', 'deepscanline', 'deeptile'];

export interface Level {
  /** Level numbers in x and y (equal for mipmaps). */
  lx: number;
  ly: number;
  widthPx: number;
  heightPx: number;
  tilesX: number;
  tilesY: number;
  /** Index of this level's first chunk in the part's offset table. */
  firstChunk: number;
}

export interface PartInfo {
  index: number;
  /** "" for a single-part file without a name. */
  name: string;
  type: PartType;
  isDeep: boolean;
  isTiled: boolean;
  compression: Compression;
  dataWindow: Box2i;
  displayWindow: Box2i;
  widthPx: number;
  heightPx: number;
  /** Header order (alphabetical in valid files). */
  channels: Channel[];
  lineOrder: LineOrder;
  tiles: TileDescription | null;
  /** Scanlines per chunk (scanline parts). */
  linesPerChunk: number;
  /** Tiled parts: every level, in offset-table order. Scanline parts: one level. */
  levels: Level[];
  levelCountX: number;
  levelCountY: number;
  chunkCount: number;
  view: string | null;
  chromaticities: Chromaticities | null;
  preview: Preview | null;
  attributes: Attribute[];
}

export interface ReadLimits {
  /** Largest data window (pixels) accepted for one part: a hostile 2^31-pixel window is refused before any allocation. */
  maxPixelsPerPart: number;
  /** Most channels in one part. */
  maxChannels: number;
}

export const DEFAULT_LIMITS: ReadLimits = {
  maxPixelsPerPart: 2 ** 30,
  maxChannels: 1024,
};

/** OpenEXR refuses every other compression for deep parts (sample tables are compressed line by line). */
const DEEP_COMPRESSIONS: ReadonlySet<Compression> = new Set(['none', 'rle', 'zips']);

/** Validates every part's header against the file's flags and size and derives its geometry. */
export function buildParts(raw: RawHeaders, fileSizeBytes: number, limits: ReadLimits = DEFAULT_LIMITS): PartInfo[] {
  const parts = raw.parts.map((attributes, index) => {
    try {
      return buildPart(raw, attributes, index, limits);
    } catch (error) {
      throw error instanceof Error && 'at' in error ? (error as ReturnType<typeof invalid>).at({ part: index }) : error;
    }
  });
  if (raw.flags.multipart) {
    const names = new Set<string>();
    for (const part of parts) {
      if (names.has(part.name)) throw invalid(`two parts are named "${part.name}"`);
      names.add(part.name);
    }
  }
  // every chunk takes at least 8 bytes of offset table: a chunk count the file cannot hold is damage
  const totalChunks = parts.reduce((sum, p) => sum + p.chunkCount, 0);
  if (raw.headerEndByte + totalChunks * 8 > fileSizeBytes) {
    throw invalid(`file of ${fileSizeBytes} bytes is too small for its ${totalChunks} chunk offsets`);
  }
  return parts;
}

function buildPart(raw: RawHeaders, attributes: Attribute[], index: number, limits: ReadLimits): PartInfo {
  // the first of a name, as a search would find (parseAttributeList refuses repeats anyway)
  const byName = new Map<string, Attribute>();
  for (const a of attributes) if (!byName.has(a.name)) byName.set(a.name, a);
  const get = (name: string) => byName.get(name)?.value;
  const require = <T extends AttributeValue['type']>(name: string, type: T): Extract<AttributeValue, { type: T }> => {
    const v = get(name);
    if (!v) throw invalid(`required attribute "${name}" is missing`);
    if (v.type !== type) throw invalid(`attribute "${name}" has type ${v.type === 'unknown' ? v.typeName : v.type}, expected ${type}`);
    return v as Extract<AttributeValue, { type: T }>;
  };

  const channelsAttr = require('channels', 'chlist');
  const compressionAttr = require('compression', 'compression');
  const dataWindowAttr = require('dataWindow', 'box2i');
  const displayWindowAttr = require('displayWindow', 'box2i');
  const lineOrderAttr = require('lineOrder', 'lineOrder');
  require('pixelAspectRatio', 'float');
  require('screenWindowCenter', 'v2f');
  require('screenWindowWidth', 'float');

  const channels = channelsAttr.value.slice();
  const compression = compressionAttr.value;
  if (typeof compression === 'number') throw unsupported(`unknown compression method ${compression}`);
  const lineOrder = lineOrderAttr.value;
  if (typeof lineOrder === 'number') throw invalid(`unknown line order ${lineOrder}`);
  const dataWindow = dataWindowAttr.value;
  const displayWindow = displayWindowAttr.value;

  // part type: a single-part image file's comes from its version field, as OpenEXR reads it (a
  // `type` attribute that says otherwise, or names no type at all, is ignored); multipart and
  // deep (non-image) files name it in the attribute
  const typeAttr = get('type');
  let type: PartType;
  if (!raw.flags.multipart && !raw.flags.nonImage) {
    type = raw.flags.singlePartTiled ? 'tiledimage' : 'scanlineimage';
  } else if (typeAttr) {
    if (typeAttr.type !== 'string' || !PART_TYPES.includes(typeAttr.value)) {
      throw unsupported(`part type ${typeAttr.type === 'string' ? `"${typeAttr.value}"` : typeAttr.type} is not an image type`);
    }
    type = typeAttr.value as PartType;
  } else {
    throw invalid('required attribute "type" is missing');
  }
  const isDeep = type === 'deepscanline' || type === 'deeptile';
  const isTiled = type === 'tiledimage' || type === 'deeptile';
  if (isDeep && !DEEP_COMPRESSIONS.has(compression)) throw invalid(`deep parts cannot use ${compression.toUpperCase()} compression`);

  const nameAttr = get('name');
  const name = nameAttr && nameAttr.type === 'string' ? nameAttr.value : '';
  if (raw.flags.multipart && !nameAttr) throw invalid('required attribute "name" is missing');

  validateWindow(dataWindow, 'data window');
  validateWindow(displayWindow, 'display window');
  const widthPx = dataWindow.xMax - dataWindow.xMin + 1;
  const heightPx = dataWindow.yMax - dataWindow.yMin + 1;
  if (widthPx * heightPx > limits.maxPixelsPerPart) {
    throw invalid(`data window of ${widthPx}x${heightPx} pixels is larger than the limit of ${limits.maxPixelsPerPart} pixels`);
  }

  if (channels.length > limits.maxChannels) throw invalid(`${channels.length} channels is more than the limit of ${limits.maxChannels}`);
  const channelNames = new Set<string>();
  for (const ch of channels) {
    if (channelNames.has(ch.name)) throw invalid(`channel "${ch.name}" appears twice`);
    channelNames.add(ch.name);
    if (ch.xSampling < 1 || ch.ySampling < 1 || ch.xSampling > widthPx || ch.ySampling > heightPx) {
      throw invalid(`channel "${ch.name}" has sampling ${ch.xSampling}x${ch.ySampling}`);
    }
    if (isTiled && (ch.xSampling !== 1 || ch.ySampling !== 1)) {
      throw invalid(`channel "${ch.name}" is subsampled in a tiled part`);
    }
    if (
      mod(dataWindow.xMin, ch.xSampling) !== 0 ||
      mod(dataWindow.yMin, ch.ySampling) !== 0 ||
      widthPx % ch.xSampling !== 0 ||
      heightPx % ch.ySampling !== 0
    ) {
      throw invalid(`data window is not a multiple of channel "${ch.name}" sampling ${ch.xSampling}x${ch.ySampling}`);
    }
  }

  let tiles: TileDescription | null = null;
  let levels: Level[];
  let levelCountX = 1;
  let levelCountY = 1;
  const linesPerChunk = LINES_PER_CHUNK[compression];
  if (isTiled) {
    const tilesAttr = require('tiles', 'tiledesc');
    tiles = tilesAttr.value;
    if (tiles.xSizePx < 1 || tiles.ySizePx < 1 || tiles.xSizePx > 2 ** 31 - 1 || tiles.ySizePx > 2 ** 31 - 1) {
      throw invalid(`tile size ${tiles.xSizePx}x${tiles.ySizePx}`);
    }
    ({ levels, levelCountX, levelCountY } = tileLevels(widthPx, heightPx, tiles));
  } else {
    const chunks = Math.ceil(heightPx / linesPerChunk);
    levels = [{ lx: 0, ly: 0, widthPx, heightPx, tilesX: 1, tilesY: chunks, firstChunk: 0 }];
  }
  const last = levels[levels.length - 1]!;
  const chunkCount = last.firstChunk + last.tilesX * last.tilesY;

  const chunkCountAttr = get('chunkCount');
  if (chunkCountAttr) {
    if (chunkCountAttr.type !== 'int') throw invalid('attribute "chunkCount" is not an int');
    if (chunkCountAttr.value !== chunkCount) {
      throw invalid(`chunkCount attribute says ${chunkCountAttr.value}, the data window and tiling give ${chunkCount}`);
    }
  } else if (raw.flags.multipart) {
    throw invalid('required attribute "chunkCount" is missing');
  }

  const viewAttr = get('view');
  const chromaticitiesAttr = get('chromaticities');
  const previewAttr = get('preview');
  return {
    index,
    name,
    type,
    isDeep,
    isTiled,
    compression,
    dataWindow,
    displayWindow,
    widthPx,
    heightPx,
    channels,
    lineOrder,
    tiles,
    linesPerChunk,
    levels,
    levelCountX,
    levelCountY,
    chunkCount,
    view: viewAttr?.type === 'string' ? viewAttr.value : null,
    chromaticities: chromaticitiesAttr?.type === 'chromaticities' ? chromaticitiesAttr.value : null,
    preview: previewAttr?.type === 'preview' ? previewAttr.value : null,
    attributes,
  };
}

const COORD_LIMIT = 2 ** 30;

function validateWindow(box: Box2i, what: string): void {
  for (const v of [box.xMin, box.yMin, box.xMax, box.yMax]) {
    if (v < -COORD_LIMIT || v > COORD_LIMIT) throw invalid(`${what} coordinate ${v} is out of range`);
  }
  if (box.xMax < box.xMin || box.yMax < box.yMin) {
    throw invalid(`${what} (${box.xMin} ${box.yMin}) - (${box.xMax} ${box.yMax}) is empty`);
  }
}

function mod(a: number, b: number): number {
  return ((a % b) + b) % b;
}

function levelCount(sizePx: number, roundUp: boolean): number {
  // number of halvings until 1, plus the full level
  let n = 1;
  let size = sizePx;
  while (size > 1) {
    size = roundUp ? Math.ceil(size / 2) : Math.floor(size / 2);
    n++;
  }
  return n;
}

function levelSize(sizePx: number, level: number, roundUp: boolean): number {
  const divisor = 2 ** level;
  const size = roundUp ? Math.ceil(sizePx / divisor) : Math.floor(sizePx / divisor);
  return Math.max(size, 1);
}

/** Levels of a tiled part in offset-table order: mipmaps by level, ripmaps by ly then lx. */
export function tileLevels(
  widthPx: number,
  heightPx: number,
  tiles: TileDescription,
): { levels: Level[]; levelCountX: number; levelCountY: number } {
  const roundUp = tiles.roundingMode === 'roundUp';
  let levelCountX = 1;
  let levelCountY = 1;
  if (tiles.levelMode === 'mipmapLevels') {
    levelCountX = levelCountY = levelCount(Math.max(widthPx, heightPx), roundUp);
  } else if (tiles.levelMode === 'ripmapLevels') {
    levelCountX = levelCount(widthPx, roundUp);
    levelCountY = levelCount(heightPx, roundUp);
  }
  const levels: Level[] = [];
  let firstChunk = 0;
  const add = (lx: number, ly: number) => {
    const w = levelSize(widthPx, lx, roundUp);
    const h = levelSize(heightPx, ly, roundUp);
    const tilesX = Math.ceil(w / tiles.xSizePx);
    const tilesY = Math.ceil(h / tiles.ySizePx);
    levels.push({ lx, ly, widthPx: w, heightPx: h, tilesX, tilesY, firstChunk });
    firstChunk += tilesX * tilesY;
  };
  if (tiles.levelMode === 'ripmapLevels') {
    for (let ly = 0; ly < levelCountY; ly++) for (let lx = 0; lx < levelCountX; lx++) add(lx, ly);
  } else {
    for (let l = 0; l < levelCountX; l++) add(l, l);
  }
  return { levels, levelCountX, levelCountY };
}

/** The level (lx, ly) of a part, or undefined. */
export function findLevel(part: PartInfo, lx: number, ly: number): Level | undefined {
  return part.levels.find((l) => l.lx === lx && l.ly === ly);
}
