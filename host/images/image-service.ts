// The host's decoded images by file id: checked against the library, served from the frame ring, the RAM cache or a decode.

import type {
  BoxTuple,
  DecodedImage,
  DecodeRequest,
  FileEntry,
  FileHeader,
  FitWithin,
  PartSummary,
  PlaybackPlan,
} from '../../contract/host-api.js';
import { attributeValueText } from '../../codec/index.js';
import type { JobBroker } from '../decode/broker.js';
import type { DecodedLevels, LevelPlanes, LevelRef } from '../decode/levels.js';
import type { PlaneMemory } from '../decode/plane-memory.js';
import { PlaneReserve } from '../decode/plane-reserve.js';
import { readHeader } from '../headers/summary.js';
import { cryptomatteHeader } from '../export/matte.js';
import type { Library } from '../library/library.js';
import { frameBytes } from '../playback/frame-bytes.js';
import { levelPriority } from '../playback/deep-frames.js';
import { FrameRing, type FrameRingStats } from '../playback/frame-ring.js';
import { firstPreview, largestPreviewPlanes } from './preview-planes.js';
import { decodeReduced, type ReducedSources } from './reduced-decode.js';
import { ReducedHold } from './reduced-hold.js';
import { decodeRegion, type CropDecode } from './region-decode.js';
import { reductionFor } from './reduced-level.js';

export interface ImageServiceOptions {
  /** Byte budget of the frames a playing sequence decodes ahead. */
  playbackBudgetBytes: number;
  /** Decode the images next to the current one ahead of time. */
  prefetch: boolean;
  /**
   * Plane memory to make ready for the next preview while the pool has nothing to do (`poolIdle`), so that a click's
   * decode does not spend its time faulting fresh memory in (plane-reserve.ts); none without it.
   */
  planes?: { memory: PlaneMemory; poolIdle(): boolean };
}

export class ImageService {
  /** Decodes started ahead of a preview. */
  prefetches = 0;
  private readonly ring: FrameRing;
  private readonly reserve: PlaneReserve | null;
  /** Planes handed out on a lease and not yet released (a transport is sending them). */
  private leasesOpen = 0;
  private playing = false;
  /** The plane sizes the reserve was last asked for: a folder's largest preview. */
  private expected: number[] = [];
  /** The finer level a small first one was made with, until the page asks for it. */
  private readonly reducedHold = new ReducedHold();

  constructor(
    private readonly library: Library,
    private readonly levels: DecodedLevels,
    private readonly broker: JobBroker,
    private readonly options: ImageServiceOptions,
  ) {
    this.ring = new FrameRing(
      {
        decode: async (fileId, part, channels, requestId, keep, fitWithin) => {
          // planes in header order, as every decodeImage hands them out (an unknown file or channel rejects)
          const level = this.levelOf(fileId, part, 0, 0, [...channels]);
          // over the page's limits: the reduced level the page's request will ask for, made once, never level 0 as well
          const reduced = fitWithin ? await this.reducedFrame(fileId, part, level.channels, requestId, fitWithin) : null;
          return reduced ?? this.levels.get(level.ref, level.channels, 'playback', requestId, true, keep);
        },
        cancel: (requestId) => this.broker.cancel(requestId),
        frameBytes: (fileId, part, channels, factor) => {
          const file = this.library.file(fileId);
          return file?.entry.status === 'ok' ? frameBytes(file.entry.summary?.parts[part], channels, factor) : null;
        },
        factor: (fileId, part, fitWithin) => {
          const summary = fitWithin && this.library.file(fileId)?.entry.summary?.parts[part];
          return summary ? reducedFactor(summary, fitWithin) : 1;
        },
      },
      options.playbackBudgetBytes,
    );
    const planes = options.planes;
    // after a preview's planes are sent, and never while a sequence plays: those need the cores and the main thread
    this.reserve = planes
      ? new PlaneReserve(planes.memory, { idle: () => planes.poolIdle() && this.leasesOpen === 0 && !this.playing })
      : null;
  }

  /**
   * Files listed: plane memory is made ready for the largest one's preview. A folder opened (`opened`) sets what is
   * expected; files added to or changed in a folder raise it when their previews are larger.
   */
  expectPreviews(entries: readonly FileEntry[], opened = false): void {
    const planes = largestPreviewPlanes(entries);
    if (planes.length > 0 && this.reserve && (opened || sum(planes) > sum(this.expected))) {
      this.expected = planes;
      this.reserve.want(planes);
    }
  }

  close(): void {
    this.reserve?.close();
    this.reducedHold.clear();
  }

  get playback(): FrameRingStats {
    return this.ring.stats;
  }

  /** The file a request names, when it can be decoded; else an error that says why not and what to do. */
  fileOf(fileId: string): { entry: FileEntry; absPath: string } {
    const file = this.library.file(fileId);
    if (!file) throw new Error(`unknown file "${fileId}": it was removed or its folder closed; list the folder again`);
    if (file.entry.status === 'incomplete') throw new Error(`${file.entry.name} is still being written: try again when it is complete`);
    if (file.entry.status === 'error') throw new Error(`${file.entry.name}: ${file.entry.error ?? 'cannot be read'}`);
    return file;
  }

  /**
   * A file whose pixels can be shown, whole or in part: also a damaged one whose header reads (its summary is known),
   * whose decodes list the chunks they could not read, and one still being written whose header is whole (its decodes
   * list the chunks not written yet, as `missing.incomplete`).
   */
  readableFileOf(fileId: string): { entry: FileEntry; absPath: string } {
    const file = this.library.file(fileId);
    return file && file.entry.status !== 'ok' && file.entry.summary ? file : this.fileOf(fileId);
  }

  /** Every attribute of every part: also for a damaged file, as long as its header reads. */
  async header(fileId: string): Promise<FileHeader> {
    const { absPath } = this.readableFileOf(fileId);
    let header: Awaited<ReturnType<typeof readHeader>>;
    try {
      header = await readHeader(absPath);
    } catch (error) {
      throw new Error(`${absPath}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return {
      fileId,
      version: 2,
      multipart: header.multipart,
      parts: header.parts.map((p) => {
        const cryptomatte = p.isDeep ? undefined : cryptomatteHeader(absPath, p);
        return {
          index: p.index,
          attributes: p.attributes.map((a) => ({ name: a.name, type: a.typeName, text: attributeValueText(a) })),
          ...(cryptomatte ? { cryptomatte } : {}),
        };
      }),
    };
  }

  setPlayback(plan: PlaybackPlan | null): void {
    this.playing = plan !== null;
    this.ring.setPlan(plan);
    if (!this.playing) this.reserve?.wake();
  }

  /** A level's planes; with `lease` they stay valid until release(), else only until the next decode may reuse them. */
  async decode(request: DecodeRequest, lease: boolean): Promise<{ image: DecodedImage; release(): void }> {
    const part = request.fitWithin || request.region ? this.readableFileOf(request.fileId).entry.summary?.parts[request.part] : undefined;
    const crop: CropDecode = (box, requestId) => this.crop(request, box, requestId);
    if (request.region && part) return decodeRegion(request, part, crop);
    const t0 = performance.now();
    const lx = request.lx ?? 0;
    const ly = request.ly ?? lx;
    const { ref, channels } = this.levelOf(request.fileId, request.part, lx, ly, request.channels);
    // a frame of the playing sequence: from the frame ring, which decoded it ahead at the size asked for, reduced or
    // whole (a plain decodeImage, whose planes may be read after any release, waits for the ring and then is made as usual)
    const fromRing = lx === 0 && ly === 0 ? this.ring.take(request.fileId, request.part, channels, request.fitWithin) : null;
    if (fromRing && !lease)
      await fromRing.then(
        (got) => got.release(),
        () => {},
      );
    const reduced = part && !(fromRing && lease) ? await decodeReduced(request, part, lease, this.reducedSources(request)) : null;
    if (reduced) return reduced;
    const got =
      fromRing && lease
        ? await fromRing
        : await this.levels.get(ref, channels, levelPriority(request.priority, ref.deep), request.requestId, lease);
    const image: DecodedImage = {
      ...got.image,
      fileId: request.fileId,
      source: got.source,
      timings: { ...got.timings, hostMs: performance.now() - t0 },
    };
    // the decode may have taken the reserve's buffers: they are made again once the host is idle
    if (!lease) {
      this.reserve?.wake();
      return { image, release: got.release };
    }
    this.leasesOpen++;
    let released = false;
    return {
      image,
      release: () => {
        if (released) return;
        released = true;
        this.leasesOpen--;
        got.release();
        this.reserve?.wake();
      },
    };
  }

  /** A frame of the playing sequence reduced to fit `fitWithin`, leased for the frame ring; null when it fits whole. */
  private async reducedFrame(
    fileId: string,
    part: number,
    channels: string[],
    requestId: string,
    fitWithin: FitWithin,
  ): Promise<LevelPlanes | null> {
    const summary = this.readableFileOf(fileId).entry.summary?.parts[part];
    const request: DecodeRequest = { requestId, fileId, part, channels, priority: 'playback', fitWithin };
    const got = summary ? await decodeReduced(request, summary, true, this.reducedSources(request)) : null;
    return got && { image: got.image, source: got.image.source, timings: got.image.timings, release: got.release };
  }

  /** Where a reduced level comes from: the file's own level, or one pass of the workers over level 0 (reduced-decode.ts). */
  private reducedSources(request: DecodeRequest): ReducedSources {
    const { ref, channels } = this.levelOf(request.fileId, request.part, 0, 0, request.channels);
    return {
      decode: (r, l) => this.decode(r, l),
      reduce: (factors) => this.levels.reduce(ref, channels, factors, request.priority, request.requestId),
      hold: this.reducedHold,
      holdKey: [ref.absPath, ref.sizeBytes, ref.mtimeMs, ref.part, ...channels].join('\0'),
    };
  }

  /** A crop of level 0 of the request's part and channels, decoded alone (DecodedLevels.crop) under `requestId`. */
  private async crop(request: DecodeRequest, box: BoxTuple, requestId: string): Promise<{ image: DecodedImage; release(): void }> {
    const t0 = performance.now();
    const { ref, channels } = this.levelOf(request.fileId, request.part, 0, 0, request.channels);
    const got = await this.levels.crop(
      ref,
      channels,
      { xMin: box[0], yMin: box[1], xMax: box[2], yMax: box[3] },
      request.priority,
      requestId,
    );
    const image = { ...got.image, fileId: request.fileId, source: got.source, timings: { ...got.timings, hostMs: performance.now() - t0 } };
    return { image, release: got.release };
  }

  /** Prefetches of the images next to the current one; those no longer next to it are dropped. */
  prefetchAround(currentFileId: string | null): void {
    const wanted = new Set(currentFileId && this.options.prefetch ? this.library.neighbours(currentFileId) : []);
    // only the host's own prefetches: a page's request at prefetch priority (a compare reference's planes) is the page's to cancel
    this.broker.cancelWhere(
      (meta, priority, requestId) =>
        requestId === null && priority === 'prefetch' && !wanted.has(meta.fileId) && meta.fileId !== currentFileId,
    );
    for (const fileId of wanted) this.prefetch(fileId);
  }

  /**
   * Decodes ahead what a preview of this file will ask for: the first flat part's first layer (RGBA first). Its
   * chunks are decompressed once and kept, so whichever layer the preview shows is unpacked without a decode.
   */
  private prefetch(fileId: string): void {
    const file = this.library.file(fileId);
    const first = file?.entry.status === 'ok' ? firstPreview(file.entry.summary) : null;
    if (!first) return;
    const { ref, channels } = this.levelOf(fileId, first.part.index, 0, 0, first.channels);
    if (this.levels.has(ref, channels) || this.levels.decoding(ref)) return;
    this.prefetches++;
    this.levels.get(ref, channels, 'prefetch', null, true).then(
      (got) => got.release(),
      () => {
        // a prefetch that fails or is cancelled costs nothing: the preview request will say what went wrong
      },
    );
  }

  /** The level a request names, and its channels in header order (every channel when none are named). */
  levelOf(fileId: string, part: number, lx: number, ly: number, requested: string[] | undefined): { ref: LevelRef; channels: string[] } {
    const { entry, absPath } = this.readableFileOf(fileId);
    const partSummary = entry.summary?.parts[part];
    if (!partSummary) throw new Error(`${entry.name} has no part ${part} (it has ${entry.summary?.parts.length ?? 0})`);
    const all = partSummary.channels.map((c) => c.name);
    for (const name of requested ?? []) {
      if (!all.includes(name)) throw new Error(`${entry.name} part ${part} has no channel "${name}" (it has ${all.join(', ')})`);
    }
    const ref: LevelRef = {
      fileId,
      absPath,
      sizeBytes: entry.sizeBytes,
      mtimeMs: entry.mtimeMs,
      part,
      lx,
      ly,
      displayWindow: partSummary.displayWindow,
      deep: partSummary.type === 'deepscanline' || partSummary.type === 'deeptile',
      allChannels: all,
    };
    return { ref, channels: requested ? all.filter((c) => requested.includes(c)) : all };
  }
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** The power of two a flat part's level 0 is reduced by to fit `fit` (1: it fits, or a deep part, or none can fit). */
function reducedFactor(part: PartSummary, fit: FitWithin): number {
  if (part.type === 'deepscanline' || part.type === 'deeptile') return 1;
  const [x0, y0, x1, y1] = part.dataWindow;
  try {
    return reductionFor(x1 - x0 + 1, y1 - y0 + 1, fit)?.factor ?? 1;
  } catch {
    // past the largest reduction: the request's own decode says why
    return 1;
  }
}
