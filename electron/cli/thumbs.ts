// `exrview thumbs DIR --out DIR`: one tone-mapped thumbnail per EXR through the host (disk cache included), a progress bar, a timing summary.

import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { DEFAULT_DISPLAY, DISPLAY_TRANSFORMS, type DisplayTransform } from '../../shaders/display-params.js';
import { createHost } from '../host/host.js';
import { toneMapHalfRgba } from '../host/tone-map.js';
import type { ThumbnailDetail } from '../host/thumbnails.js';
import { describeFailure } from './main.js';
import { parseArgs, UsageError } from './usage.js';

interface ThumbsOptions {
  dir: string;
  outDir: string;
  sizePx: number;
  format: 'png' | 'jpg';
  exposureEv: number;
  transform: DisplayTransform;
  gpu: 'auto' | 'on' | 'off';
}

function parseOptions(argv: string[]): ThumbsOptions {
  const args = parseArgs(argv, ['out', 'size', 'format', 'exposure', 'tonemap', 'gpu'], []);
  if (args.positional.length !== 1) throw new UsageError('expected: exrview thumbs DIR --out DIR [--size 256] [--format png|jpg] [--exposure EV] [--tonemap NAME] [--gpu auto|on|off]');
  const out = args.flags.get('out');
  if (typeof out !== 'string') throw new UsageError('thumbs needs --out DIR: the folder the thumbnails are written to');
  const sizePx = Number(args.flags.get('size') ?? 256);
  if (!Number.isInteger(sizePx) || sizePx < 1 || sizePx > 8192) throw new UsageError(`--size must be a whole number of pixels from 1 to 8192, not "${args.flags.get('size')}"`);
  const format = String(args.flags.get('format') ?? 'png').toLowerCase().replace('jpeg', 'jpg');
  if (format !== 'png' && format !== 'jpg') throw new UsageError(`--format must be png or jpg, not "${args.flags.get('format')}"`);
  const exposureEv = Number(args.flags.get('exposure') ?? 0);
  if (!Number.isFinite(exposureEv)) throw new UsageError(`--exposure must be a number of stops, not "${args.flags.get('exposure')}"`);
  const transform = String(args.flags.get('tonemap') ?? 'srgb').toLowerCase() as DisplayTransform;
  if (!DISPLAY_TRANSFORMS.includes(transform)) throw new UsageError(`--tonemap must be one of ${DISPLAY_TRANSFORMS.join(', ')}, not "${transform}"`);
  const gpu = String(args.flags.get('gpu') ?? 'auto');
  if (gpu !== 'auto' && gpu !== 'on' && gpu !== 'off') throw new UsageError(`--gpu must be auto, on or off, not "${gpu}"`);
  return { dir: resolve(args.positional[0]!), outDir: resolve(out), sizePx, format, exposureEv, transform, gpu };
}

/** The thumbnail cache the command shares between runs: $EXRVIEW_CACHE_DIR, else $XDG_CACHE_HOME/exrview, else ~/.cache/exrview. */
export function commandCacheDir(): string {
  if (process.env.EXRVIEW_CACHE_DIR) return resolve(process.env.EXRVIEW_CACHE_DIR);
  return join(process.env.XDG_CACHE_HOME ? resolve(process.env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'exrview');
}

interface Totals {
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  resizeMs: number;
  queueMs: number;
  toneMapMs: number;
  encodeMs: number;
  writeMs: number;
  bytesRead: number;
  sources: Map<string, number>;
}

export async function runThumbs(argv: string[]): Promise<number> {
  const options = parseOptions(argv);
  // the GPU path (gpu-calibration) is not part of this build yet: the CPU path runs and the summary says so
  if (options.gpu === 'on') {
    process.stderr.write('exrview: --gpu on: this build has no GPU thumbnail path yet; run with --gpu auto or --gpu off to use the CPU\n');
    return 1;
  }
  const pathNote = options.gpu === 'off' ? 'CPU (--gpu off)' : 'CPU (auto: no GPU thumbnail path in this build)';
  const tStart = performance.now();
  await mkdir(options.outDir, { recursive: true }).catch((error: Error) => {
    throw new Error(`cannot create the output folder ${options.outDir}: ${error.message.replace(/^[A-Z]+: /, '')}`);
  });
  const host = createHost({ userDataDir: commandCacheDir(), prefetch: false });
  try {
    const folder = await host.openFolder(options.dir);
    if (!folder) throw new Error(`cannot open ${options.dir}`);
    const entries = await host.listFiles(folder.id);
    if (entries.length === 0) {
      process.stderr.write(`exrview: ${options.dir}: no .exr files in this folder\n`);
      return 1;
    }
    let failures = 0;
    const fail = (file: string, reason: string) => {
      failures++;
      process.stderr.write(`${progress.active ? '\n' : ''}exrview: ${file}: ${reason}\n`);
    };
    const progress = new ProgressBar(entries.length, Boolean(process.stdout.isTTY));
    const totals: Totals = { readMs: 0, decompressMs: 0, unpackMs: 0, resizeMs: 0, queueMs: 0, toneMapMs: 0, encodeMs: 0, writeMs: 0, bytesRead: 0, sources: new Map() };
    const params = { ...DEFAULT_DISPLAY, exposureEv: options.exposureEv, transform: options.transform, nanInf: false };
    const tThumbs = performance.now();
    await Promise.all(
      entries.map(async (entry) => {
        const file = join(options.dir, entry.relativePath);
        try {
          if (entry.status !== 'ok') throw new Error(entry.status === 'incomplete' ? 'the file is incomplete (still being written?)' : (entry.error ?? 'cannot be read'));
          const detail = await host.getThumbnailDetailed({ requestId: entry.id, fileId: entry.id, longSidePx: options.sizePx, priority: 'thumbnail-visible' });
          addTimings(totals, detail);
          await writeThumbnail(detail, join(options.outDir, entry.name.replace(/\.exr$/i, `.${options.format}`)), options.format, params, totals);
        } catch (error) {
          fail(file, describeFailure(error));
        } finally {
          progress.tick();
        }
      }),
    );
    const thumbsMs = performance.now() - tThumbs;
    progress.finish();
    printSummary(entries.length - failures, thumbsMs, performance.now() - tStart, totals, pathNote, (await host.getInfo()).decodeWorkers);
    return failures > 0 ? 1 : 0;
  } finally {
    await host.close();
  }
}

function addTimings(totals: Totals, detail: ThumbnailDetail): void {
  const t = detail.thumbnail.timings;
  totals.readMs += t.readMs;
  totals.decompressMs += t.decompressMs;
  totals.unpackMs += t.unpackMs;
  totals.queueMs += t.queueMs;
  totals.bytesRead += t.bytesRead;
  totals.resizeMs += detail.resizeMs;
  const source = detail.thumbnail.source === 'disk-cache' ? 'disk cache' : detail.thumbnail.source;
  totals.sources.set(source, (totals.sources.get(source) ?? 0) + 1);
}

async function writeThumbnail(detail: ThumbnailDetail, path: string, format: 'png' | 'jpg', params: typeof DEFAULT_DISPLAY, totals: Totals): Promise<void> {
  const { widthPx, heightPx, rgbaHalf } = detail.thumbnail;
  let t = performance.now();
  const rgba8 = toneMapHalfRgba(new Uint16Array(rgbaHalf), widthPx, heightPx, params);
  let now = performance.now();
  totals.toneMapMs += now - t;
  t = now;
  const image = sharp(Buffer.from(rgba8.buffer, rgba8.byteOffset, rgba8.byteLength), { raw: { width: widthPx, height: heightPx, channels: 4 } }).removeAlpha();
  const encoded = format === 'png' ? await image.png().toBuffer() : await image.jpeg({ quality: 90 }).toBuffer();
  now = performance.now();
  totals.encodeMs += now - t;
  t = now;
  const temp = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temp, encoded);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw new Error(`cannot write ${path}: ${(error as Error).message.replace(/^[A-Z]+: /, '')}`);
  }
  totals.writeMs += performance.now() - t;
}

const ms = (v: number) => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;

function printSummary(made: number, thumbsMs: number, totalMs: number, t: Totals, pathNote: string, workers: number): void {
  const sources = [...t.sources.entries()].map(([k, n]) => `${n} ${k}`).join(', ') || 'none';
  process.stdout.write(
    `${made} thumbnails in ${ms(thumbsMs)} (${ms(totalMs)} with start-up and folder scan); path: ${pathNote}, ${workers} workers\n` +
      `  from: ${sources}\n` +
      `  stages (summed over workers): read ${ms(t.readMs)} (${(t.bytesRead / 1e6).toFixed(1)} MB), decompress ${ms(t.decompressMs)}, unpack ${ms(t.unpackMs)}, resize ${ms(t.resizeMs)}, queue ${ms(t.queueMs)}\n` +
      `  output (main thread): tone-map ${ms(t.toneMapMs)}, encode ${ms(t.encodeMs)}, write ${ms(t.writeMs)}\n`,
  );
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
