// Fetches planes of an image from the host: the one request a show makes, with what it cost (the host's read and
// decode, or its RAM cache; the transfer to this page). Deep parts come whole, with their sample counts as a plane.
import type { DecodedImage, DecodeRequest, FitWithin, PartSummary, StageTimingsMs } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import type { ImageKey } from '../gpu/engine-types.js';
import { SAMPLES_PLANE, withSampleCountPlane } from '../model/deep-samples.js';
import { firstLevelWithin } from './first-level.js';

/** Planes fetched from the host, and what fetching them cost. */
export interface FetchedImage {
  image: DecodedImage;
  /** 'decode' or 'ram-cache': where the host found the planes. */
  hostSource: string;
  /** Read, decompress, unpack, queue and the host's whole time. */
  host: StageTimingsMs;
  transferBytes: number;
  transferMs: number;
  /**
   * A small first level of an image too large for the page: fetches the finer level it can show, which the host made
   * in the same pass and holds meanwhile (first-level.ts). Absent for any other fetch.
   */
  refine?: () => Promise<FetchedImage>;
}

export type FetchPriority = 'preview' | 'prefetch';

export class PlaneFetcher {
  /** Requests made: each gets its own id (a first level and its refinement go out in the same millisecond). */
  private sent = 0;

  constructor(
    private readonly host: RendererHost,
    private readonly partOf: (key: ImageKey) => PartSummary | undefined,
    /** What the engine shows whole: a larger image comes as a reduced level (none: level 0 whatever its size). */
    private readonly fitWithin: () => FitWithin | undefined = () => undefined,
  ) {}

  /** The planes of `channels` of an image (deep parts: every channel, and the sample counts). */
  async fetch(key: ImageKey, channels: readonly string[], priority: FetchPriority): Promise<FetchedImage> {
    const part = this.partOf(key);
    const deep = part?.type === 'deepscanline' || part?.type === 'deeptile';
    const named = channels.filter((c) => c !== SAMPLES_PLANE);
    const fitWithin = this.fitWithin();
    const request: DecodeRequest = {
      requestId: '',
      fileId: key.fileId,
      part: key.part,
      priority,
      ...(deep || named.length === 0 ? {} : { channels: named }),
      ...(fitWithin ? { fitWithin } : {}),
    };
    // the picked image's first frame: a small level first where only a reduced one can be shown
    const first = priority === 'preview' ? firstLevelWithin(part, fitWithin) : null;
    if (!first || !fitWithin) return this.request(request);
    const fetched = await this.request({ ...request, fitWithin: first, refineWithin: fitWithin });
    return fetched.image.reduced ? { ...fetched, refine: () => this.request(request) } : fetched;
  }

  private async request(asked: DecodeRequest): Promise<FetchedImage> {
    const t0 = performance.now();
    const before = this.host.transfers.length;
    const request = { ...asked, requestId: `d-${asked.fileId}-${asked.part}-${Date.now()}-${++this.sent}` };
    const image = withSampleCountPlane(await this.host.api.decodeImage(request));
    // the transport records what it moved (Electron's IPC without the pixel route records nothing: measured here)
    const t = this.host.transfers.length > before ? this.host.transfers[this.host.transfers.length - 1] : undefined;
    const transferBytes = t ? t.bytes : image.planes.reduce((s, p) => s + p.data.byteLength, 0);
    const transferMs = t ? t.transferMs : Math.max(0, performance.now() - t0 - image.timings.hostMs);
    return { image, hostSource: image.source, host: image.timings, transferBytes, transferMs };
  }
}
