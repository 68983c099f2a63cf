// Turns the engine's cached layer into the filterable rgba16float lat-long texture three.js samples (env-latlong.wgsl),
// on the same device: a GPU-to-GPU pass, no fetch, decode or upload.
import envSrc from '../../shaders/env-latlong.wgsl';
import type { EnvKind } from './env-kind.js';

export const ENV_FORMAT: GPUTextureFormat = 'rgba16float';

const pipelines = new WeakMap<GPUDevice, { pipeline: GPURenderPipeline; layout: GPUBindGroupLayout }>();

function pipelineFor(device: GPUDevice): { pipeline: GPURenderPipeline; layout: GPUBindGroupLayout } {
  let p = pipelines.get(device);
  if (!p) {
    const layout = device.createBindGroupLayout({
      label: 'env lat-long',
      entries: [
        { binding: 0, visibility: GPUShaderStage.FRAGMENT, buffer: { type: 'uniform', minBindingSize: 16 } },
        { binding: 1, visibility: GPUShaderStage.FRAGMENT, texture: { sampleType: 'unfilterable-float' } },
      ],
    });
    const module = device.createShaderModule({ label: 'env lat-long', code: envSrc });
    const pipeline = device.createRenderPipeline({
      label: 'env lat-long',
      layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
      vertex: { module, entryPoint: 'vs' },
      fragment: { module, entryPoint: 'fs', targets: [{ format: ENV_FORMAT }] },
    });
    p = { pipeline, layout };
    pipelines.set(device, p);
  }
  return p;
}

/** Output size: the source for lat-long, 4 x 2 faces for a cube. */
export function latLongSize(kind: EnvKind, widthPx: number, heightPx: number): { widthPx: number; heightPx: number; faceSizePx: number } {
  if (kind === 'latlong') return { widthPx, heightPx, faceSizePx: 0 };
  const faceSizePx = Math.max(1, Math.min(widthPx, Math.floor(heightPx / 6)));
  return { widthPx: 4 * faceSizePx, heightPx: 2 * faceSizePx, faceSizePx };
}

/** Encodes and submits the pass; the caller owns (and destroys) the returned texture. */
export function makeLatLongTexture(device: GPUDevice, source: GPUTexture, kind: EnvKind, widthPx: number, heightPx: number): GPUTexture {
  const encoder = device.createCommandEncoder({ label: 'env lat-long' });
  const target = encodeLatLong(device, encoder, source, kind, widthPx, heightPx);
  device.queue.submit([encoder.finish()]);
  return target;
}

/** Encodes the pass into `encoder` (timed by `timestampWrites` when given: the GPU bench); returns the new texture. */
export function encodeLatLong(
  device: GPUDevice,
  encoder: GPUCommandEncoder,
  source: GPUTexture,
  kind: EnvKind,
  widthPx: number,
  heightPx: number,
  timestampWrites?: GPURenderPassTimestampWrites,
): GPUTexture {
  const { pipeline, layout } = pipelineFor(device);
  const size = latLongSize(kind, widthPx, heightPx);
  const target = device.createTexture({
    label: 'environment (lat-long)',
    size: [size.widthPx, size.heightPx],
    format: ENV_FORMAT,
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
  });
  const params = device.createBuffer({ label: 'env params', size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(params, 0, new Uint32Array([kind === 'latlong' ? 0 : 1, size.faceSizePx, 0, 0]));
  const group = device.createBindGroup({
    layout,
    entries: [
      { binding: 0, resource: { buffer: params } },
      { binding: 1, resource: source.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
    ],
  });
  const pass = encoder.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 1] }],
    ...(timestampWrites ? { timestampWrites } : {}),
  });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, group);
  pass.draw(3);
  pass.end();
  // the 16-byte uniform is left to the garbage collector: destroying it here would precede the submit
  return target;
}
