// The upload step, one module: puts one decoded plane on the GPU as r16float / r32float / r32uint, untouched.
// Swap point for a staging-ring uploader: the engine only calls `PlaneUploader.upload`.
import type { DecodedPlane } from '../host/api-types.js';
import type { PlaneTexture } from '../../shaders/passes.js';

export interface UploadedPlane extends PlaneTexture {
  name: string;
  bytes: number;
}

export interface PlaneUploader {
  readonly name: string;
  /** Queues the copy (no wait); the GPU work that reads the texture is ordered after it by the queue. */
  upload(device: GPUDevice, plane: DecodedPlane): UploadedPlane;
}

const FORMATS: Record<DecodedPlane['pixelType'], { format: GPUTextureFormat; bytes: number; kind: 'float' | 'uint' }> = {
  half: { format: 'r16float', bytes: 2, kind: 'float' },
  float: { format: 'r32float', bytes: 4, kind: 'float' },
  uint: { format: 'r32uint', bytes: 4, kind: 'uint' },
};

/** queue.writeTexture of each plane as it came from the host: no CPU conversion, no interleave. */
export const writeTextureUploader: PlaneUploader = {
  name: 'writeTexture per plane',
  upload(device, plane) {
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
    if (bytes > 0) {
      device.queue.writeTexture({ texture }, plane.data, { bytesPerRow: plane.widthSamples * f.bytes, rowsPerImage: plane.heightSamples }, { width: plane.widthSamples, height: plane.heightSamples });
    }
    return { name: plane.name, texture, kind: f.kind, xSampling: plane.xSampling, ySampling: plane.ySampling, bytes };
  },
};
