// The player's I/O in Node: frames from the host (decodeImageLease, through its frame ring) into upload buffers.
//
// 'copy': each slot is a set of upload buffers made once (the staging memory a renderer writes into), each frame's
// planes copied into them: the CPU side of an upload, what the host pipeline must keep up with. 'dawn': the renderer's
// own frame slots on a Dawn device: the staging ring, the slot textures, the layer's assemble and MIP passes, counted
// as done only once the GPU has finished them.
import type { DecodedImage, HostApi, PixelLease } from '../../contract/host-api.js';
import type { LoadResult, PipelineIo, UploadResult } from '../../renderer/playback/pipeline.js';

export interface LeasedFrame {
  image: DecodedImage;
  release(): void;
}

export interface Uploads {
  kind: 'copy' | 'dawn';
  upload(slot: number, image: DecodedImage): Promise<UploadResult>;
  describe(): Record<string, unknown>;
}

export function hostIo(host: HostApi & PixelLease, channels: string[], uploads: Uploads): PipelineIo<LeasedFrame> & { plans: number } {
  let plans = 0;
  return {
    get plans() {
      return plans;
    },
    async load(fileId, tag): Promise<LoadResult<LeasedFrame>> {
      const t0 = performance.now();
      const lease = await host.decodeImageLease({ requestId: tag, fileId, part: 0, channels, priority: 'playback' });
      const t = lease.image.timings;
      return {
        data: lease,
        hostMs: performance.now() - t0,
        readMs: t.readMs,
        decompressMs: t.decompressMs,
        unpackMs: t.unpackMs,
        queueMs: t.queueMs,
        source: lease.image.source,
        transferMs: 0,
        bytes: lease.image.planes.reduce((s, p) => s + p.data.byteLength, 0),
      };
    },
    cancel: (tag) => host.cancel(tag),
    upload: (slot, data) => uploads.upload(slot, data.image),
    present: () => {},
    release: (data) => data.release(),
    plan: (fileIds) => {
      plans++;
      host.setPlayback(fileIds.length ? { fileIds, part: 0, channels } : null);
    },
  };
}

/**
 * Upload buffers made once per slot and plane, written for every frame. `planeBytes` (one entry per plane) makes and
 * touches them before playback, as a renderer makes its slot textures and staging memory once: their first touch is
 * not a frame's cost (first touch of fresh memory would cost more than a frame's whole budget).
 */
export function copyUploads(slotCount: number, planeBytes: number[]): Uploads {
  const slots = new Map<number, ArrayBuffer[]>();
  let allocatedBytes = 0;
  for (let slot = 0; slot < slotCount; slot++) {
    const buffers = planeBytes.map((bytes) => new ArrayBuffer(bytes));
    for (const b of buffers) new Uint8Array(b).fill(0);
    allocatedBytes += planeBytes.reduce((s, b) => s + b, 0);
    slots.set(slot, buffers);
  }
  return {
    kind: 'copy',
    async upload(slot, image) {
      const t0 = performance.now();
      let buffers = slots.get(slot);
      if (!buffers || buffers.length !== image.planes.length || buffers.some((b, i) => b.byteLength !== image.planes[i]!.data.byteLength)) {
        buffers = image.planes.map((p) => new ArrayBuffer(p.data.byteLength));
        allocatedBytes += buffers.reduce((s, b) => s + b.byteLength, 0);
        slots.set(slot, buffers);
      }
      for (const [i, p] of image.planes.entries()) new Uint8Array(buffers[i]!).set(new Uint8Array(p.data));
      return { uploadMs: performance.now() - t0 };
    },
    describe: () => ({ kind: 'copy into upload buffers made once per slot', allocatedMb: Math.round(allocatedBytes / 2 ** 20) }),
  };
}
