// In-page entry for the compare shader tests in headless Chromium: the compare pass, the metrics and statistics
// reductions on synthetic RGBA, results handed back to Playwright (e2e/compare-gpu.spec.ts bundles it).
import { DEFAULT_DISPLAY, FLAG_NEAREST, type DisplayParams } from '../../shaders/display-params.js';
import { COMPARE_VIEW_BYTES, packCompareView, parseMetrics, parseStats, type CompareGeometry } from '../../shaders/compare-layouts.js';
import { CompareKit, ReduceBuffers, encodeCompare } from '../../shaders/compare-kit.js';
import { PALETTE_BYTES, UniformBlock, packPalette } from '../../shaders/layouts.js';
import { HISTOGRAM_BYTES, createMipTexture } from '../../shaders/passes.js';
import { PairHistogramPass } from '../../shaders/pair-histogram.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import type { Region } from '../../shaders/compare-cpu.js';

interface LayerIn {
  rgba: number[];
  x0: number;
  y0: number;
  widthPx: number;
  heightPx: number;
}

let kitPromise: Promise<CompareKit> | null = null;
async function compareKit(): Promise<CompareKit> {
  kitPromise ??= (async () => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    const device = await adapter.requestDevice();
    device.addEventListener('uncapturederror', (e) => console.error('WebGPU error:', (e as GPUUncapturedErrorEvent).error.message));
    const ck = new CompareKit(new ShaderKit(device));
    const palette = new UniformBlock(PALETTE_BYTES);
    packPalette(palette);
    ck.writePalette(palette);
    return ck;
  })();
  return kitPromise;
}

function upload(device: GPUDevice, l: LayerIn): GPUTexture {
  const t = createMipTexture(device, l.widthPx, l.heightPx, 'compare input');
  device.queue.writeTexture(
    { texture: t },
    new Float32Array(l.rgba),
    { bytesPerRow: l.widthPx * 16 },
    { width: l.widthPx, height: l.heightPx },
  );
  return t;
}

const placement = (a: LayerIn, b: LayerIn) => ({
  aX0: a.x0,
  aY0: a.y0,
  aWidthPx: a.widthPx,
  aHeightPx: a.heightPx,
  bX0: b.x0,
  bY0: b.y0,
  bWidthPx: b.widthPx,
  bHeightPx: b.heightPx,
});

async function reduce(
  kind: 'metrics' | 'stats',
  a: LayerIn,
  b: LayerIn,
  region: Region,
  options: { valueMode?: number; threshold?: number },
): Promise<ArrayBuffer> {
  const ck = await compareKit();
  const d = ck.device;
  const ta = upload(d, a),
    tb = upload(d, b);
  const buffers = new ReduceBuffers(ck, kind);
  const enc = d.createCommandEncoder();
  buffers.encode(enc, ta, tb, region, placement(a, b), options);
  d.queue.submit([enc.finish()]);
  const bytes = await buffers.readBack();
  buffers.destroy();
  ta.destroy();
  tb.destroy();
  return bytes;
}

async function metrics(a: LayerIn, b: LayerIn, region: Region, threshold = 0): Promise<unknown> {
  return parseMetrics(await reduce('metrics', a, b, region, { threshold }), region);
}

async function stats(a: LayerIn, b: LayerIn, region: Region, valueMode: number): Promise<unknown> {
  return parseStats(await reduce('stats', a, b, region, { valueMode }));
}

/** The histogram of A, B or a difference image's magnitude (histogram-pair.wgsl) over `region`: [luma, R, G, B] × 256. */
async function pairHistogram(a: LayerIn, b: LayerIn, region: Region, valueMode: number, step: number): Promise<number[]> {
  const ck = await compareKit();
  const d = ck.device;
  const ta = upload(d, a),
    tb = upload(d, b);
  const pass = new PairHistogramPass(ck);
  const bins = d.createBuffer({ size: HISTOGRAM_BYTES, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const read = d.createBuffer({ size: HISTOGRAM_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = d.createCommandEncoder();
  pass.encode(enc, ta, tb, region, placement(a, b), valueMode, bins, step);
  enc.copyBufferToBuffer(bins, 0, read, 0, HISTOGRAM_BYTES);
  d.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = [...new Uint32Array(read.getMappedRange())];
  read.unmap();
  pass.destroy();
  bins.destroy();
  read.destroy();
  ta.destroy();
  tb.destroy();
  return out;
}

/** The compare pass at 1:1 over a w×h rgba32float target (both images' data windows at the target's origin + x0/y0). */
async function comparePass(
  a: LayerIn,
  b: LayerIn,
  w: number,
  h: number,
  params: Partial<DisplayParams>,
  g: Pick<CompareGeometry, 'show' | 'colormap' | 'rangeMin' | 'rangeMax'> & Partial<CompareGeometry>,
  path: 'render' | 'compute',
): Promise<number[]> {
  const ck = await compareKit();
  const d = ck.device;
  const ta = upload(d, a),
    tb = upload(d, b);
  const target = d.createTexture({
    size: [w, h],
    format: 'rgba32float',
    usage: (path === 'compute' ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.RENDER_ATTACHMENT) | GPUTextureUsage.COPY_SRC,
  });
  const block = new UniformBlock(COMPARE_VIEW_BYTES);
  packCompareView(
    block,
    { ...DEFAULT_DISPLAY, ...params },
    {
      a: { originXPx: a.x0, originYPx: a.y0, widthPx: a.widthPx, heightPx: a.heightPx, levelCount: 1 },
      b: { originXPx: b.x0, originYPx: b.y0, widthPx: b.widthPx, heightPx: b.heightPx, levelCount: 1 },
      texelsPerPx: 1,
      displayMinX: 0,
      displayMinY: 0,
      displayMaxX: a.widthPx,
      displayMaxY: a.heightPx,
      background: 0,
      viewFlags: FLAG_NEAREST,
      splitAxis: 'x',
      splitPx: w / 2,
      ...g,
    },
  );
  const ubuf = d.createBuffer({ size: COMPARE_VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  d.queue.writeBuffer(ubuf, 0, block.bytes);
  const view = d.createBindGroup({ layout: ck.viewLayout, entries: [{ binding: 0, resource: { buffer: ubuf } }] });
  const enc = d.createCommandEncoder();
  const targetGroup =
    path === 'compute'
      ? d.createBindGroup({ layout: ck.kit.previewTargetLayout('rgba32float'), entries: [{ binding: 0, resource: target.createView() }] })
      : undefined;
  encodeCompare(ck, enc, target, { view, pair: ck.pairGroup(ta, tb), ...(targetGroup ? { target: targetGroup } : {}) });
  const bytesPerRow = Math.ceil((w * 16) / 256) * 256;
  const buf = d.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  enc.copyTextureToBuffer({ texture: target }, { buffer: buf, bytesPerRow }, { width: w, height: h });
  d.queue.submit([enc.finish()]);
  await buf.mapAsync(GPUMapMode.READ);
  const all = new Float32Array(buf.getMappedRange());
  const out: number[] = [];
  for (let y = 0; y < h; y++) for (let i = 0; i < w * 4; i++) out.push(all[(y * bytesPerRow) / 4 + i]!);
  buf.unmap();
  buf.destroy();
  ta.destroy();
  tb.destroy();
  target.destroy();
  ubuf.destroy();
  return out;
}

declare global {
  interface Window {
    compareHarness: Record<string, (...args: never[]) => Promise<unknown>>;
  }
}
window.compareHarness = { metrics, stats, comparePass, pairHistogram } as never;
