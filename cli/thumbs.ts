// `exrview thumbs DIR --out DIR`: one tone-mapped thumbnail per EXR through the host (disk cache included), a progress bar, a timing summary.
// --gpu auto|on|off: images whose size the adapter's calibration says the GPU makes faster go to a GPU process (Dawn);
// the rest, and every image when the GPU is off or missing, take the CPU path. The summary says which and why.

import { encodeRgba8, loadEncoder } from '../host/export/encode.js';
import { writeFileAtomically } from '../host/io/atomic-file.js';
import { fsReason } from '../host/io/fs-reason.js';
import { nativeStatus } from '../codec/index.js';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_DISPLAY, DISPLAY_TRANSFORMS, type DisplayParams, type DisplayTransform } from '../shaders/display-params.js';
import { ocioDisplayOf } from '../host/export/ocio-view.js';
import type { ViewOcio } from '../contract/host-api.js';
import type { FileEntry, PartSummary, StageTimingsMs, ThumbnailMissing } from '../contract/host-api.js';
import {
  calibrationPath,
  chooseThumbnailPath,
  loadCalibration,
  saveCalibration,
  type Calibration,
  type ThumbnailPathChoice,
} from '../host/thumbnails/gpu/calibration.js';
import { isSoftwareAdapter } from '../host/thumbnails/gpu/dawn.js';
import { calibrateGpuThumbnails, GpuChildError, GpuThumbsChild } from '../host/thumbnails/gpu/client.js';
import { createHost, type Host } from '../host/host.js';
import { channelsOf, chooseThumbnailChannels } from '../host/thumbnails/channels.js';
import { cubeToLatLongHalf, isCubeEnvmap } from '../host/thumbnails/envmap-latlong.js';
import type { ThumbnailDetail, ThumbnailOutputOptions } from '../host/thumbnails/params.js';
import { describeFailure } from './failures.js';
import { optionsOf } from './commands.js';
import { parseArgs, UsageError } from './usage.js';
import { damageNote, emptyTotals, failureSummary, ms, timingSummary, type Totals } from './thumbs-summary.js';

interface ThumbsOptions {
  dir: string;
  outDir: string;
  sizePx: number;
  format: 'png' | 'jpg';
  exposureEv: number;
  transform: DisplayTransform;
  gpu: 'auto' | 'on' | 'off';
  /** An OpenColorIO view instead of --tonemap (thumbnails through it are made on the CPU). */
  ocio?: ViewOcio;
}

function parseOptions(argv: string[]): ThumbsOptions {
  const args = parseArgs(argv, ...optionsOf('thumbs'));
  if (args.positional.length !== 1)
    throw new UsageError(`thumbs takes one DIR, got ${args.positional.length === 0 ? 'none' : args.positional.length}`);
  const out = args.flags.get('out');
  if (typeof out !== 'string') throw new UsageError('thumbs needs --out DIR: the folder the thumbnails are written to');
  const sizePx = Number(args.flags.get('size') ?? 256);
  if (!Number.isInteger(sizePx) || sizePx < 1 || sizePx > 8192)
    throw new UsageError(`--size must be a whole number of pixels from 1 to 8192, not "${args.flags.get('size')}"`);
  const format = String(args.flags.get('format') ?? 'png')
    .toLowerCase()
    .replace('jpeg', 'jpg');
  if (format !== 'png' && format !== 'jpg') throw new UsageError(`--format must be png or jpg, not "${args.flags.get('format')}"`);
  const exposureEv = Number(args.flags.get('exposure') ?? 0);
  if (!Number.isFinite(exposureEv)) throw new UsageError(`--exposure must be a number of stops, not "${args.flags.get('exposure')}"`);
  const transform = String(args.flags.get('tonemap') ?? 'srgb').toLowerCase() as DisplayTransform;
  if (!DISPLAY_TRANSFORMS.includes(transform))
    throw new UsageError(`--tonemap must be one of ${DISPLAY_TRANSFORMS.join(', ')}, not "${transform}"`);
  const gpu = String(args.flags.get('gpu') ?? 'auto');
  if (gpu !== 'auto' && gpu !== 'on' && gpu !== 'off') throw new UsageError(`--gpu must be auto, on or off, not "${gpu}"`);
  const ocio = ocioOptions(args.flags);
  if (ocio && gpu === 'on') throw new UsageError('--ocio thumbnails are made on the CPU: leave out --gpu on');
  const options = { dir: resolve(args.positional[0]!), outDir: resolve(out), sizePx, format, exposureEv, transform, gpu } as const;
  return ocio ? { ...options, gpu: 'off', ocio } : options;
}

/** --ocio CONFIG --display D --view V [--look L] [--colorspace CS]: the colour space defaults to the config's scene_linear role. */
function ocioOptions(flags: Map<string, string | true>): ViewOcio | undefined {
  const config = flags.get('ocio');
  const named = ['display', 'view', 'look', 'colorspace'].filter((f) => flags.has(f));
  if (config === undefined) {
    if (named.length) throw new UsageError(`--${named[0]} needs --ocio CONFIG: the OpenColorIO config it names a ${named[0]} of`);
    return undefined;
  }
  const text = (flag: string): string | undefined => {
    const v = flags.get(flag);
    if (v !== undefined && typeof v !== 'string') throw new UsageError(`--${flag} needs a value`);
    return v;
  };
  const display = text('display'),
    view = text('view');
  if (typeof config !== 'string' || !display || !view)
    throw new UsageError('--ocio CONFIG needs --display D and --view V (exrview ocio list CONFIG names them)');
  const look = text('look');
  const resolved = config.startsWith('ocio://') ? config : resolve(config);
  return {
    config: resolved,
    inputSpace: text('colorspace') ?? 'scene_linear',
    display,
    view,
    ...(look === undefined ? {} : { looks: look }),
  };
}

/** The thumbnail cache the command shares between runs: $EXRVIEW_CACHE_DIR, else $XDG_CACHE_HOME/exrview, else ~/.cache/exrview. */
export function commandCacheDir(): string {
  if (process.env.EXRVIEW_CACHE_DIR) return resolve(process.env.EXRVIEW_CACHE_DIR);
  return join(process.env.XDG_CACHE_HOME ? resolve(process.env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'exrview');
}

/** The built GPU process beside the command's bundle (dist/cli.mjs → dist/gpu-thumbs-child.mjs). */
export function gpuChildEntry(): string {
  return process.env.EXRVIEW_GPU_CHILD ?? fileURLToPath(new URL('./gpu-thumbs-child.mjs', import.meta.url));
}

type DisplayView = typeof DEFAULT_DISPLAY;

interface GpuPlan {
  child: GpuThumbsChild | null;
  calibration: Calibration | null;
  /** Why there is no GPU, when there is none. */
  unavailable: string;
  /** How the calibration was had: stored, or measured now. */
  calibrationNote: string;
}

/** Starts the GPU process and gets the adapter's calibration (measured now and stored when missing). */
async function planGpu(options: ThumbsOptions, params: DisplayView): Promise<GpuPlan> {
  // inside the installed app a child process would start the app again (its runAsNode fuse is off), not Node with Dawn
  if (process.versions.electron)
    return {
      child: null,
      calibration: null,
      unavailable: 'the installed app has no GPU process for thumbnails (run `npx exrview thumbs` from a checkout for it)',
      calibrationNote: '',
    };
  let child: GpuThumbsChild;
  try {
    child = await GpuThumbsChild.start(gpuChildEntry());
  } catch (error) {
    return { child: null, calibration: null, unavailable: error instanceof Error ? error.message : String(error), calibrationNote: '' };
  }
  if (options.gpu === 'on') return { child, calibration: null, unavailable: '', calibrationNote: '' };
  const dir = commandCacheDir();
  const stored = loadCalibration(dir, child.adapter.key, 1);
  if (stored && stored.longSidePx === options.sizePx)
    return { child, calibration: stored, unavailable: '', calibrationNote: `calibration of ${stored.measuredAt.slice(0, 10)}` };
  // a software rasteriser shares the cores the CPU path uses and measured slower at every size: not worth seconds of calibration
  if (isSoftwareAdapter(child.adapter)) {
    await child.close();
    return {
      child: null,
      calibration: null,
      unavailable: `the only adapter is a software rasteriser (${child.adapter.key}), slower than the CPU path at every size`,
      calibrationNote: '',
    };
  }
  const t0 = performance.now();
  try {
    const calibration = await calibrateGpuThumbnails(child, { longSidePx: options.sizePx, display: params });
    saveCalibration(dir, calibration);
    return {
      child,
      calibration,
      unavailable: '',
      calibrationNote: `calibrated now in ${ms(performance.now() - t0)}, stored in ${calibrationPath(dir)}`,
    };
  } catch (error) {
    await child.close();
    return {
      child: null,
      calibration: null,
      unavailable: `calibration failed: ${error instanceof Error ? error.message : String(error)}`,
      calibrationNote: '',
    };
  }
}

/** The part and channels the CPU path's thumbnail job takes (first flat part; chooseThumbnailChannels), as GPU slots. */
function gpuSource(entry: FileEntry): { part: number; pixels: number; channels: string[]; slots: (string | null)[] } | null {
  const part = entry.summary?.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
  if (!part) return null;
  const choice = chooseThumbnailChannels(part.channels.map((c) => c.name));
  const slots =
    choice.kind === 'rgb'
      ? [choice.r, choice.g, choice.b, choice.a]
      : choice.kind === 'grey'
        ? [choice.channel, choice.channel, choice.channel, choice.a]
        : [choice.y, choice.y, choice.y, choice.a];
  const [x0, y0, x1, y1] = part.dataWindow;
  return { part: part.index, pixels: (x1 - x0 + 1) * (y1 - y0 + 1), channels: channelsOf(choice), slots };
}

/** At most `n` at once: full-size planes waiting for the one GPU process would otherwise pile up in memory. */
function limiter(n: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (fn) => {
    if (active >= n) await new Promise<void>((r) => waiting.push(r));
    active++;
    try {
      return await fn();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

/** The first flat part when it is stacked 1:6 like a cube env map (only such files pay for a header read), else null. */
function cubeShapedPart(entry: FileEntry): PartSummary | null {
  const part = entry.summary?.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
  if (!part) return null;
  const w = part.dataWindow[2] - part.dataWindow[0] + 1,
    h = part.dataWindow[3] - part.dataWindow[1] + 1;
  return h === 6 * w ? part : null;
}

async function gpuThumbnail(
  host: Host,
  child: GpuThumbsChild,
  entry: FileEntry,
  src: NonNullable<ReturnType<typeof gpuSource>>,
  options: ThumbsOptions,
  params: DisplayView,
  totals: Totals,
  path: string,
): Promise<void> {
  const image = await host.decodeImage({
    requestId: `thumbs-gpu-${entry.id}`,
    fileId: entry.id,
    part: src.part,
    channels: src.channels,
    priority: 'thumbnail-visible',
  });
  const made = await child.thumbnail({
    widthPx: image.widthPx,
    heightPx: image.heightPx,
    originX: image.dataWindow[0],
    originY: image.dataWindow[1],
    planes: image.planes,
    slots: src.slots,
    longSidePx: options.sizePx,
    display: params,
  });
  addStages(totals, image.timings, image.source === 'ram-cache' ? 'GPU (RAM cache)' : 'GPU');
  totals.gpuMs += made.wallMs;
  await asOutput(() => encodeAndWrite(made.rgba, made.widthPx, made.heightPx, path, options.format, totals));
}

export async function runThumbs(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  const tStart = performance.now();
  await mkdir(options.outDir, { recursive: true }).catch((error: Error) => {
    throw new Error(`cannot create the output folder ${options.outDir}: ${fsReason(error)}`);
  });
  const host = createHost({ userDataDir: commandCacheDir(), prefetch: false });
  // the workers load (and compile the codec) and the image encoder loads while the folder is scanned: the first
  // thumbnail then waits for neither (a missing encoder is reported by the first encode, with what to do)
  // (one command, one folder: warming the main thread's job code would cost this run what it saves the next)
  // (sharp only where it will encode: JPEG, the GPU path's images, or PNG without the native kernels)
  const sharpWanted = options.format === 'jpg' || options.gpu !== 'off' || !nativeStatus.on;
  const workersReady = Promise.all([host.startWorkers({ warmJobs: false }), sharpWanted ? loadEncoder().catch(() => {}) : null]);
  workersReady.catch(() => {});
  let gpu: GpuPlan | null = null;
  try {
    const folder = await host.openFolder(options.dir);
    if (!folder) throw new Error(`cannot open ${options.dir}`);
    const entries = await host.listFiles(folder.id);
    if (entries.length === 0) {
      process.stderr.write(`exrview: ${options.dir}: no .exr files in this folder\n`);
      return 1;
    }
    let unreadFiles = 0;
    let unwrittenThumbnails = 0;
    const fail = (file: string, error: unknown) => {
      if (error instanceof OutputError) unwrittenThumbnails++;
      else unreadFiles++;
      const reason = describeFailure(error);
      process.stderr.write(`${progress.active ? '\n' : ''}exrview: ${file}: ${reason}\n`);
    };
    let damagedFiles = 0;
    const damaged = (file: string, missing: ThumbnailMissing) => {
      damagedFiles++;
      process.stderr.write(`${progress.active ? '\n' : ''}exrview: ${file}: ${damageNote(missing)}\n`);
    };
    const progress = new ProgressBar(entries.length, Boolean(process.stdout.isTTY));
    const totals = emptyTotals();
    const params: DisplayParams = { ...DEFAULT_DISPLAY, exposureEv: options.exposureEv, transform: options.transform, nanInf: false };
    if (options.ocio) params.ocio = await ocioDisplayOf(options.ocio);
    // the view's tone-map table, made while the workers are still starting
    host.prepareToneMap(params);
    if (options.gpu !== 'off') {
      gpu = await planGpu(options, params);
      if (options.gpu === 'on' && !gpu.child) {
        progress.finish();
        process.stderr.write(
          `exrview: --gpu on: no GPU thumbnail path here: ${gpu.unavailable}; run with --gpu auto or --gpu off to use the CPU\n`,
        );
        return 1;
      }
    }
    const child = gpu?.child ?? null;
    const gpuSlots = limiter(2);
    let gpuMade = 0;
    let gpuFellBack = 0;
    // as in `exrview bench`, the clock starts once the workers are loaded: what is timed is making thumbnails (the
    // summary's second figure counts from the start)
    await workersReady;
    const tThumbs = performance.now();
    // largest files first: the last job to start is a small one, so no worker idles long at the end
    const bySize = entries.slice().sort((a, b) => b.sizeBytes - a.sizeBytes);
    await Promise.all(
      bySize.map(async (entry) => {
        const file = join(options.dir, entry.relativePath);
        const outPath = join(options.outDir, entry.name.replace(/\.exr$/i, `.${options.format}`));
        try {
          // a damaged file whose header reads gets a thumbnail of its readable chunks (reported as written with damage)
          if (entry.status !== 'ok' && !(entry.status === 'error' && entry.summary))
            throw new Error(
              entry.status === 'incomplete' ? 'the file is incomplete (still being written?)' : (entry.error ?? 'cannot be read'),
            );
          // a cube env map by its shape and envmap attribute (no await for other files: each one's job then starts
          // before the next file is looked at)
          const cubePart = cubeShapedPart(entry);
          if (cubePart && isCubeEnvmap(await host.getHeader(entry.id), cubePart)) {
            // an env map's thumbnail is lat-long: the stacked faces at 1.5x the size (a face is then a quarter of it) resampled on the CPU
            const detail = await host.getThumbnailDetailed({
              requestId: entry.id,
              fileId: entry.id,
              longSidePx: Math.ceil(options.sizePx * 1.5),
              priority: 'thumbnail-visible',
            });
            addTimings(totals, detail);
            const t = detail.thumbnail;
            const ll = cubeToLatLongHalf(new Uint16Array(t.rgbaHalf), t.widthPx, t.heightPx);
            const latLongThumbnail = { ...t, widthPx: ll.widthPx, heightPx: ll.heightPx, rgbaHalf: ll.rgbaHalf.buffer as ArrayBuffer };
            const latLong = { ...detail, thumbnail: latLongThumbnail };
            await asOutput(() => writeThumbnail(host, latLong, outPath, options.format, params, totals));
            return;
          }
          // the GPU path decodes whole files strictly: a damaged one goes to the workers, which hatch what is missing
          const src = child && entry.status === 'ok' ? gpuSource(entry) : null;
          const choice: ThumbnailPathChoice = !src
            ? { path: 'cpu', reason: '' }
            : options.gpu === 'on'
              ? { path: 'gpu', reason: '--gpu on' }
              : chooseThumbnailPath(src.pixels, gpu!.calibration, true);
          if (src && choice.path === 'gpu' && !child!.dead) {
            try {
              await gpuSlots(() => gpuThumbnail(host, child!, entry, src, options, params, totals, outPath));
              gpuMade++;
              return;
            } catch (error) {
              // the GPU process died: auto goes on on the CPU (the summary says so); --gpu on reports the file
              if (!(error instanceof GpuChildError) || options.gpu === 'on') throw error;
              gpuFellBack++;
            }
          }
          // a PNG is encoded and written by the worker that finished the thumbnail: this thread feeds the workers
          const detail = await host.getThumbnailDetailed(
            { requestId: entry.id, fileId: entry.id, longSidePx: options.sizePx, priority: 'thumbnail-visible' },
            params,
            pngOutput(options.format, outPath),
          );
          addTimings(totals, detail);
          await asOutput(() => writeThumbnail(host, detail, outPath, options.format, params, totals));
          if (detail.thumbnail.missing) damaged(file, detail.thumbnail.missing);
        } catch (error) {
          fail(file, error);
        } finally {
          progress.tick();
        }
      }),
    );
    const thumbsMs = performance.now() - tThumbs;
    progress.finish();
    const pathNote = describePath(options, gpu, gpuMade, entries.length, gpuFellBack);
    const made = entries.length - unreadFiles - unwrittenThumbnails;
    process.stdout.write(timingSummary(made, thumbsMs, performance.now() - tStart, totals, pathNote, (await host.getInfo()).decodeWorkers));
    const failed = failureSummary(made, unreadFiles, unwrittenThumbnails, damagedFiles);
    // on stderr with the files it counts, so that it follows them on a terminal and stays with them when stdout is redirected
    if (failed) process.stderr.write(`exrview: ${failed}\n`);
    // a thumbnail of a damaged file is written: only files without one fail the command
    return unreadFiles + unwrittenThumbnails > 0 ? 1 : 0;
  } finally {
    await gpu?.child?.close();
    await host.close();
  }
}

/** "GPU for 3 of 20 (adapter: why)", or why the CPU made them all. */
function describePath(options: ThumbsOptions, gpu: GpuPlan | null, gpuMade: number, total: number, fellBack: number): string {
  if (options.gpu === 'off' || !gpu) return 'CPU (--gpu off)';
  if (!gpu.child) return `CPU (auto: no GPU: ${gpu.unavailable})`;
  const adapter = gpu.child.adapter.key;
  const died = fellBack > 0 ? `; ${gpu.child.dead ?? 'the GPU process failed'}: ${fellBack} made on the CPU instead` : '';
  if (options.gpu === 'on') return `GPU for ${gpuMade} of ${total} (--gpu on, ${adapter})${died}`;
  const c = gpu.calibration!;
  const why =
    c.crossoverPixels === null
      ? 'CPU faster at every size'
      : c.crossoverPixels === 0
        ? 'GPU faster at every size'
        : `GPU faster above ${(c.crossoverPixels / 1e6).toFixed(2)} MP`;
  const model = (m: Calibration['gpu']) => `${m.fixedMs.toFixed(1)} ms + ${m.msPerMegapixel.toFixed(1)} ms/MP`;
  return `GPU for ${gpuMade} of ${total} (${adapter}: ${why}; per image GPU ${model(c.gpu)}, CPU ${model(c.cpu)} on one thread; ${gpu.calibrationNote})${died}`;
}

function addTimings(totals: Totals, detail: ThumbnailDetail): void {
  addStages(totals, detail.thumbnail.timings, detail.thumbnail.source === 'disk-cache' ? 'disk cache' : detail.thumbnail.source);
  totals.resizeMs += detail.resizeMs;
}

/** One image's host stages into the totals, and one more made from `source`. */
function addStages(totals: Totals, t: StageTimingsMs, source: string): void {
  totals.readMs += t.readMs;
  totals.decompressMs += t.decompressMs;
  totals.unpackMs += t.unpackMs;
  totals.queueMs += t.queueMs;
  totals.bytesRead += t.bytesRead;
  totals.sources.set(source, (totals.sources.get(source) ?? 0) + 1);
}

/** A thumbnail made but not encoded or written: counted apart from the files that could not be read. */
class OutputError extends Error {}

async function asOutput(fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } catch (error) {
    throw error instanceof OutputError ? error : new OutputError(describeFailure(error));
  }
}

/** A PNG thumbnail is encoded and written by a worker (where the native kernels loaded; sharp here otherwise). */
function pngOutput(format: 'png' | 'jpg', path: string): ThumbnailOutputOptions {
  return format === 'png' ? { png: true, pngPath: path } : {};
}

async function writeThumbnail(
  host: Host,
  detail: ThumbnailDetail,
  path: string,
  format: 'png' | 'jpg',
  params: typeof DEFAULT_DISPLAY,
  totals: Totals,
): Promise<void> {
  const { widthPx, heightPx, rgbaHalf } = detail.thumbnail;
  // made now: tone-mapped (and its PNG encoded and written) by the worker that finished it; from the cache (or
  // resampled here): by a worker now, so that this thread keeps the workers fed meanwhile
  const mapped = detail.rgba8
    ? {
        rgba8: detail.rgba8,
        toneMapMs: detail.toneMapMs ?? 0,
        encodeMs: detail.encodeMs ?? 0,
        writeMs: detail.writeMs ?? 0,
        ...(detail.pngWritten ? { pngWritten: detail.pngWritten } : {}),
      }
    : await host.toneMapThumbnail({ rgbaHalf, widthPx, heightPx }, params, 'thumbnail-visible', pngOutput(format, path));
  totals.toneMapMs += mapped.toneMapMs;
  if (mapped.pngWritten) {
    if (mapped.pngWritten.error) throw new Error(`cannot write ${path}: ${mapped.pngWritten.error.reason}`);
    totals.workerEncodeMs += mapped.encodeMs;
    totals.workerWriteMs += mapped.writeMs;
  } else {
    await encodeAndWrite(mapped.rgba8, widthPx, heightPx, path, format, totals);
  }
}

/** 8-bit RGBA (alpha dropped) to PNG or JPEG with sharp, here, written atomically. */
async function encodeAndWrite(
  rgba8: Uint8Array | Uint8ClampedArray,
  widthPx: number,
  heightPx: number,
  path: string,
  format: 'png' | 'jpg',
  totals: Totals,
): Promise<void> {
  const tEncode = performance.now();
  const encoded = await encodeRgba8(rgba8, widthPx, heightPx, format, 90);
  totals.encodeMs += performance.now() - tEncode;
  await writeAtomically(path, encoded, totals);
}

async function writeAtomically(path: string, encoded: Uint8Array, totals: Totals): Promise<void> {
  const t = performance.now();
  await writeFileAtomically(path, encoded, true).catch((error: unknown) => {
    throw new Error(`cannot write ${path}: ${fsReason(error)}`);
  });
  totals.writeMs += performance.now() - t;
}

/** A one-line bar on a terminal; nothing when stdout is a file or pipe. */
class ProgressBar {
  private done = 0;
  active = false;

  constructor(
    private readonly total: number,
    private readonly enabled: boolean,
  ) {
    this.draw();
  }

  tick(): void {
    this.done++;
    this.draw();
  }

  private draw(): void {
    if (!this.enabled) return;
    const width = 30;
    const filled = Math.round((width * this.done) / Math.max(1, this.total));
    process.stdout.write(`\r[${'#'.repeat(filled)}${' '.repeat(width - filled)}] ${this.done}/${this.total}`);
    this.active = true;
  }

  finish(): void {
    if (this.enabled && this.active) process.stdout.write('\n');
    this.active = false;
  }
}
