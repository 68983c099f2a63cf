// In-page entry for e2e/ocio-gpu.spec.ts: runs a processor's generated WGSL (`ocio_apply`) on raw RGBA in a compute
// pass, and the full preview tone-map through ShaderKit with the processor, and hands the results back to Playwright.
import { buildGpuProcessor, uploadOcioLuts, type GpuProcessorOptions } from '../../shaders/colour/gpu/index.js';
import ocioLutsSrc from '../../shaders/colour/gpu/ocio-luts.wgsl';
import { fromWire, type WireOp } from './ocio-wire.js';
import { DEFAULT_DISPLAY, FLAG_NEAREST, type DisplayParams } from '../../shaders/display-params.js';
import { PREVIEW_VIEW_BYTES, UniformBlock, packPreviewView } from '../../shaders/layouts.js';
import { createMipTexture, layerBindGroup } from '../../shaders/passes.js';
import { ocioLutLayoutEntries, ShaderKit } from '../../shaders/pipelines.js';

let kitPromise: Promise<ShaderKit> | null = null;
async function kit(): Promise<ShaderKit> {
  kitPromise ??= (async () => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    return new ShaderKit(await adapter.requestDevice());
  })();
  return kitPromise;
}

const APPLY_ENTRY = `
@group(0) @binding(0) var<storage, read> inputPx: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> outputPx: array<vec4f>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= arrayLength(&inputPx)) { return; }
  outputPx[id.x] = ocio_apply(inputPx[id.x]);
}`;

/** `ocio_apply` of the processor built from `ops` on RGBA `input`; returns the RGBA out and how many ops were baked. */
async function applyOnGpu(wire: WireOp[], input: number[], options: GpuProcessorOptions): Promise<{ out: number[]; baked: number }> {
  const device = (await kit()).device;
  const p = buildGpuProcessor(fromWire(wire), options);
  const luts = uploadOcioLuts(device, p);
  const io = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'read-only-storage' } },
      { binding: 1, visibility: GPUShaderStage.COMPUTE, buffer: { type: 'storage' } },
    ],
  });
  const lutLayout = device.createBindGroupLayout({ entries: ocioLutLayoutEntries() });
  const empty = device.createBindGroupLayout({ entries: [] });
  device.pushErrorScope('validation');
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [io, empty, lutLayout] }),
    compute: { module: device.createShaderModule({ code: ocioLutsSrc + p.wgsl + APPLY_ENTRY }), entryPoint: 'main' },
  });
  const bytes = input.length * 4;
  const inBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
  const outBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const readBuf = device.createBuffer({ size: bytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(inBuf, 0, new Float32Array(input));
  const enc = device.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(pipeline);
  pass.setBindGroup(
    0,
    device.createBindGroup({
      layout: io,
      entries: [
        { binding: 0, resource: { buffer: inBuf } },
        { binding: 1, resource: { buffer: outBuf } },
      ],
    }),
  );
  pass.setBindGroup(1, device.createBindGroup({ layout: empty, entries: [] }));
  pass.setBindGroup(
    2,
    device.createBindGroup({
      layout: lutLayout,
      entries: [
        { binding: 5, resource: luts.lut1d.createView() },
        { binding: 6, resource: luts.lut3d.createView({ dimension: '3d' }) },
      ],
    }),
  );
  pass.dispatchWorkgroups(Math.ceil(input.length / 4 / 64));
  pass.end();
  enc.copyBufferToBuffer(outBuf, 0, readBuf, 0, bytes);
  device.queue.submit([enc.finish()]);
  const error = await device.popErrorScope();
  if (error) throw new Error(`${error.message}\n${p.wgsl}`);
  await readBuf.mapAsync(GPUMapMode.READ);
  const out = Array.from(new Float32Array(readBuf.getMappedRange()));
  readBuf.unmap();
  for (const b of [inBuf, outBuf, readBuf]) b.destroy();
  luts.lut1d.destroy();
  luts.lut3d.destroy();
  return { out, baked: p.bakedOpCount };
}

/** The preview's render pass at 1:1 through ShaderKit with the processor set: what the viewer shows, as rgba32float. */
async function previewThrough(wire: WireOp[], input: number[], w: number, h: number, params: Partial<DisplayParams>): Promise<number[]> {
  const k = await kit();
  const device = k.device;
  const ops = fromWire(wire);
  const p = buildGpuProcessor(ops);
  k.setOcio(p);
  const src = createMipTexture(device, w, h, 'ocio test input');
  device.queue.writeTexture({ texture: src }, new Float32Array(input), { bytesPerRow: w * 16 }, { width: w, height: h });
  const target = device.createTexture({
    size: [w, h],
    format: 'rgba32float',
    usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
  });
  const block = new UniformBlock(PREVIEW_VIEW_BYTES);
  packPreviewView(
    block,
    { ...DEFAULT_DISPLAY, ...params, ocio: { ops, key: p.key } },
    {
      originXPx: 0,
      originYPx: 0,
      texelsPerPx: 1,
      levelCount: 1,
      widthPx: w,
      heightPx: h,
      displayMinX: 0,
      displayMinY: 0,
      displayMaxX: w,
      displayMaxY: h,
      background: 0,
      viewFlags: FLAG_NEAREST,
    },
  );
  const ubuf = device.createBuffer({ size: PREVIEW_VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ubuf, 0, block.bytes);
  const enc = device.createCommandEncoder();
  const pass = enc.beginRenderPass({
    colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
  });
  pass.setPipeline(k.preview('rgba32float'));
  pass.setBindGroup(0, device.createBindGroup({ layout: k.previewViewLayout, entries: [{ binding: 0, resource: { buffer: ubuf } }] }));
  pass.setBindGroup(1, layerBindGroup(k, src));
  pass.setBindGroup(2, k.staticBindGroup);
  pass.draw(3);
  pass.end();
  const bytesPerRow = Math.ceil((w * 16) / 256) * 256;
  const readBuf = device.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  enc.copyTextureToBuffer({ texture: target }, { buffer: readBuf, bytesPerRow }, { width: w, height: h });
  device.queue.submit([enc.finish()]);
  await readBuf.mapAsync(GPUMapMode.READ);
  const all = new Float32Array(readBuf.getMappedRange());
  const out: number[] = [];
  for (let y = 0; y < h; y++) for (let i = 0; i < w * 4; i++) out.push(all[(y * bytesPerRow) / 4 + i]!);
  readBuf.unmap();
  for (const t of [src, target]) t.destroy();
  ubuf.destroy();
  readBuf.destroy();
  k.setOcio(null);
  return out;
}

const harness = { applyOnGpu, previewThrough };
declare global {
  interface Window {
    ocioHarness: typeof harness;
  }
}
window.ocioHarness = harness;
