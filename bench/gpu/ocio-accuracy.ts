// The GPU path of OpenColorIO processors against the CPU reference (applyOps) on this adapter: each processor's
// `ocio_apply` in a compute pass over HDR RGBA, the worst difference as e2e/ocio-gpu.spec.ts measures it (absolute to 1,
// relative above; also relative to the pixel's largest channel), with the pixel that gave it. The e2e runs on
// SwiftShader; this runs on the bench's GPU.
import { applyOps } from '../../shaders/colour/processor.js';
import type { Op } from '../../shaders/colour/ops/op.js';
import { buildGpuProcessor, uploadOcioLuts } from '../../shaders/colour/gpu/index.js';
import ocioLutsSrc from '../../shaders/colour/gpu/ocio-luts.wgsl';
import { ocioLutLayoutEntries } from '../../shaders/pipelines.js';

const APPLY_ENTRY = `
@group(0) @binding(0) var<storage, read> inputPx: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> outputPx: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= arrayLength(&inputPx)) { return; }
  outputPx[id.x] = ocio_apply(inputPx[id.x]);
}`;

export interface Accuracy {
  /** The worst |gpu − cpu| / max(1, |cpu|) of any channel, and the pixel that gave it. */
  maxErr: number;
  worst: string;
  /** The same judged against the pixel's largest |cpu| channel: |gpu − cpu| / max(1, max |cpu rgb|) (see pixelScale). */
  pixelErr: number;
  pixelWorst: string;
}

/** `ocio_apply` of the GPU processor of `ops` on RGBA `input`, read back. */
export async function applyOnGpu(device: GPUDevice, ops: readonly Op[], input: Float32Array<ArrayBuffer>): Promise<Float32Array> {
  const p = buildGpuProcessor(ops);
  const luts = uploadOcioLuts(device, p);
  const io = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const lutLayout = device.createBindGroupLayout({ entries: ocioLutLayoutEntries() });
  const empty = device.createBindGroupLayout({ entries: [] });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [io, empty, lutLayout] }),
    compute: { module: device.createShaderModule({ code: ocioLutsSrc + p.wgsl + APPLY_ENTRY }), entryPoint: 'main' },
  });
  const bytes = input.byteLength;
  const inBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const outBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, input);
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  const ioEntries = [inBuf, outBuf].map((buffer, binding) => ({ binding, resource: { buffer } }));
  pass.setBindGroup(0, device.createBindGroup({ layout: io, entries: ioEntries }));
  pass.setBindGroup(1, device.createBindGroup({ layout: empty, entries: [] }));
  const lutEntries = [
    { binding: 5, resource: luts.lut1d.createView() },
    { binding: 6, resource: luts.lut3d.createView({ dimension: '3d' }) },
  ];
  pass.setBindGroup(2, device.createBindGroup({ layout: lutLayout, entries: lutEntries }));
  pass.dispatchWorkgroups(Math.ceil(input.length / 4 / 64));
  pass.end();
  enc.copyBufferToBuffer(outBuf, 0, readBuf, 0, bytes);
  device.queue.submit([enc.finish()]);
  await readBuf.mapAsync(GPUMapMode.READ);
  const out = new Float32Array(readBuf.getMappedRange().slice(0));
  readBuf.unmap();
  for (const b of [inBuf, outBuf, readBuf]) b.destroy();
  luts.lut1d.destroy();
  luts.lut3d.destroy();
  return out;
}

/**
 * The scale a pixel's channels are judged against, for scene-linear outputs and ops that mix channels in f32 (GradingHueCurve):
 * a channel's rounding error there is set by the pixel's largest channel, whatever its own size. 1 for pixels within ±1.
 */
export function pixelScale(rgb: ArrayLike<number>, px: number): number {
  let scale = 1;
  for (let c = 0; c < 3; c++) if (Number.isFinite(rgb[px + c]!)) scale = Math.max(scale, Math.abs(rgb[px + c]!));
  return scale;
}

/** The worst per-channel difference of the GPU's `ops` from applyOps on `input` (RGB; alpha passes through both). */
export async function gpuAccuracy(device: GPUDevice, ops: readonly Op[], input: Float32Array<ArrayBuffer>): Promise<Accuracy> {
  const expected = Float32Array.from(input);
  applyOps(ops, expected);
  const actual = await applyOnGpu(device, ops, input);
  const worstOf = (scaleOf: (i: number) => number): [number, string] => {
    let maxErr = 0,
      worst = '';
    for (let i = 0; i < expected.length; i++) {
      const e = expected[i]!,
        a = actual[i]!;
      const err = Number.isFinite(e) ? Math.abs(a - e) / scaleOf(i) : a === e || (Number.isNaN(a) && Number.isNaN(e)) ? 0 : Infinity;
      if (err > maxErr || Number.isNaN(err)) {
        maxErr = Number.isNaN(err) ? Infinity : err;
        const px = i - (i % 4);
        const show = (v: ArrayLike<number>): string =>
          Array.from(v)
            .slice(px, px + 4)
            .join(',');
        worst = `in ${show(input)} cpu ${show(expected)} gpu ${show(actual)}`;
      }
    }
    return [maxErr, worst];
  };
  const [maxErr, worst] = worstOf((i) => Math.max(1, Math.abs(expected[i]!)));
  const [pixelErr, pixelWorst] = worstOf((i) => Math.max(pixelScale(expected, i - (i % 4)), Math.abs(expected[i]!)));
  return { maxErr, worst, pixelErr, pixelWorst };
}

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** RGB uniform on [0, top) (alpha 1): display-linear values inside a display's cube, for an inverse. */
export function cubeInput(n: number, seed: number, top: number): Float32Array<ArrayBuffer> {
  const rnd = lcg(seed);
  return Float32Array.from({ length: n * 4 }, (_, i) => (i % 4 === 3 ? 1 : Math.fround(top * rnd())));
}

/**
 * Finite HDR RGBA with `n` pixels: log-uniform over ±2^±12 per channel, zeros, negatives, values up to half-float's
 * largest, and saturated colours (one channel up to 65504 over two near zero) where f32 cancellation shows first.
 */
export function hdrInput(n: number, seed: number): Float32Array<ArrayBuffer> {
  const rnd = lcg(seed);
  const out = new Float32Array(n * 4);
  for (let px = 0; px < n; px++) {
    const saturated = rnd() < 0.25;
    const hot = Math.floor(rnd() * 3);
    for (let c = 0; c < 4; c++) {
      const k = rnd();
      let v: number;
      if (saturated && c < 3) v = c === hot ? 2 ** (rnd() * 20 - 4) : (rnd() < 0.3 ? -1 : 1) * 2 ** (rnd() * 16 - 16);
      else if (k < 0.03) v = 0;
      else if (k < 0.06) v = (rnd() < 0.5 ? -1 : 1) * 65504 * rnd();
      else if (k < 0.16) v = -(2 ** (rnd() * 8 - 6));
      else v = 2 ** (rnd() * 24 - 12);
      out[px * 4 + c] = Math.fround(Math.min(65504, v));
    }
  }
  return out;
}
