// Checks the arguments of a HostApi call that arrived from an untrusted side (a browser page, a renderer process).

import type {
  DecodeRequest,
  DeepSamplesRequest,
  LevelStatisticsRequest,
  ExportRequest,
  FitWithin,
  PixelRegion,
  HostApi,
  PlaybackPlan,
  ThumbnailRequest,
  ViewLut,
  ViewOcio,
  ViewOcioFiles,
} from './host-api.js';
import type { TransportMethod } from './host-methods.js';

/** A call whose arguments do not match the HostApi contract: answered 400, never passed to the host. */
export class ArgumentError extends Error {}

const MAX_STRING_CHARS = 4096;
const MAX_LIST_ITEMS = 100_000;
const PRIORITIES = ['preview', 'playback', 'prefetch', 'thumbnail-visible', 'thumbnail-hidden'] as const;
const THUMB_PRIORITIES = ['thumbnail-visible', 'thumbnail-hidden'] as const;
const DISPLAY_TRANSFORMS = ['srgb', 'rec709', 'aces', 'agx', 'pbr-neutral', 'reinhard', 'linear'] as const;
const EXPORT_KINDS = ['image', 'thumbnail', 'exr-layer', 'matte'] as const;
const EXPORT_FORMATS = ['png', 'jpg', 'exr'] as const;
const CHANNEL_MODES = ['rgb', 'rgba', 'r', 'g', 'b', 'a', 'luminance'];
const LUT_SHAPERS = ['display', 'log', 'linear'] as const;
/** A 65^3 .cube as text is about 7 MB; the parser bounds the rest. */
const MAX_CUBE_CHARS = 12 * 1024 * 1024;

type Args<M extends TransportMethod> = Parameters<HostApi[M]>;

/** Returns the arguments typed for `method`, or throws ArgumentError saying what is wrong. */
export function validateArgs<M extends TransportMethod>(method: M, raw: unknown): Args<M> {
  if (!Array.isArray(raw)) throw new ArgumentError(`${method}: "args" must be an array`);
  const args = raw as unknown[];
  const check = VALIDATORS[method] as (args: unknown[]) => Args<M>;
  return check(args);
}

const VALIDATORS: { [M in TransportMethod]: (args: unknown[]) => Args<M> } = {
  getInfo: (a) => (arity('getInfo', a, 0, 0), []),
  openFolder: (a) => {
    arity('openFolder', a, 0, 2);
    const path = optional(a[0], (v) => str(v, 'openFolder: path'));
    const options = optional(a[1], (v) => {
      const o = obj(v, 'openFolder: options', ['recursive']);
      return { recursive: optional(o.recursive, (r) => bool(r, 'openFolder: options.recursive')) };
    });
    return [path, options];
  },
  closeFolder: (a) => (arity('closeFolder', a, 1, 1), [str(a[0], 'closeFolder: folderId')]),
  listFiles: (a) => (arity('listFiles', a, 1, 1), [str(a[0], 'listFiles: folderId')]),
  listSequences: (a) => (arity('listSequences', a, 1, 1), [str(a[0], 'listSequences: folderId')]),
  getHeader: (a) => (arity('getHeader', a, 1, 1), [str(a[0], 'getHeader: fileId')]),
  decodeImage: (a) => (arity('decodeImage', a, 1, 1), [decodeRequest(a[0])]),
  getThumbnail: (a) => (arity('getThumbnail', a, 1, 1), [thumbnailRequest(a[0])]),
  exportImages: (a) => (arity('exportImages', a, 1, 1), [exportRequest(a[0])]),
  readColourConfig: (a) => (arity('readColourConfig', a, 0, 1), [optional(a[0], (v) => configPath(v))]),
  deepSamples: (a) => (arity('deepSamples', a, 1, 1), [deepSamplesRequest(a[0])]),
  levelStatistics: (a) => (arity('levelStatistics', a, 1, 1), [levelStatisticsRequest(a[0])]),
  cancel: (a) => (arity('cancel', a, 1, 1), [str(a[0], 'cancel: requestId')]),
  setVisible: (a) => {
    arity('setVisible', a, 2, 2);
    return [strList(a[0], 'setVisible: fileIds'), a[1] === null ? null : str(a[1], 'setVisible: currentFileId')];
  },
  setPlayback: (a) => (arity('setPlayback', a, 1, 1), [a[0] === null ? null : playbackPlan(a[0])]),
};

/** Longest plan taken: a few loops of a long shot ahead is plenty (the renderer sends a new one as it plays). */
const MAX_PLAN_FRAMES = 4096;

function playbackPlan(v: unknown): PlaybackPlan {
  const where = 'setPlayback: plan';
  const o = obj(v, where, ['fileIds', 'part', 'channels', 'fitWithin']);
  const fileIds = strList(o.fileIds, `${where}.fileIds`);
  if (fileIds.length > MAX_PLAN_FRAMES)
    throw new ArgumentError(`${where}.fileIds has more than ${MAX_PLAN_FRAMES} frames: send the next ones in a later plan`);
  return {
    fileIds,
    part: int(o.part, `${where}.part`),
    channels: strList(o.channels, `${where}.channels`),
    ...(o.fitWithin === undefined ? {} : { fitWithin: fitWithin(o.fitWithin, `${where}.fitWithin`) }),
  };
}

function decodeRequest(v: unknown): DecodeRequest {
  const where = 'decodeImage: request';
  const o = obj(v, where, ['requestId', 'fileId', 'part', 'lx', 'ly', 'channels', 'priority', 'fitWithin', 'refineWithin', 'region']);
  return {
    requestId: str(o.requestId, `${where}.requestId`),
    fileId: str(o.fileId, `${where}.fileId`),
    part: int(o.part, `${where}.part`),
    lx: optional(o.lx, (x) => int(x, `${where}.lx`)),
    ly: optional(o.ly, (x) => int(x, `${where}.ly`)),
    channels: optional(o.channels, (x) => strList(x, `${where}.channels`)),
    priority: oneOf(o.priority, PRIORITIES, `${where}.priority`),
    ...(o.fitWithin === undefined ? {} : { fitWithin: fitWithin(o.fitWithin, `${where}.fitWithin`) }),
    ...(o.refineWithin === undefined ? {} : { refineWithin: fitWithin(o.refineWithin, `${where}.refineWithin`) }),
    ...(o.region === undefined ? {} : { region: pixelRegion(o.region, `${where}.region`) }),
  };
}

function pixelRegion(v: unknown, where: string): PixelRegion {
  const o = obj(v, where, ['xPx', 'yPx', 'widthPx', 'heightPx']);
  // a data window may start left of or above 0 (overscan): the origin is any integer
  const signed = (x: unknown, what: string): number => {
    if (typeof x !== 'number' || !Number.isSafeInteger(x)) throw new ArgumentError(`${what} must be an integer`);
    return x;
  };
  const region = {
    xPx: signed(o.xPx, `${where}.xPx`),
    yPx: signed(o.yPx, `${where}.yPx`),
    widthPx: int(o.widthPx, `${where}.widthPx`),
    heightPx: int(o.heightPx, `${where}.heightPx`),
  };
  if (region.widthPx < 1 || region.heightPx < 1) throw new ArgumentError(`${where}: widthPx and heightPx must be at least 1`);
  return region;
}

function deepSamplesRequest(v: unknown): DeepSamplesRequest {
  const where = 'deepSamples: request';
  const o = obj(v, where, ['fileId', 'part', 'pixel', 'channels', 'sortByDepth']);
  const pixel = optional(o.pixel, (p) => {
    const xy = obj(p, `${where}.pixel`, ['xPx', 'yPx']);
    return { xPx: coordinate(xy.xPx, `${where}.pixel.xPx`), yPx: coordinate(xy.yPx, `${where}.pixel.yPx`) };
  });
  const channels = optional(o.channels, (x) => strList(x, `${where}.channels`));
  const sortByDepth = optional(o.sortByDepth, (x) => bool(x, `${where}.sortByDepth`));
  return {
    fileId: str(o.fileId, `${where}.fileId`),
    part: int(o.part, `${where}.part`),
    ...(pixel ? { pixel } : {}),
    ...(channels ? { channels } : {}),
    ...(sortByDepth === undefined ? {} : { sortByDepth }),
  };
}

/** Most channels one statistics pass measures: a part's layer or two, never a request to hold all of a 1,000-channel file. */
const MAX_STATS_CHANNELS = 64;

function levelStatisticsRequest(v: unknown): LevelStatisticsRequest {
  const where = 'levelStatistics: request';
  const o = obj(v, where, ['requestId', 'fileId', 'part', 'channels', 'region', 'histogram']);
  const channels = strList(o.channels, `${where}.channels`);
  if (channels.length < 1 || channels.length > MAX_STATS_CHANNELS)
    throw new ArgumentError(`${where}.channels must name 1 to ${MAX_STATS_CHANNELS} channels, got ${channels.length}`);
  const histogram = optional(o.histogram, (x) => {
    if (!Array.isArray(x) || x.length !== 3) throw new ArgumentError(`${where}.histogram must be [R, G, B] channel names (or null)`);
    return x.map((c, i) => (c === null ? null : str(c, `${where}.histogram[${i}]`))) as [string | null, string | null, string | null];
  });
  const requestId = optional(o.requestId, (x) => str(x, `${where}.requestId`));
  return {
    ...(requestId === undefined ? {} : { requestId }),
    fileId: str(o.fileId, `${where}.fileId`),
    part: int(o.part, `${where}.part`),
    channels,
    ...(o.region === undefined ? {} : { region: pixelRegion(o.region, `${where}.region`) }),
    ...(histogram ? { histogram } : {}),
  };
}

/** An absolute pixel coordinate: data windows may start left of or above 0. */
function coordinate(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw new ArgumentError(`${what} must be an integer (a pixel's absolute coordinate)`);
  return v;
}

function fitWithin(v: unknown, where: string): FitWithin {
  const o = obj(v, where, ['maxSidePx', 'maxPixels']);
  const maxSidePx = int(o.maxSidePx, `${where}.maxSidePx`);
  const maxPixels = int(o.maxPixels, `${where}.maxPixels`);
  if (maxSidePx < 1 || maxPixels < 1) throw new ArgumentError(`${where}: maxSidePx and maxPixels must be at least 1`);
  return { maxSidePx, maxPixels };
}

function thumbnailRequest(v: unknown): ThumbnailRequest {
  const where = 'getThumbnail: request';
  const o = obj(v, where, ['requestId', 'fileId', 'longSidePx', 'priority', 'embeddedPreview']);
  const longSidePx = int(o.longSidePx, `${where}.longSidePx`);
  if (longSidePx < 1 || longSidePx > 4096) throw new ArgumentError(`${where}.longSidePx must be 1..4096, got ${longSidePx}`);
  return {
    requestId: str(o.requestId, `${where}.requestId`),
    fileId: str(o.fileId, `${where}.fileId`),
    longSidePx,
    priority: oneOf(o.priority, THUMB_PRIORITIES, `${where}.priority`),
    ...(o.embeddedPreview === undefined ? {} : { embeddedPreview: bool(o.embeddedPreview, `${where}.embeddedPreview`) }),
  };
}

function exportRequest(v: unknown): ExportRequest {
  const where = 'exportImages: request';
  const o = obj(v, where, ['fileIds', 'kind', 'format', 'outDir', 'overwrite', 'view', 'part', 'longSidePx', 'matte']);
  const view = obj(o.view, `${where}.view`, ['exposureEv', 'offset', 'gamma', 'displayTransform', 'layer', 'channelMode', 'lut', 'ocio']);
  const channelMode = str(view.channelMode, `${where}.view.channelMode`);
  if (!CHANNEL_MODES.includes(channelMode) && !channelMode.startsWith('channel:') && !channelMode.startsWith('expr:')) {
    throw new ArgumentError(
      `${where}.view.channelMode "${channelMode}" is not one of ${CHANNEL_MODES.join(', ')}, channel:NAME or expr:TEXT`,
    );
  }
  return {
    fileIds: strList(o.fileIds, `${where}.fileIds`),
    kind: oneOf(o.kind, EXPORT_KINDS, `${where}.kind`),
    format: oneOf(o.format, EXPORT_FORMATS, `${where}.format`),
    outDir: optional(o.outDir, (x) => str(x, `${where}.outDir`)),
    overwrite: bool(o.overwrite, `${where}.overwrite`),
    view: {
      exposureEv: num(view.exposureEv, `${where}.view.exposureEv`),
      offset: num(view.offset, `${where}.view.offset`),
      gamma: num(view.gamma, `${where}.view.gamma`),
      displayTransform: oneOf(view.displayTransform, DISPLAY_TRANSFORMS, `${where}.view.displayTransform`),
      layer: str(view.layer, `${where}.view.layer`, true),
      channelMode: channelMode as ExportRequest['view']['channelMode'],
      ...(view.lut === undefined ? {} : { lut: viewLut(view.lut, `${where}.view.lut`) }),
      ...(view.ocio === undefined ? {} : { ocio: viewOcio(view.ocio, `${where}.view.ocio`) }),
    },
    part: optional(o.part, (x) => int(x, `${where}.part`)),
    longSidePx: optional(o.longSidePx, (x) => int(x, `${where}.longSidePx`)),
    ...(o.matte === undefined ? {} : { matte: matteRequest(o.matte, `${where}.matte`) }),
  };
}

function matteRequest(v: unknown, where: string): NonNullable<ExportRequest['matte']> {
  const o = obj(v, where, ['layer', 'names']);
  return { layer: str(o.layer, `${where}.layer`), names: strList(o.names, `${where}.names`) };
}

/** A config file's path: the transport decides whether it may be read; here only its form. */
function configPath(v: unknown): string {
  const path = str(v, 'readColourConfig: path');
  if (path.includes('\0')) throw new ArgumentError('readColourConfig: path must not hold a NUL byte');
  return path;
}

/** Each exported file's colour space, by file id. */
function inputSpaceMap(v: unknown, where: string): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ArgumentError(`${where} must be an object`);
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > MAX_LIST_ITEMS) throw new ArgumentError(`${where} has more than ${MAX_LIST_ITEMS} files`);
  // a null prototype: a file id such as "__proto__" stays a key
  const out = Object.create(null) as Record<string, string>;
  for (const [fileId, space] of entries) out[str(fileId, `${where} key`)] = str(space, `${where}["${fileId}"]`);
  return out;
}

function viewLut(v: unknown, where: string): ViewLut {
  const o = obj(v, where, ['name', 'shaper', 'cube']);
  if (typeof o.cube !== 'string' || o.cube.length > MAX_CUBE_CHARS)
    throw new ArgumentError(`${where}.cube must be the text of a .cube file of at most ${MAX_CUBE_CHARS} characters`);
  return { name: str(o.name, `${where}.name`, true), shaper: oneOf(o.shaper, LUT_SHAPERS, `${where}.shaper`), cube: o.cube };
}

/**
 * A built-in config (`ocio://NAME`), a config file's absolute path (the host builds from it only when it read it for the
 * page: no other file is read), or a config the page picked, sent with its LUT files.
 */
function viewOcio(v: unknown, where: string): ViewOcio {
  const o = obj(v, where, ['config', 'files', 'inputSpace', 'inputSpaces', 'display', 'view', 'looks']);
  const config = str(o.config, `${where}.config`);
  if (config.includes('\0')) throw new ArgumentError(`${where}.config must not hold a NUL byte`);
  const files = optional(o.files, (f) => ocioFiles(f, `${where}.files`));
  if (!files && !config.startsWith('ocio://') && !/^(\/|[A-Za-z]:[\\/])/.test(config))
    throw new ArgumentError(`${where}.config must be a built-in config (ocio://NAME) or a config file's absolute path, not "${config}"`);
  return {
    config,
    ...(files ? { files } : {}),
    inputSpace: str(o.inputSpace, `${where}.inputSpace`),
    ...(o.inputSpaces === undefined ? {} : { inputSpaces: inputSpaceMap(o.inputSpaces, `${where}.inputSpaces`) }),
    display: str(o.display, `${where}.display`),
    view: str(o.view, `${where}.view`),
    ...(o.looks === undefined ? {} : { looks: str(o.looks, `${where}.looks`, true) }),
  };
}

/** The most of a page's own config sent with an export: its text and LUTs (a browser-mode request body is 16 MiB at most). */
export const MAX_SENT_CONFIG_CHARS = 12 * 1024 * 1024;
export const MAX_SENT_CONFIG_FILES = 2000;

/** A config picked in the page: its text and LUT files, bounded in count and size. */
function ocioFiles(v: unknown, where: string): ViewOcioFiles {
  const o = obj(v, where, ['configPath', 'files', 'env']);
  const configPath = str(o.configPath, `${where}.configPath`);
  if (!Array.isArray(o.files) || o.files.length > MAX_SENT_CONFIG_FILES)
    throw new ArgumentError(`${where}.files must be an array of at most ${MAX_SENT_CONFIG_FILES} files`);
  let chars = 0;
  const files = o.files.map((item: unknown, i) => {
    const f = obj(item, `${where}.files[${i}]`, ['path', 'text']);
    if (typeof f.text !== 'string') throw new ArgumentError(`${where}.files[${i}].text must be a string`);
    chars += f.text.length;
    if (chars > MAX_SENT_CONFIG_CHARS)
      throw new ArgumentError(`${where}.files hold more than ${MAX_SENT_CONFIG_CHARS} characters: export through a config the host reads`);
    return { path: str(f.path, `${where}.files[${i}].path`), text: f.text };
  });
  if (!files.some((f) => f.path === configPath)) throw new ArgumentError(`${where}.files must hold the config ${configPath}`);
  const env = optional(o.env, (e) => stringMap(e, `${where}.env`));
  return { configPath, files, ...(env ? { env } : {}) };
}

/** Context variables by name: a few dozen at most. */
function stringMap(v: unknown, where: string): Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ArgumentError(`${where} must be an object`);
  const entries = Object.entries(v as Record<string, unknown>);
  if (entries.length > 1000) throw new ArgumentError(`${where} has more than 1000 variables`);
  const out = Object.create(null) as Record<string, string>;
  for (const [name, value] of entries) out[str(name, `${where} key`)] = str(value, `${where}["${name}"]`, true);
  return out;
}

function arity(method: string, args: unknown[], min: number, max: number): void {
  if (args.length < min || args.length > max) {
    const expected = min === max ? `${min}` : `${min} to ${max}`;
    throw new ArgumentError(`${method} takes ${expected} argument${max === 1 ? '' : 's'}, got ${args.length}`);
  }
}

/** JSON has no `undefined`: a null or missing optional argument means "omitted". */
function optional<T>(v: unknown, check: (v: unknown) => T): T | undefined {
  return v === undefined || v === null ? undefined : check(v);
}

function str(v: unknown, what: string, allowEmpty = false): string {
  if (typeof v !== 'string') throw new ArgumentError(`${what} must be a string`);
  if (v.length > MAX_STRING_CHARS) throw new ArgumentError(`${what} is longer than ${MAX_STRING_CHARS} characters`);
  if (!allowEmpty && v.length === 0) throw new ArgumentError(`${what} must not be empty`);
  return v;
}

function strList(v: unknown, what: string): string[] {
  if (!Array.isArray(v)) throw new ArgumentError(`${what} must be an array of strings`);
  if (v.length > MAX_LIST_ITEMS) throw new ArgumentError(`${what} has more than ${MAX_LIST_ITEMS} items`);
  return v.map((item, i) => str(item, `${what}[${i}]`));
}

function int(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new ArgumentError(`${what} must be a non-negative integer`);
  return v;
}

function num(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new ArgumentError(`${what} must be a finite number`);
  return v;
}

function bool(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') throw new ArgumentError(`${what} must be true or false`);
  return v;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) {
    throw new ArgumentError(`${what} must be one of ${allowed.join(', ')}`);
  }
  return v as T;
}

/** A plain object with only the listed keys (unknown keys are refused so typos do not pass silently). */
function obj(v: unknown, what: string, keys: readonly string[]): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ArgumentError(`${what} must be an object`);
  const o = v as Record<string, unknown>;
  for (const key of Object.keys(o)) {
    if (!keys.includes(key)) throw new ArgumentError(`${what} has an unknown field "${key}"`);
  }
  return o;
}
