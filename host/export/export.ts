// Export: images or thumbnails as 8-bit PNG/JPEG through the view (sharp encodes), a layer or part as EXR (the project's writer); never overwrites unasked.

import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeRgba8 } from './encode.js';
import { FileExistsError, writeFileAtomically } from '../io/atomic-file.js';
import { HALF_TO_FLOAT, writeExr, type WriteChannel } from '../../codec/index.js';
import { DEFAULT_DISPLAY, type ChannelView, type DisplayParams } from '../../shaders/display-params.js';
import { toneMapImage } from '../../shaders/tonemap-cpu.js';
import { parseCube, type Lut } from '../../shaders/lut-cube.js';
import { toneMapHalfRgba } from '../thumbnails/tone-map.js';
import { ocioDisplayOf, pageConfigs, type OcioConfigSource } from './ocio-view.js';
import { matteFileBytes } from './matte.js';
import { exportExpression, expressionRgba } from './expression-rgba.js';
import type {
  DecodedImage,
  DecodedPlane,
  ExportRequest,
  ExportResult,
  FileEntry,
  FitWithin,
  Thumbnail,
  ThumbnailMissing,
  ViewLut,
  ViewTransform,
} from '../../contract/host-api.js';
import { planeSamples } from '../decode/plane-bytes.js';
import { bytesText, exportFit, layerBytes, reducedExportNote } from './export-fit.js';

export interface ExportSources {
  /** The file; also a damaged one whose header reads (status 'error' with its summary). */
  file(fileId: string): { entry: FileEntry; absPath: string };
  /**
   * Decoded tolerantly: the chunks that could not be read are zero and listed in the image's `missing`. With `fit`, a
   * level 0 over it comes reduced (DecodeRequest.fitWithin), streamed from the file's chunks.
   */
  decode(fileId: string, part: number, channels: string[] | null, fit?: FitWithin): Promise<DecodedImage>;
  /** Bytes of RAM one image export may take (its decoded planes and working copies); absent: no bound. */
  memoryBytes?: number;
  thumbnail(fileId: string, longSidePx: number): Promise<Thumbnail>;
  /** Where an OCIO view's config comes from; without one, a built-in or the files the request carries (no disk). */
  ocioConfigs?: OcioConfigSource;
}

/** What was encoded, and for a damaged deep part written from the chunks that could be read, what it lacks. */
interface Encoded {
  bytes: Uint8Array;
  damage: string | null;
  /** Written at a reduced size: how large, and why. */
  reduced?: string;
}

const MIME = { png: 'image/png', jpg: 'image/jpeg', exr: 'image/x-exr' } as const;
export const DEFAULT_EXPORT_LONG_SIDE_PX = 256;

export async function exportImages(request: ExportRequest, sources: ExportSources): Promise<ExportResult> {
  if (request.kind === 'matte') {
    if (request.format === 'jpg') throw new Error('a matte goes to EXR (float) or PNG (8-bit grey), not JPEG: pick one of those');
    if (!request.matte) throw new Error('a matte export needs the Cryptomatte layer and the picked names');
  } else if (request.kind === 'exr-layer' ? request.format !== 'exr' : request.format === 'exr') {
    throw new Error(
      `cannot export ${request.kind === 'exr-layer' ? 'a layer' : `${request.kind}s`} as ${request.format.toUpperCase()}: layers go to EXR, images and thumbnails to PNG or JPEG`,
    );
  }
  if (request.outDir !== undefined) {
    const info = await stat(request.outDir).catch(() => null);
    if (!info?.isDirectory()) throw new Error(`export folder ${request.outDir} does not exist: pick an existing folder`);
  }
  const result: ExportResult = { written: [], skipped: [], failed: [] };
  for (const fileId of request.fileIds) {
    try {
      const { entry } = sources.file(fileId);
      const name = outputName(entry.name, request);
      if (request.outDir !== undefined) {
        const path = join(request.outDir, name);
        if (!request.overwrite && (await exists(path))) {
          result.skipped.push({ fileId, reason: `${path} already exists: export again with overwrite on, or pick another folder` });
          continue;
        }
        const { bytes, damage, reduced } = await encode(fileId, request, sources, entry);
        await writeSafely(path, bytes, request.overwrite);
        result.written.push({ fileId, path, bytes: bytes.length, ...(damage ? { damage } : {}), ...(reduced ? { reduced } : {}) });
      } else {
        const { bytes, damage, reduced } = await encode(fileId, request, sources, entry);
        (result.downloads ??= []).push({
          fileId,
          name,
          mimeType: MIME[request.format],
          data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer,
          ...(damage ? { damage } : {}),
          ...(reduced ? { reduced } : {}),
        });
      }
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (/already exists/.test(reason)) result.skipped.push({ fileId, reason });
      else result.failed.push({ fileId, reason });
    }
  }
  return result;
}

function outputName(fileName: string, request: ExportRequest): string {
  const base = fileName.replace(/\.exr$/i, '');
  if (request.kind === 'matte') return `${base}_${request.matte!.layer.replace(/[^\w.-]+/g, '_')}_matte.${request.format}`;
  const layer = request.view.layer ? `_${request.view.layer.replace(/[^\w.-]+/g, '_')}` : '';
  if (request.kind === 'exr-layer') return `${base}${layer || `_part${request.part ?? 0}`}.exr`;
  return `${base}${layer}.${request.format}`;
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null;
}

/** Whole or not at all (atomic-file.ts); an existing file is replaced only when the request says so. */
async function writeSafely(path: string, bytes: Uint8Array, overwrite: boolean): Promise<void> {
  await writeFileAtomically(path, bytes, overwrite).catch((error: unknown) => {
    throw error instanceof FileExistsError
      ? new Error(`${path} already exists: export again with overwrite on, or pick another folder`)
      : error;
  });
}

async function encode(fileId: string, request: ExportRequest, sources: ExportSources, entry: FileEntry): Promise<Encoded> {
  if (request.kind === 'matte') {
    if (entry.status === 'error') throw new Error(`${entry.name}: ${entry.error ?? 'cannot be read'}`);
    const { layer, names } = request.matte!;
    return { damage: null, bytes: await matteFileBytes(sources.file(fileId).absPath, layer, names, request.format as 'exr' | 'png') };
  }
  const part = request.part ?? firstFlatPart(entry);
  // a damaged file: a deep part is written from the chunks that could be read, as its preview shows it
  const deep = isDeep(partOf(entry, part));
  if (entry.status === 'error' && !deep) throw new Error(`${entry.name}: ${entry.error ?? 'cannot be read'}`);
  if (request.kind === 'exr-layer') {
    const planes = layerChannels(entry, part, request.view.layer);
    // an EXR layer is every pixel, decoded whole: refused where that is more than the host allows an export
    const decodedBytes = layerBytes(partOf(entry, part), planes);
    if (sources.memoryBytes !== undefined && decodedBytes > sources.memoryBytes)
      throw new Error(
        `its layer is ${bytesText(decodedBytes)} decoded, over the ${bytesText(sources.memoryBytes)} ` +
          'the host allows one export: export it as PNG or JPEG (written at a reduced size), or copy the file itself',
      );
    const image = await sources.decode(fileId, part, planes);
    return { damage: imageDamage(image.missing, deep, 'are zero in it'), bytes: encodeExrLayer(image, request.view.layer, entry, part) };
  }
  if (request.kind === 'thumbnail') {
    const thumb = await sources.thumbnail(fileId, request.longSidePx ?? DEFAULT_EXPORT_LONG_SIDE_PX);
    const rgba8 = toneMapHalfRgba(
      new Uint16Array(thumb.rgbaHalf),
      thumb.widthPx,
      thumb.heightPx,
      await viewParams(request.view, fileId, sources.ocioConfigs),
    );
    return {
      damage: thumb.missing ? damageNote(thumb.missing, 'are hatched in the thumbnail') : null,
      bytes: await encode8(rgba8, thumb.widthPx, thumb.heightPx, request.format),
    };
  }
  // an image too large to encode whole in memory comes reduced, streamed from its chunks, and the result says so
  const decodeFitted = async (planes: string[]): Promise<{ image: DecodedImage; reduced?: string }> => {
    const fit = deep || sources.memoryBytes === undefined ? null : exportFit(partOf(entry, part), planes, sources.memoryBytes);
    const image = await sources.decode(fileId, part, planes, ...(fit ? [fit] : []));
    return image.reduced
      ? { image, reduced: reducedExportNote(image.reduced, image.widthPx, image.heightPx, sources.memoryBytes ?? 0) }
      : { image };
  };
  if (request.view.channelMode.startsWith('expr:')) {
    const program = exportExpression(entry, part, request.view.channelMode.slice('expr:'.length));
    const { image, reduced } = await decodeFitted([...program.planes]);
    const damage = imageDamage(image.missing, deep, 'are black in it');
    const params = await viewParams(request.view, fileId, sources.ocioConfigs);
    const rgba8 = toneMapImage(expressionRgba(image, program), image.widthPx, image.heightPx, params);
    return { damage, bytes: await encode8(rgba8, image.widthPx, image.heightPx, request.format), ...(reduced ? { reduced } : {}) };
  }
  const channels = viewChannels(entry, part, request.view);
  const { image, reduced } = await decodeFitted(channels.filter((c): c is string => c !== null));
  const damage = imageDamage(image.missing, deep, 'are black in it');
  const params = await viewParams(request.view, fileId, sources.ocioConfigs);
  const { widthPx, heightPx } = image;
  const halfBits = assembleHalfRgba(image, channels);
  const rgba8 = halfBits
    ? toneMapHalfRgba(halfBits, widthPx, heightPx, params)
    : toneMapImage(assembleRgba(image, channels), widthPx, heightPx, params);
  return { damage, bytes: await encode8(rgba8, widthPx, heightPx, request.format), ...(reduced ? { reduced } : {}) };
}

const isDeep = (part: { type: string }): boolean => part.type === 'deepscanline' || part.type === 'deeptile';

/**
 * What the export of a damaged part's image says it lacks: a deep part is written from the chunks that could be read
 * (their pixels had no samples, so they flatten to zero: `shown` says how that looks); a flat one is not exported with
 * holes in it.
 */
function imageDamage(missing: ThumbnailMissing | undefined, deep: boolean, shown: string): string | null {
  if (!missing) return null;
  if (deep) return damageNote(missing, shown);
  const lost = missing.chunksTotal - missing.chunksRead;
  throw new Error(
    `${missing.reason}: ${lost} of ${missing.chunksTotal} chunks cannot be read, so it is not exported; render or copy it again`,
  );
}

/** "written with damage: …", as `exrview thumbs` says of a damaged file's thumbnail. */
function damageNote(missing: ThumbnailMissing, shown: string): string {
  const lost = missing.chunksTotal - missing.chunksRead;
  return (
    `written with damage: ${lost} of ${missing.chunksTotal} chunks could not be read and ${shown} ` +
    `(${missing.reason}); copy or render the file again to export all of it`
  );
}

async function encode8(rgba8: Uint8ClampedArray, widthPx: number, heightPx: number, format: 'png' | 'jpg' | 'exr'): Promise<Uint8Array> {
  const encoded = await encodeRgba8(rgba8, widthPx, heightPx, format === 'png' ? 'png' : 'jpg', 92);
  return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.length);
}

/** The view as the tone-map's parameters; a single channel ('channel:NAME') is shown as grey through 'r'. */
export function displayParams(view: ViewTransform): DisplayParams {
  const mode = view.channelMode;
  const channelView: ChannelView = mode.startsWith('channel:') ? 'r' : mode.startsWith('expr:') ? 'rgb' : (mode as ChannelView);
  const lut = view.lut ? { lut: parsedLut(view.lut), shaper: view.lut.shaper, name: view.lut.name } : null;
  return {
    ...DEFAULT_DISPLAY,
    exposureEv: view.exposureEv,
    offset: view.offset,
    gamma: view.gamma,
    transform: view.displayTransform,
    channelView,
    nanInf: false,
    lut,
  };
}

/** The view's parameters with its OpenColorIO processor from the file's own colour space, which replaces the tone-map after exposure. */
async function viewParams(view: ViewTransform, fileId: string, configs = pageConfigs(() => undefined)): Promise<DisplayParams> {
  const params = displayParams(view);
  if (!view.ocio) return params;
  const { inputSpaces, ...ocio } = view.ocio;
  const inputSpace = (inputSpaces && Object.hasOwn(inputSpaces, fileId) ? inputSpaces[fileId] : undefined) ?? ocio.inputSpace;
  try {
    return { ...params, ocio: await ocioDisplayOf({ ...ocio, inputSpace }, configs) };
  } catch (error) {
    throw new Error(
      `the OCIO view ${view.ocio.display} / ${view.ocio.view} cannot be built, ${error instanceof Error ? error.message : String(error)}: ` +
        'pick another config or view',
    );
  }
}

/** The last LUT parsed: an export of many files shares one view, so its .cube text is parsed once. */
let lastLut: { cube: string; lut: Lut } | null = null;

function parsedLut(v: ViewLut): Lut {
  if (lastLut?.cube !== v.cube) {
    try {
      lastLut = { cube: v.cube, lut: parseCube(v.cube) };
    } catch (error) {
      throw new Error(
        `the LUT ${v.name || '(unnamed)'} cannot be read, ${error instanceof Error ? error.message : String(error)}: fix the file or load another LUT`,
      );
    }
  }
  return lastLut.lut;
}

function firstFlatPart(entry: FileEntry): number {
  const part = entry.summary?.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage') ?? entry.summary?.parts[0];
  if (!part) throw new Error(`${entry.name} has no parts to export`);
  return part.index;
}

function partOf(entry: FileEntry, part: number) {
  const summary = entry.summary?.parts[part];
  if (!summary) throw new Error(`${entry.name} has no part ${part}`);
  return summary;
}

/** Every channel of a layer ('' is the base layer); the whole part when the layer is not found and is ''. */
function layerChannels(entry: FileEntry, part: number, layer: string): string[] | null {
  const summary = partOf(entry, part);
  const found = summary.layers.find((l) => l.name === layer);
  if (found) return found.channels;
  if (layer === '') return null;
  throw new Error(
    `${entry.name} part ${part} has no layer "${layer}" (it has ${summary.layers.map((l) => l.name || '(base)').join(', ')})`,
  );
}

/** Which channels feed R, G, B, A of the view: a layer's R/G/B/A, a single channel as grey, or the layer's first channel as grey. */
function viewChannels(entry: FileEntry, part: number, view: ViewTransform): [string | null, string | null, string | null, string | null] {
  const summary = partOf(entry, part);
  if (view.channelMode.startsWith('channel:')) {
    const name = view.channelMode.slice('channel:'.length);
    if (!summary.channels.some((c) => c.name === name)) throw new Error(`${entry.name} part ${part} has no channel "${name}"`);
    return [name, null, null, null];
  }
  const names = layerChannels(entry, part, view.layer) ?? summary.channels.map((c) => c.name);
  const prefix = view.layer ? `${view.layer}.` : '';
  const find = (suffixes: string[]) => suffixes.map((s) => prefix + s).find((n) => names.includes(n)) ?? null;
  const r = find(['R', 'r', 'red']);
  const g = find(['G', 'g', 'green']);
  const b = find(['B', 'b', 'blue']);
  const a = find(['A', 'a', 'alpha']);
  if (r || g || b) return [r, g, b, a];
  const grey = names.find((n) => n !== a) ?? names[0] ?? null;
  if (!grey) throw new Error(`${entry.name} part ${part} layer "${view.layer}" has no channels`);
  return [grey, grey, grey, a];
}

function planeValue(plane: DecodedPlane): (x: number, y: number) => number {
  const view = planeSamples(plane);
  const half = plane.pixelType === 'half';
  // subsampled planes (e.g. chroma) are read nearest-sample
  return (x, y) => {
    const v = view[Math.floor(y / plane.ySampling) * plane.widthSamples + Math.floor(x / plane.xSampling)]!;
    return half ? HALF_TO_FLOAT[v]! : v;
  };
}

/** Interleaved half RGBA bits when every chosen plane is half and full resolution (the common case), else null. */
function assembleHalfRgba(image: DecodedImage, channels: [string | null, string | null, string | null, string | null]): Uint16Array | null {
  const planes = channels.map((name) => (name ? image.planes.find((p) => p.name === name) : undefined));
  if (planes.some((p) => p && (p.pixelType !== 'half' || p.xSampling !== 1 || p.ySampling !== 1))) return null;
  const pixels = image.widthPx * image.heightPx;
  const out = new Uint16Array(pixels * 4);
  const ONE = 0x3c00;
  for (let c = 0; c < 4; c++) {
    const plane = planes[c];
    const src = plane ? (planeSamples(plane) as Uint16Array) : null;
    for (let i = 0, o = c; i < pixels; i++, o += 4) out[o] = src ? src[i]! : c === 3 ? ONE : 0;
  }
  return out;
}

/** Interleaved linear RGBA (float) from the chosen planes; a missing colour is 0, a missing alpha 1. */
function assembleRgba(image: DecodedImage, channels: [string | null, string | null, string | null, string | null]): Float32Array {
  const { widthPx, heightPx } = image;
  const out = new Float32Array(widthPx * heightPx * 4);
  const readers = channels.map((name) => {
    const plane = name ? image.planes.find((p) => p.name === name) : undefined;
    return plane ? planeValue(plane) : null;
  });
  for (let c = 0; c < 4; c++) {
    const read = readers[c];
    for (let y = 0, i = c; y < heightPx; y++) {
      for (let x = 0; x < widthPx; x++, i += 4) out[i] = read ? read(x, y) : c === 3 ? 1 : 0;
    }
  }
  return out;
}

/** The layer's channels as an EXR of their own (prefix removed, so `diffuse.R` becomes `R`), ZIP compressed. */
function encodeExrLayer(image: DecodedImage, layer: string, entry: FileEntry, part: number): Uint8Array {
  const summary = partOf(entry, part);
  const prefix = layer ? `${layer}.` : '';
  const channels: WriteChannel[] = image.planes.map((p) => ({
    name: prefix && p.name.startsWith(prefix) ? p.name.slice(prefix.length) : p.name,
    pixelType: p.pixelType,
    xSampling: p.xSampling,
    ySampling: p.ySampling,
    data: planeSamples(p),
  }));
  const [x0, y0, x1, y1] = image.dataWindow;
  const [dx0, dy0, dx1, dy1] = summary.displayWindow;
  return writeExr([
    {
      compression: 'zip',
      dataWindow: { xMin: x0, yMin: y0, xMax: x1, yMax: y1 },
      displayWindow: { xMin: dx0, yMin: dy0, xMax: dx1, yMax: dy1 },
      channels,
    },
  ]);
}
