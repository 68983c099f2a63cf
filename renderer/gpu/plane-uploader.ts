// The upload step, one module: puts the decoded planes of one image on the GPU as r16float / r32float / r32uint, untouched.
// Fast path: shaders/upload.ts's ring of mapped staging buffers (one CPU copy per byte, one submission per image, no
// wait in the steady state; many times writeTexture's rate on a discrete GPU: bench/gpu/NOTES.md).
// Fallback, only where the ring cannot be made (mapping refused, out of memory): queue.writeTexture per plane.
import type { DecodedPlane } from '../host-client/api-types.js';
import type { PlaneTexture } from '../../shaders/passes.js';
import { createUploader, type Uploader, type UploadFormat, type UploadItem } from '../../shaders/upload.js';

export interface UploadedPlane extends PlaneTexture {
  name: string;
  bytes: number;
}

/** What one image's upload cost, CPU side; the GPU side (copies done) is measured by the engine off the frame loop. */
export interface ImageUpload {
  planes: UploadedPlane[];
  bytes: number;
  /** The whole call: texture creation, the CPU copy into staging, encode, submit, waits. */
  callMs: number;
  /** Writing pixels into mapped staging memory (the one CPU-side copy); NaN for writeTexture, which copies inside the browser. */
  cpuCopyMs: number;
  /** Blocked on a staging buffer still in flight (0 in the steady state). */
  waitMs: number;
  submits: number;
}

export interface PlaneUploader {
  /** 'staging ring' or 'writeTexture', with the ring's size or the reason for the fallback. */
  readonly name: string;
  readonly path: 'staging ring' | 'writeTexture';
  /**
   * Creates a texture per plane and queues the copies of all of them (one submission on the ring). Resolves once the
   * copies are submitted; GPU work that reads the textures is ordered after them by the queue, so nobody waits.
   */
  uploadImage(planes: readonly DecodedPlane[]): Promise<ImageUpload>;
  /** The planes into textures made before (a playback frame slot's, each of its plane's size and format): none created. */
  uploadInto(targets: readonly PlaneTarget[]): Promise<Omit<ImageUpload, 'planes'>>;
  destroy(): void;
}

export interface PlaneTarget {
  plane: DecodedPlane;
  texture: GPUTexture;
}

/** The texture a plane goes into: r16float / r32float / r32uint, one texel per sample. */
export function planeFormat(pixelType: DecodedPlane['pixelType']): { format: UploadFormat; bytes: number; kind: 'float' | 'uint' } {
  return FORMATS[pixelType];
}

const FORMATS: Record<DecodedPlane['pixelType'], { format: UploadFormat; bytes: number; kind: 'float' | 'uint' }> = {
  half: { format: 'r16float', bytes: 2, kind: 'float' },
  float: { format: 'r32float', bytes: 4, kind: 'float' },
  uint: { format: 'r32uint', bytes: 4, kind: 'uint' },
};

function planeTexture(device: GPUDevice, plane: DecodedPlane): { up: UploadedPlane; width: number; height: number; format: UploadFormat } {
  const f = FORMATS[plane.pixelType];
  const width = Math.max(1, plane.widthSamples);
  const height = Math.max(1, plane.heightSamples);
  const texture = device.createTexture({
    label: `plane ${plane.name}`,
    size: { width, height },
    format: f.format,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  const bytes = plane.widthSamples * plane.heightSamples * f.bytes;
  return {
    up: { name: plane.name, texture, kind: f.kind, xSampling: plane.xSampling, ySampling: plane.ySampling, bytes },
    width,
    height,
    format: f.format,
  };
}

function texels(plane: DecodedPlane): Uint16Array | Float32Array | Uint32Array {
  return plane.pixelType === 'half'
    ? new Uint16Array(plane.data)
    : plane.pixelType === 'float'
      ? new Float32Array(plane.data)
      : new Uint32Array(plane.data);
}

/** queue.writeTexture of each plane as it came from the host: the fallback, and the baseline the ring is measured against. */
export function writeTextureUploader(device: GPUDevice, reason: string): PlaneUploader {
  return {
    name: `writeTexture per plane (${reason})`,
    path: 'writeTexture',
    async uploadImage(planes) {
      const t0 = performance.now();
      const out: UploadedPlane[] = [];
      let bytes = 0;
      for (const plane of planes) {
        const { up } = planeTexture(device, plane);
        if (up.bytes > 0) {
          const texelBytes = FORMATS[plane.pixelType].bytes;
          device.queue.writeTexture(
            { texture: up.texture },
            plane.data,
            { bytesPerRow: plane.widthSamples * texelBytes, rowsPerImage: plane.heightSamples },
            { width: plane.widthSamples, height: plane.heightSamples },
          );
        }
        out.push(up);
        bytes += up.bytes;
      }
      return { planes: out, bytes, callMs: performance.now() - t0, cpuCopyMs: NaN, waitMs: 0, submits: planes.length };
    },
    async uploadInto(targets) {
      const t0 = performance.now();
      let bytes = 0;
      for (const { plane, texture } of targets) {
        const texelBytes = FORMATS[plane.pixelType].bytes;
        if (plane.widthSamples * plane.heightSamples === 0) continue;
        device.queue.writeTexture(
          { texture },
          plane.data,
          { bytesPerRow: plane.widthSamples * texelBytes, rowsPerImage: plane.heightSamples },
          { width: plane.widthSamples, height: plane.heightSamples },
        );
        bytes += plane.widthSamples * plane.heightSamples * texelBytes;
      }
      return { bytes, callMs: performance.now() - t0, cpuCopyMs: NaN, waitMs: 0, submits: targets.length };
    },
    destroy() {},
  };
}

/** All planes of an image through the staging ring: one encoder, one submission (several only when the ring is outgrown). */
export function stagingRingUploader(device: GPUDevice, uploader: Uploader): PlaneUploader {
  return {
    name: `staging ring (${uploader.slabCount} × ${Math.round(uploader.slabBytes / 2 ** 20)} MiB mapped buffers)`,
    path: 'staging ring',
    async uploadImage(planes) {
      const t0 = performance.now();
      const out: UploadedPlane[] = [];
      const items: UploadItem[] = [];
      let bytes = 0;
      for (const plane of planes) {
        const { up, format } = planeTexture(device, plane);
        out.push(up);
        bytes += up.bytes;
        // an empty plane (a subsampled channel of a 1-pixel image) gets its 1x1 texture and nothing to copy
        if (up.bytes > 0)
          items.push({
            texture: up.texture,
            format,
            width: plane.widthSamples,
            height: plane.heightSamples,
            source: { kind: 'texels', data: texels(plane) },
          });
      }
      try {
        const stats = items.length ? await uploader.uploadMany(items) : null;
        return {
          planes: out,
          bytes,
          callMs: performance.now() - t0,
          cpuCopyMs: stats?.cpuCopyMs ?? 0,
          waitMs: stats?.waitMs ?? 0,
          submits: stats?.submits ?? 0,
        };
      } catch (e) {
        for (const p of out) p.texture.destroy();
        throw e;
      }
    },
    async uploadInto(targets) {
      const t0 = performance.now();
      const items: UploadItem[] = [];
      let bytes = 0;
      for (const { plane, texture } of targets) {
        const f = FORMATS[plane.pixelType];
        if (plane.widthSamples * plane.heightSamples === 0) continue;
        items.push({
          texture,
          format: f.format,
          width: plane.widthSamples,
          height: plane.heightSamples,
          source: { kind: 'texels', data: texels(plane) },
        });
        bytes += plane.widthSamples * plane.heightSamples * f.bytes;
      }
      const stats = items.length ? await uploader.uploadMany(items) : null;
      return {
        bytes,
        callMs: performance.now() - t0,
        cpuCopyMs: stats?.cpuCopyMs ?? 0,
        waitMs: stats?.waitMs ?? 0,
        submits: stats?.submits ?? 0,
      };
    },
    destroy: () => uploader.destroy(),
  };
}

/** Ring size: a 4K half RGBA image (66 MB) in one submission, an 8K one in a few with waits between. */
export const RING_BYTES = 128 << 20;
export const SLAB_BYTES = 16 << 20;

/**
 * The staging ring where the device gives mapped buffers (creating them mapped inside error scopes), else writeTexture
 * with the reason. Once per device.
 */
export async function createPlaneUploader(
  device: GPUDevice,
  options: { ringBytes?: number; slabBytes?: number; force?: 'writeTexture' } = {},
): Promise<PlaneUploader> {
  if (options.force === 'writeTexture') return writeTextureUploader(device, 'asked for');
  device.pushErrorScope('out-of-memory');
  device.pushErrorScope('validation');
  let ring: Uploader | null = null;
  let thrown = '';
  try {
    ring = createUploader(device, {
      ringBytes: options.ringBytes ?? RING_BYTES,
      slabBytes: options.slabBytes ?? SLAB_BYTES,
      label: 'image upload',
    });
  } catch (e) {
    // mappedAtCreation throws a RangeError when the mapping cannot be allocated
    thrown = e instanceof Error ? e.message : String(e);
  }
  const validation = await device.popErrorScope();
  const oom = await device.popErrorScope();
  const error = thrown || validation?.message || oom?.message || '';
  if (ring && !error) return stagingRingUploader(device, ring);
  ring?.destroy();
  return writeTextureUploader(device, `fallback: no mapped staging buffers: ${error}`);
}
