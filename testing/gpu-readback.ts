// Test support: a float texture's texels read back from the GPU, rows packed (the copy's 256-byte row pitch taken out).

/** Level 0 of `texture` (r32float: 1 float a texel, rgba32float: 4) as one Float32Array, row after row. */
export async function readTextureFloats(device: GPUDevice, texture: GPUTexture, floatsPerTexel: 1 | 4): Promise<Float32Array> {
  const texelBytes = floatsPerTexel * 4;
  const rowBytes = Math.ceil((texture.width * texelBytes) / 256) * 256;
  const buffer = device.createBuffer({ size: rowBytes * texture.height, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow: rowBytes }, [texture.width, texture.height]);
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const rows = new Uint8Array(buffer.getMappedRange());
  const out = new Float32Array(texture.width * texture.height * floatsPerTexel);
  const outBytes = new Uint8Array(out.buffer);
  const packedRowBytes = texture.width * texelBytes;
  for (let y = 0; y < texture.height; y++) outBytes.set(rows.subarray(y * rowBytes, y * rowBytes + packedRowBytes), y * packedRowBytes);
  buffer.unmap();
  buffer.destroy();
  return out;
}
