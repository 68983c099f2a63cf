// In-page entry for the headless-Chromium tests: runs the real shaders and the real engine on synthetic data
// and hands results back to Playwright. Bundled by e2e/browser-gpu.spec.ts; not part of the app bundle.
import { DEFAULT_DISPLAY, FLAG_NEAREST, type DisplayParams } from '../../shaders/display-params.js';
import { PREVIEW_VIEW_BYTES, UniformBlock, packPreviewView } from '../../shaders/layouts.js';
import {
  HISTOGRAM_BYTES,
  createMipTexture,
  encodeHistogram,
  encodeMips,
  encodePreviewCompute,
  layerBindGroup,
  previewTargetBindGroup,
} from '../../shaders/passes.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import { halfToFloat, nextLevelSize } from '../../shaders/tonemap-cpu.js';
import { parseCube } from '../../shaders/lut-cube.js';
import type { LutShaper } from '../../shaders/lut-apply.js';
import type { DecodedImage, DecodedPlane, Thumbnail } from '../../renderer/host-client/api-types.js';
import { GpuEngine, type ImageKey } from '../../renderer/gpu/engine.js';
import type { LayerChoice } from '../../renderer/model/layer-choice.js';
import { statsSourceCode } from '../../shaders/compare-params.js';
import type { Region } from '../../shaders/compare-cpu.js';
import { SkippingHistograms } from '../../shaders/histogram-skip-gpu.js';

let kitPromise: Promise<ShaderKit> | null = null;
async function kit(): Promise<ShaderKit> {
  kitPromise ??= (async () => {
    const adapter = await navigator.gpu.requestAdapter();
    if (!adapter) throw new Error('no WebGPU adapter');
    return new ShaderKit(await adapter.requestDevice());
  })();
  return kitPromise;
}

function uploadRgba32(device: GPUDevice, data: Float32Array<ArrayBuffer>, w: number, h: number): GPUTexture {
  const texture = createMipTexture(device, w, h, 'test input');
  device.queue.writeTexture({ texture }, data, { bytesPerRow: w * 16 }, { width: w, height: h });
  return texture;
}

async function readTexture(device: GPUDevice, texture: GPUTexture, level: number, w: number, h: number): Promise<number[]> {
  const bytesPerRow = Math.ceil((w * 16) / 256) * 256;
  const buf = device.createBuffer({ size: bytesPerRow * h, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const enc = device.createCommandEncoder();
  enc.copyTextureToBuffer({ texture, mipLevel: level }, { buffer: buf, bytesPerRow }, { width: w, height: h });
  device.queue.submit([enc.finish()]);
  await buf.mapAsync(GPUMapMode.READ);
  const all = new Float32Array(buf.getMappedRange());
  const out: number[] = [];
  for (let y = 0; y < h; y++) for (let i = 0; i < w * 4; i++) out.push(all[(y * bytesPerRow) / 4 + i]!);
  buf.unmap();
  buf.destroy();
  return out;
}

/** Tone-maps w×h RGBA at 1:1 (nearest) through the preview pipeline into rgba32float and reads it back. */
async function toneMap(input: number[], w: number, h: number, params: Partial<DisplayParams>): Promise<number[]> {
  return toneMapVia('render pass', input, w, h, params);
}

/** Tone-maps through a .cube LUT (parsed in the page: what the app does with a file) on `shaper`, by either path. */
async function toneMapWithCube(
  input: number[],
  w: number,
  h: number,
  params: Partial<DisplayParams>,
  cubeText: string,
  shaper: LutShaper,
  path: 'render pass' | 'compute',
): Promise<number[]> {
  const lut = parseCube(cubeText);
  (await kit()).setLut(lut);
  try {
    return await toneMapVia(path, input, w, h, { ...params, lut: { lut, shaper, name: 'test' } });
  } finally {
    (await kit()).setLut(null);
  }
}

/** The same through the compute tone-map (target-compute.wgsl) into an rgba32float storage texture. */
async function toneMapCompute(input: number[], w: number, h: number, params: Partial<DisplayParams>): Promise<number[]> {
  return toneMapVia('compute', input, w, h, params);
}

async function toneMapVia(
  path: 'render pass' | 'compute',
  input: number[],
  w: number,
  h: number,
  params: Partial<DisplayParams>,
): Promise<number[]> {
  const k = await kit();
  const device = k.device;
  const src = uploadRgba32(device, new Float32Array(input), w, h);
  const target = device.createTexture({
    size: [w, h],
    format: 'rgba32float',
    usage: (path === 'compute' ? GPUTextureUsage.STORAGE_BINDING : GPUTextureUsage.RENDER_ATTACHMENT) | GPUTextureUsage.COPY_SRC,
  });
  const block = new UniformBlock(PREVIEW_VIEW_BYTES);
  packPreviewView(
    block,
    { ...DEFAULT_DISPLAY, ...params },
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
  const viewGroup = device.createBindGroup({ layout: k.previewViewLayout, entries: [{ binding: 0, resource: { buffer: ubuf } }] });
  if (path === 'compute') {
    encodePreviewCompute(k, enc, target, { view: viewGroup, image: layerBindGroup(k, src), target: previewTargetBindGroup(k, target) });
  } else {
    const pass = enc.beginRenderPass({
      colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store', clearValue: [0, 0, 0, 0] }],
    });
    pass.setPipeline(k.preview('rgba32float'));
    pass.setBindGroup(0, viewGroup);
    pass.setBindGroup(1, layerBindGroup(k, src));
    pass.setBindGroup(2, k.staticBindGroup);
    pass.draw(3);
    pass.end();
  }
  device.queue.submit([enc.finish()]);
  const out = await readTexture(device, target, 0, w, h);
  src.destroy();
  target.destroy();
  ubuf.destroy();
  return out;
}

/** Builds the MIP chain of w×h RGBA on the GPU and reads every level back. */
async function mips(input: number[], w: number, h: number): Promise<{ widthPx: number; heightPx: number; data: number[] }[]> {
  const k = await kit();
  const src = uploadRgba32(k.device, new Float32Array(input), w, h);
  const enc = k.device.createCommandEncoder();
  encodeMips(k, enc, src);
  k.device.queue.submit([enc.finish()]);
  const levels = [];
  let lw = w,
    lh = h;
  for (let l = 0; l < src.mipLevelCount; l++) {
    levels.push({ widthPx: lw, heightPx: lh, data: await readTexture(k.device, src, l, lw, lh) });
    lw = nextLevelSize(lw);
    lh = nextLevelSize(lh);
  }
  src.destroy();
  return levels;
}

async function histogram(input: number[], w: number, h: number): Promise<number[]> {
  const k = await kit();
  const src = uploadRgba32(k.device, new Float32Array(input), w, h);
  const bins = k.device.createBuffer({
    size: HISTOGRAM_BYTES,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const read = k.device.createBuffer({ size: HISTOGRAM_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = k.device.createCommandEncoder();
  encodeHistogram(k, enc, src, 0, bins);
  enc.copyBufferToBuffer(bins, 0, read, 0, HISTOGRAM_BYTES);
  k.device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = [...new Uint32Array(read.getMappedRange())];
  read.unmap();
  src.destroy();
  bins.destroy();
  read.destroy();
  return out;
}

// ---- engine scenarios on synthetic decoded images ----

function halfBits(v: number): number {
  const f = new Float32Array([v]);
  const x = new Uint32Array(f.buffer)[0]!;
  const sign = (x >>> 16) & 0x8000;
  const e = ((x >>> 23) & 0xff) - 127 + 15;
  if (e >= 31) return sign | 0x7c00;
  if (e <= 0) return sign;
  return sign | (e << 10) | ((x >>> 13) & 0x3ff);
}

/** A synthetic decoded image: half R, G, B, A planes; R a horizontal ramp scaled by `gain`. */
export function syntheticImage(fileId: string, w: number, h: number, gain: number): DecodedImage {
  const planes: DecodedPlane[] = ['R', 'G', 'B', 'A'].map((name, c) => {
    const d = new Uint16Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) d[y * w + x] = halfBits(c === 3 ? 1 : gain * ((x + 1) / w) * (c === 0 ? 1 : 0.5));
    return { name, pixelType: 'half', xSampling: 1, ySampling: 1, widthSamples: w, heightSamples: h, data: d.buffer };
  });
  return {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: [0, 0, w - 1, h - 1],
    displayWindow: [0, 0, w - 1, h - 1],
    widthPx: w,
    heightPx: h,
    planes,
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
  };
}

/** Where the engine scenarios' images come from, as the host is for the app. */
export class SyntheticSource {
  loads = 0;
  constructor(private readonly sizePx: number) {}
  async loadImage(key: ImageKey): Promise<DecodedImage> {
    this.loads++;
    return syntheticImage(key.fileId, this.sizePx, this.sizePx, 1 + Number(key.fileId.replace(/\D/g, '') || 0));
  }
  async loadThumbnail(fileId: string): Promise<Thumbnail> {
    const img = syntheticImage(fileId, 32, 32, 1);
    const rgba = new Uint16Array(32 * 32 * 4);
    const p = img.planes.map((pl) => new Uint16Array(pl.data));
    for (let i = 0; i < 32 * 32; i++) for (let c = 0; c < 4; c++) rgba[i * 4 + c] = p[c]![i]!;
    return { fileId, widthPx: 32, heightPx: 32, rgbaHalf: rgba.buffer, source: 'full-decode', timings: img.timings };
  }
}

/** As the app's click path does: the engine says what it lacks, the source's image is handed over with the show. */
async function showFrom(source: SyntheticSource, engine: GpuEngine, key: ImageKey, choice: LayerChoice) {
  return engine.show(key, choice, engine.lacks(key, choice).length ? await source.loadImage(key) : null);
}
async function referenceFrom(source: SyntheticSource, engine: GpuEngine, key: ImageKey, choice: LayerChoice) {
  return engine.setReference(key, choice, engine.lacks(key, choice).length ? await source.loadImage(key) : null);
}

const RGBA = { slots: ['R', 'G', 'B', 'A'], mode: 'direct' as const };

/** Mean red of a canvas as the engine drew it, from a copy of the canvas texture. */
async function canvasMean(engine: GpuEngine, which: 'preview' | 'grid'): Promise<number> {
  const c = await engine.capture(which);
  const red = c.format.startsWith('bgra') ? 2 : 0;
  let sum = 0;
  for (let y = 0; y < c.heightPx; y++) for (let x = 0; x < c.widthPx; x++) sum += c.data[y * c.bytesPerRow + x * 4 + red]!;
  return sum / (c.widthPx * c.heightPx);
}

const frame = (): Promise<void> => new Promise((r) => requestAnimationFrame(() => r()));

async function makeEngine(
  sizePx: number,
  budgetBytes: number,
): Promise<{ engine: GpuEngine; source: SyntheticSource; canvas: HTMLCanvasElement }> {
  const source = new SyntheticSource(sizePx);
  const engine = await GpuEngine.create({ budgetBytes });
  const canvas = document.createElement('canvas');
  canvas.width = 128;
  canvas.height = 128;
  document.body.appendChild(canvas);
  engine.attachPreview(canvas);
  engine.setPanZoom({ zoom: 128 / sizePx, centerX: sizePx / 2, centerY: sizePx / 2 });
  return { engine, source, canvas };
}

/** Parameter changes: exposure, transform, channel view → no upload, no load; a new layer → a rebuild, no upload. */
async function engineNoUploadOnParams(): Promise<Record<string, unknown>> {
  const { engine, source, canvas } = await makeEngine(128, 64 << 20);
  const first = await showFrom(source, engine, { fileId: 'img1', part: 0 }, RGBA);
  await engine.device.queue.onSubmittedWorkDone();
  await frame();
  const meanAt0 = await canvasMean(engine, 'preview');
  const uploadsAfterShow = engine.stats().imageUploads;
  const transforms = ['srgb', 'aces', 'agx', 'pbr-neutral', 'reinhard', 'rec709'] as const;
  for (let i = 0; i < 30; i++) {
    engine.setDisplay({
      ...DEFAULT_DISPLAY,
      exposureEv: i * 0.1,
      transform: transforms[i % transforms.length]!,
      channelView: i % 2 ? 'rgb' : 'r',
    });
    await frame();
  }
  engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 2 });
  await frame();
  await frame();
  await engine.device.queue.onSubmittedWorkDone();
  const meanAt2 = await canvasMean(engine, 'preview');
  const layerSwitch = await showFrom(source, engine, { fileId: 'img1', part: 0 }, { slots: ['G', 'G', 'G', null], mode: 'direct' });
  const again = await showFrom(source, engine, { fileId: 'img1', part: 0 }, RGBA);
  const s = engine.stats();
  engine.dispose();
  canvas.remove();
  return {
    firstSource: first.source,
    uploadsAfterShow,
    uploadsAfter: s.imageUploads,
    loads: source.loads,
    meanAt0,
    meanAt2,
    layerSwitch: { source: layerSwitch.source, built: layerSwitch.layerBuilt },
    again: { source: again.source, built: again.layerBuilt },
    frames: s.frames,
  };
}

/** Cache under a budget that holds two 128² images: showing four evicts the oldest, never the one on screen. */
async function engineEviction(): Promise<Record<string, unknown>> {
  // a budget that holds the first image: a show that cannot fit at all is refused, saying so (texture-cache makeRoom)
  const { engine, source, canvas } = await makeEngine(128, 64 << 20);
  const one = await showFrom(source, engine, { fileId: 'img1', part: 0 }, RGBA);
  const perImage = engine.stats().cache.bytes;
  // each image is cached as its planes and its layer's MIP chain: one entry each
  const entriesPerImage = engine.stats().cache.entries;
  engine.setBudget(perImage * 2 + 1);
  for (const id of ['img2', 'img3', 'img4']) await showFrom(source, engine, { fileId: id, part: 0 }, RGBA);
  const s1 = engine.stats();
  const cached = ['img1', 'img2', 'img3', 'img4'].map((id) => engine.isCached({ fileId: id, part: 0 }));
  const back = await showFrom(source, engine, { fileId: 'img3', part: 0 }, RGBA);
  const s2 = engine.stats();
  engine.setBudget(1);
  const s3 = engine.stats();
  const onScreenKept = engine.isCached({ fileId: 'img3', part: 0 });
  engine.dispose();
  canvas.remove();
  return {
    perImage,
    entriesPerImage,
    firstSource: one.source,
    evictionsAfter4: s1.cache.evictions,
    bytesAfter4: s1.cache.bytes,
    budget: perImage * 2 + 1,
    cached,
    backSource: back.source,
    hits: s2.cache.hits,
    loads: source.loads,
    entriesAtTinyBudget: s3.cache.entries,
    onScreenKept,
  };
}

/**
 * Two shows in flight, as a frame at rest and the next one scrubbed to: the earlier needs an upload, the later is a
 * cache hit and lands first. The image on screen (drawn, and the one the figures measure) is the later one's.
 */
async function engineLateShow(): Promise<Record<string, unknown>> {
  const { engine, source, canvas } = await makeEngine(128, 64 << 20);
  const earlier = { fileId: 'img1', part: 0 };
  const later = { fileId: 'img2', part: 0 };
  await showFrom(source, engine, later, RGBA);
  await frame();
  const laterMean = await canvasMean(engine, 'preview');
  const earlierPlanes = await source.loadImage(earlier);
  const landed: string[] = [];
  await Promise.all([
    engine.show(earlier, RGBA, earlierPlanes).then(() => landed.push('img1')),
    engine.show(later, RGBA, null).then(() => landed.push('img2')),
  ]);
  await frame();
  const result = {
    shown: engine.shownFileId(),
    landed,
    earlierCached: engine.isCached(earlier),
    laterMean,
    meanAfter: await canvasMean(engine, 'preview'),
  };
  engine.dispose();
  canvas.remove();
  return result;
}

/** The file on screen written again: its textures are forgotten, yet it stays drawn until its new version replaces it. */
async function engineRefreshKeepsScreen(): Promise<Record<string, unknown>> {
  const { engine, source, canvas } = await makeEngine(128, 64 << 20);
  const key = { fileId: 'img1', part: 0 };
  await showFrom(source, engine, key, RGBA);
  await frame();
  const before = await canvasMean(engine, 'preview');
  engine.forgetFile('img1');
  engine.invalidate();
  await frame();
  const whileForgotten = await canvasMean(engine, 'preview');
  const lacksAfterForget = engine.lacks(key, RGBA).length;
  // the new version: other pixels (img3's, brighter) under the same file id
  const rewritten = { ...(await source.loadImage({ fileId: 'img3', part: 0 })), fileId: 'img1' };
  await engine.show(key, RGBA, rewritten);
  await frame();
  const after = await canvasMean(engine, 'preview');
  const result = { before, whileForgotten, lacksAfterForget, after, shown: engine.shownFileId(), entries: engine.stats().cache.entries };
  engine.dispose();
  canvas.remove();
  return result;
}

/** device.destroy() → the engine gets a new device, reloads the image from its source, and draws it again. */
async function engineDeviceLoss(): Promise<Record<string, unknown>> {
  const { engine, source, canvas } = await makeEngine(64, 64 << 20);
  engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 1 });
  await showFrom(source, engine, { fileId: 'img5', part: 0 }, RGBA);
  await engine.device.queue.onSubmittedWorkDone();
  await frame();
  const before = await canvasMean(engine, 'preview');
  const oldDevice = engine.device;
  // the new device holds nothing: the image is handed over again, as the app's controller does
  const restoredEvent = new Promise<void>((r) => {
    engine.onDeviceRestored = () => void showFrom(source, engine, { fileId: 'img5', part: 0 }, RGBA).then(() => r());
  });
  oldDevice.destroy();
  await restoredEvent;
  await engine.device.queue.onSubmittedWorkDone();
  await frame();
  await frame();
  const after = await canvasMean(engine, 'preview');
  const s = engine.stats();
  const result = {
    before,
    after,
    newDevice: engine.device !== oldDevice,
    deviceLosses: s.deviceLosses,
    reason: s.lastLossReason,
    loads: source.loads,
    uploads: s.imageUploads,
  };
  engine.dispose();
  canvas.remove();
  return result;
}

/** The grid: thumbnails drawn in one pass; exposure changes redraw without uploading. */
async function engineGrid(): Promise<Record<string, unknown>> {
  const source = new SyntheticSource(32);
  const engine = await GpuEngine.create({ budgetBytes: 64 << 20 });
  const canvas = document.createElement('canvas');
  canvas.width = 256;
  canvas.height = 64;
  document.body.appendChild(canvas);
  engine.attachGrid(canvas);
  for (const id of ['a', 'b', 'c', 'd']) engine.putThumbnail(id, await source.loadThumbnail(id));
  engine.setGridCells(['a', 'b', 'c', 'd'].map((fileId, i) => ({ fileId, xPx: i * 64, yPx: 0, widthPx: 64, heightPx: 64 })));
  await frame();
  await engine.device.queue.onSubmittedWorkDone();
  const mean0 = await canvasMean(engine, 'grid');
  const uploads0 = engine.stats().thumbUploads;
  engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 3 });
  await frame();
  await engine.device.queue.onSubmittedWorkDone();
  const mean3 = await canvasMean(engine, 'grid');
  const r = { drawn: engine.drawnCells, mean0, mean3, uploads0, uploads3: engine.stats().thumbUploads };
  engine.dispose();
  canvas.remove();
  return r;
}

/**
 * The engine's two tone-map paths on the same image and view: an rgba8unorm canvas (compute, in core WebGPU) and a
 * forced render pass; both canvases read back, plus the paths, reasons and the staging-ring upload figures.
 */
async function engineToneMapPaths(): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const captures: CanvasCaptureLike[] = [];
  for (const [name, options] of [
    ['compute', { canvasFormat: 'rgba8unorm' as const }],
    ['renderPass', { canvasFormat: 'rgba8unorm' as const, toneMapPath: 'render pass' as const }],
  ] as const) {
    const source = new SyntheticSource(96);
    const engine = await GpuEngine.create({ budgetBytes: 64 << 20, ...options });
    const canvas = document.createElement('canvas');
    canvas.width = 80;
    canvas.height = 60;
    document.body.appendChild(canvas);
    engine.attachPreview(canvas);
    // zoomed out (trilinear from the MIP chain) with outlines: every branch of previewPixel in one frame
    engine.setPanZoom({ zoom: 0.6, centerX: 48, centerY: 48 });
    engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 1.5, transform: 'aces' });
    const shown = await showFrom(source, engine, { fileId: 'img2', part: 0 }, RGBA);
    await engine.device.queue.onSubmittedWorkDone();
    await frame();
    await frame();
    const c = await engine.capture('preview');
    captures.push(c);
    const s = engine.stats();
    out[name] = {
      toneMapPath: s.toneMapPath,
      reason: s.toneMapPathReason,
      uploader: s.uploader,
      uploads: s.imageUploads,
      lastUpload: s.lastUpload,
      show: { path: shown.uploadPath, bytes: shown.uploadBytes, wallMs: shown.uploadWallMs, GBps: shown.uploadGBps },
      format: c.format,
      toneMapGpuMs: s.toneMapGpuMs,
    };
    engine.dispose();
    canvas.remove();
  }
  const [a, b] = captures as [CanvasCaptureLike, CanvasCaptureLike];
  let maxDiff = 0,
    sum = 0;
  for (let y = 0; y < a.heightPx; y++)
    for (let x = 0; x < a.widthPx * 4; x++) {
      const d = Math.abs(a.data[y * a.bytesPerRow + x]! - b.data[y * b.bytesPerRow + x]!);
      maxDiff = Math.max(maxDiff, d);
      sum += a.data[y * a.bytesPerRow + x]!;
    }
  return { ...out, maxDiff, meanCompute: sum / (a.widthPx * a.heightPx * 4), size: [a.widthPx, a.heightPx] };
}
type CanvasCaptureLike = { widthPx: number; heightPx: number; bytesPerRow: number; data: Uint8Array };

/** The engine on the preferred canvas format: which tone-map path it chose for this adapter, and why. */
async function engineDefaultPath(): Promise<Record<string, unknown>> {
  const engine = await GpuEngine.create({ budgetBytes: 1 << 20 });
  const s = engine.stats();
  const r = {
    format: engine.canvasFormat,
    toneMapPath: s.toneMapPath,
    reason: s.toneMapPathReason,
    features: s.features,
    uploader: s.uploader,
  };
  engine.dispose();
  return r;
}

/**
 * HDR output: the support probe as the display would say it is SDR and HDR; where the canvas keeps extended tone
 * mapping, the preview drawn through the HDR path and read back from the rgba16float canvas texture.
 */
async function engineHdr(): Promise<Record<string, unknown>> {
  const sdr = await GpuEngine.create({ budgetBytes: 1 << 20, assumeHdrMedia: false });
  const mediaStandard = sdr.hdrSupport();
  sdr.dispose();
  const source = new SyntheticSource(96);
  const engine = await GpuEngine.create({ budgetBytes: 64 << 20, assumeHdrMedia: true });
  const mediaHigh = engine.hdrSupport();
  const out: Record<string, unknown> = { mediaStandard, mediaHigh };
  const canvas = document.createElement('canvas');
  canvas.width = 96;
  canvas.height = 96;
  document.body.appendChild(canvas);
  engine.attachPreview(canvas);
  engine.setPanZoom({ zoom: 1, centerX: 48, centerY: 48 });
  // +3 EV: the synthetic ramp goes well above 1, which SDR clamps and HDR must not
  engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 3, hdr: { paperWhiteNits: 203, peakNits: 1000, rollOff: false } });
  out.previewFormatOn = engine.previewFormat;
  await showFrom(source, engine, { fileId: 'img2', part: 0 }, RGBA);
  await frame();
  await frame();
  const c = await engine.capture('preview');
  out.captureFormat = c.format;
  if (c.format === 'rgba16float') {
    const halves = new Uint16Array(c.data.buffer, c.data.byteOffset, c.data.byteLength / 2);
    let max = 0;
    for (let y = 0; y < c.heightPx; y++)
      for (let x = 0; x < c.widthPx; x++)
        for (let k = 0; k < 3; k++) max = Math.max(max, halfToFloat(halves[(y * c.bytesPerRow) / 2 + x * 4 + k]!));
    out.maxCanvasValue = max;
  }
  engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: 3 });
  out.previewFormatOff = engine.previewFormat;
  out.sdrFormat = engine.canvasFormat;
  engine.dispose();
  canvas.remove();
  return out;
}

/**
 * The histogram of MIP level `level` of w×h RGBA with the texels over `holes` (missing pixels) left out, by the
 * skipping pass; with the level's texels as the GPU reduced them, for the CPU reference to count.
 */
async function histogramSkipping(
  input: number[],
  w: number,
  h: number,
  holes: Region[],
  level: number,
): Promise<{ bins: number[]; texels: number[]; widthPx: number; heightPx: number }> {
  const k = await kit();
  const src = uploadRgba32(k.device, new Float32Array(input), w, h);
  const skipping = new SkippingHistograms(k.device);
  const bins = k.device.createBuffer({
    size: HISTOGRAM_BYTES,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST,
  });
  const read = k.device.createBuffer({ size: HISTOGRAM_BYTES, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  const enc = k.device.createCommandEncoder();
  encodeMips(k, enc, src);
  skipping.encodeLayer(enc, src, level, bins, holes);
  enc.copyBufferToBuffer(bins, 0, read, 0, HISTOGRAM_BYTES);
  k.device.queue.submit([enc.finish()]);
  await read.mapAsync(GPUMapMode.READ);
  const out = [...new Uint32Array(read.getMappedRange())];
  read.unmap();
  const widthPx = Math.max(1, w >> level),
    heightPx = Math.max(1, h >> level);
  const texels = await readTexture(k.device, src, level, widthPx, heightPx);
  for (const r of [src, bins, read]) r.destroy();
  skipping.destroy();
  return { bins: out, texels, widthPx, heightPx };
}

/** The HDR path of the tone-map into an rgba32float target (no canvas involved): values above 1 kept. */
async function toneMapHdr(input: number[], w: number, h: number, params: Partial<DisplayParams>): Promise<number[]> {
  return toneMapVia('render pass', input, w, h, params);
}

declare global {
  interface Window {
    gpuHarness: Record<string, (...args: never[]) => Promise<unknown>>;
  }
}
window.gpuHarness = {
  toneMap,
  toneMapCompute,
  toneMapWithCube,
  mips,
  histogram,
  histogramSkipping,
  engineNoUploadOnParams,
  engineEviction,
  engineLateShow,
  engineRefreshKeepsScreen,
  engineDeviceLoss,
  engineGrid,
  engineToneMapPaths,
  engineDefaultPath,
  engineHdr,
  toneMapHdr,
};

/** Bench: exposure scrubbing on a 4K image (per step: exposure change → GPU done), uploads it caused, cached show time. */
async function benchScrub(widthPx: number, heightPx: number, steps: number): Promise<Record<string, unknown>> {
  const source = new SyntheticSource(0);
  source.loadImage = async (key) => {
    source.loads++;
    return syntheticImage(key.fileId, widthPx, heightPx, 2);
  };
  const engine = await GpuEngine.create({ budgetBytes: 2048 * 2 ** 20 });
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  document.body.appendChild(canvas);
  engine.attachPreview(canvas);
  engine.setPanZoom({ zoom: Math.min(1280 / widthPx, 720 / heightPx), centerX: widthPx / 2, centerY: heightPx / 2 });
  const t0 = performance.now();
  const first = await showFrom(source, engine, { fileId: 'a', part: 0 }, RGBA);
  await engine.device.queue.onSubmittedWorkDone();
  const firstShowMs = performance.now() - t0;
  const uploadsBefore = engine.stats().imageUploads;
  const stepMs: number[] = [];
  const gpuMs: number[] = [];
  for (let i = 0; i < steps; i++) {
    const s0 = performance.now();
    engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: Math.sin(i / 5) * 4 });
    await frame();
    await engine.device.queue.onSubmittedWorkDone();
    stepMs.push(performance.now() - s0);
    gpuMs.push(engine.stats().toneMapGpuMs);
  }
  const uploadsCaused = engine.stats().imageUploads - uploadsBefore;
  await showFrom(source, engine, { fileId: 'b', part: 0 }, RGBA);
  await engine.device.queue.onSubmittedWorkDone();
  const cached: number[] = [];
  for (let i = 0; i < 5; i++) {
    const c0 = performance.now();
    const r = await showFrom(source, engine, { fileId: i % 2 ? 'b' : 'a', part: 0 }, RGBA);
    await engine.device.queue.onSubmittedWorkDone();
    if (r.source !== 'gpu-cache') throw new Error('bench: expected a GPU cache hit');
    cached.push(performance.now() - c0);
  }
  const s = engine.stats();
  engine.dispose();
  canvas.remove();
  return {
    stepMs,
    gpuMs,
    uploadsCaused,
    cachedShowMs: cached,
    firstShowMs,
    firstUploadBytes: first.uploadBytes,
    mipGpuMs: s.mipGpuMs,
    adapter: s.adapter,
    loads: source.loads,
  };
}
window.gpuHarness.benchScrub = benchScrub as never;

/**
 * Comparing two images as the app does: A shown, B the reference, then mode and exposure changes in turn (every compare
 * mode, the exposure swept), each step timed from the change to the GPU finishing the frame; then the metrics and the
 * statistics of a difference image over the whole pair. Loads and uploads caused by the steps are counted (must be 0).
 */
async function benchCompareScrub(widthPx: number, heightPx: number, steps: number): Promise<Record<string, unknown>> {
  const source = new SyntheticSource(0);
  source.loadImage = async (key) => {
    source.loads++;
    return syntheticImage(key.fileId, widthPx, heightPx, 2);
  };
  const engine = await GpuEngine.create({ budgetBytes: 2048 * 2 ** 20 });
  const canvas = document.createElement('canvas');
  canvas.width = 1280;
  canvas.height = 720;
  document.body.appendChild(canvas);
  engine.attachPreview(canvas);
  const panZoom = { zoom: Math.min(1280 / widthPx, 720 / heightPx), centerX: widthPx / 2, centerY: heightPx / 2 };
  engine.setPanZoom(panZoom);
  await showFrom(source, engine, { fileId: 'a', part: 0 }, RGBA);
  await referenceFrom(source, engine, { fileId: 'b', part: 0 }, RGBA);
  await engine.device.queue.onSubmittedWorkDone();
  const before = engine.stats();
  const loadsBefore = source.loads;
  const modes = [
    'absolute-error',
    'error',
    'squared-error',
    'relative-absolute-error',
    'relative-squared-error',
    'flip',
    'wipe',
    'side-by-side',
  ] as const;
  const view = {
    mode: 'absolute-error' as (typeof modes)[number],
    showB: false,
    wipeFraction: 0.5,
    wipeAxis: 'x' as const,
    colormap: 0,
    rangeMin: 0,
    rangeMax: 1,
  };
  const modeMs: number[] = [],
    exposureMs: number[] = [],
    gpuMs: number[] = [];
  for (let i = 0; i < steps; i++) {
    const s0 = performance.now();
    if (i % 2) engine.setDisplay({ ...DEFAULT_DISPLAY, exposureEv: Math.sin(i / 5) * 4 });
    else engine.setCompareView({ ...view, mode: modes[(i / 2) % modes.length]! });
    await frame();
    await engine.device.queue.onSubmittedWorkDone();
    (i % 2 ? exposureMs : modeMs).push(performance.now() - s0);
    gpuMs.push(engine.stats().toneMapGpuMs);
  }
  const after = engine.stats();
  const region = { x0: 0, y0: 0, widthPx, heightPx };
  const metricsGpuMs: number[] = [],
    statsGpuMs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const m = await engine.metrics(region, 0);
    const s = await engine.statistics(region, statsSourceCode({ kind: 'difference', mode: 'absolute-error' }));
    metricsGpuMs.push(m?.gpuMs ?? NaN);
    statsGpuMs.push(s?.gpuMs ?? NaN);
  }
  engine.dispose();
  canvas.remove();
  return {
    modeMs,
    exposureMs,
    gpuMs,
    metricsGpuMs,
    statsGpuMs,
    adapter: after.adapter,
    loadsCaused: source.loads - loadsBefore,
    uploadsCaused: after.imageUploads - before.imageUploads,
    compareFrames: after.compare.compareFrames - before.compare.compareFrames,
  };
}
window.gpuHarness.benchCompareScrub = benchCompareScrub as never;
