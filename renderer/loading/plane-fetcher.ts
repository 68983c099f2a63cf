// Fetches planes of an image from the host: the one request a show makes, with what it cost (the host's read and
// decode, or its RAM cache; the transfer to this page). Deep parts come whole, with their sample counts as a plane.
import type { DecodedImage, FitWithin, PartSummary, StageTimingsMs } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import type { ImageKey } from '../gpu/engine-types.js';
import { SAMPLES_PLANE, withSampleCountPlane } from '../model/deep-samples.js';

/** Planes fetched from the host, and what fetching them cost. */
export interface FetchedImage {
  image: DecodedImage;
  /** 'decode' or 'ram-cache': where the host found the planes. */
  hostSource: string;
  /** Read, decompress, unpack, queue and the host's whole time. */
  host: StageTimingsMs;
  transferBytes: number;
  transferMs: number;
}

export type FetchPriority = 'preview' | 'prefetch';

export class PlaneFetcher {
  constructor(
    private readonly host: RendererHost,
    private readonly partOf: (key: ImageKey) => PartSummary | undefined,
    /** What the engine shows whole: a larger image comes as a reduced level (none: level 0 whatever its size). */
    private readonly fitWithin: () => FitWithin | undefined = () => undefined,
  ) {}

  /** The planes of `channels` of an image (deep parts: every channel, and the sample counts). */
  async fetch(key: ImageKey, channels: readonly string[], priority: FetchPriority): Promise<FetchedImage> {
    const t0 = performance.now();
    const before = this.host.transfers.length;
    const type = this.partOf(key)?.type;
    const deep = type === 'deepscanline' || type === 'deeptile';
    const named = channels.filter((c) => c !== SAMPLES_PLANE);
    const fitWithin = this.fitWithin();
    const request = {
      requestId: `d-${key.fileId}-${key.part}-${Date.now()}`,
      fileId: key.fileId,
      part: key.part,
      priority,
      ...(deep || named.length === 0 ? {} : { channels: named }),
      ...(fitWithin ? { fitWithin } : {}),
    };
    const image = withSampleCountPlane(await this.host.api.decodeImage(request));
    // the transport records what it moved (Electron's IPC without the pixel route records nothing: measured here)
    const t = this.host.transfers.length > before ? this.host.transfers[this.host.transfers.length - 1] : undefined;
    const transferBytes = t ? t.bytes : image.planes.reduce((s, p) => s + p.data.byteLength, 0);
    const transferMs = t ? t.transferMs : Math.max(0, performance.now() - t0 - image.timings.hostMs);
    return { image, hostSource: image.source, host: image.timings, transferBytes, transferMs };
  }
}
