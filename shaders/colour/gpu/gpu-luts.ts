// A GPU processor's two LUT textures on a device (rgba32float, read with textureLoad by ocio-luts.wgsl).
import type { GpuProcessor } from './processor-wgsl.js';
import type { TextureData } from './lut-atlas.js';

export interface OcioLutTextures {
  lut1d: GPUTexture;
  lut3d: GPUTexture;
}

/** Uploads `p`'s tables (1×1 placeholders when null or when it has none); a table past the device's limits says so. */
export function uploadOcioLuts(device: GPUDevice, p: GpuProcessor | null): OcioLutTextures {
  const empty: TextureData = { widthPx: 1, heightPx: 1, depthPx: 1, rgba: new Float32Array(4) };
  const one = p?.lut1d ?? empty,
    three = p?.lut3d ?? empty;
  if (one.heightPx > device.limits.maxTextureDimension2D)
    throw new Error(`the config's 1D LUTs hold ${one.heightPx * one.widthPx} entries, more than this GPU can keep in one texture`);
  if (three.depthPx > device.limits.maxTextureDimension3D || three.widthPx > device.limits.maxTextureDimension3D)
    throw new Error(`the config's 3D LUTs (${three.depthPx} planes in all) are more than this GPU can keep in one texture`);
  return { lut1d: upload(device, one, '2d', 'OCIO 1D LUTs'), lut3d: upload(device, three, '3d', 'OCIO 3D LUTs') };
}

function upload(device: GPUDevice, data: TextureData, dimension: '2d' | '3d', label: string): GPUTexture {
  const size: [number, number, number] = [data.widthPx, data.heightPx, data.depthPx];
  const texture = device.createTexture({
    label,
    size,
    dimension,
    format: 'rgba32float',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture }, data.rgba, { bytesPerRow: data.widthPx * 16, rowsPerImage: data.heightPx }, size);
  return texture;
}
