// The compare bench: GPU time of comparing two 4K layers as the viewer does on a mode or exposure change (the compare
// pass drawing a difference image into a 4K target, render and compute paths) and of the metrics and statistics
// reductions over the pair, with the CPU reference's time for the same work beside them. The inputs are made once and
// uploaded once (through a buffer: see ../shared/GPU.md on writeTexture); nothing here is uploaded per run.
import { CompareKit, ReduceBuffers, encodeCompare } from '../../shaders/compare-kit.js';
import { COMPARE_VIEW_BYTES, packCompareView, parseMetrics, type ReducePlacement } from '../../shaders/compare-layouts.js';
import { differenceCode, statsSourceCode, SHOW_METRIC_BASE } from '../../shaders/compare-params.js';
import { metricsReference, statsReference, type Region } from '../../shaders/compare-cpu.js';
import { DEFAULT_DISPLAY, FLAG_NEAREST } from '../../shaders/display-params.js';
import { PALETTE_BYTES, UniformBlock, packPalette } from '../../shaders/layouts.js';
import { createMipTexture } from '../../shaders/passes.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import { GpuTimer, median, type DawnDevice } from './dawn.js';

export interface CompareBenchOptions {
  quick: boolean;
  log: (msg: string) => void;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Random HDR RGBA rows (f32): negatives, values up to 1e4, and a sprinkle of NaN and ±Inf, with B = A plus noise so
 * that every metric has work. Rows repeat with a period of 61 to keep the making cheap; the values still vary per pixel.
 */
function makePair(widthPx: number, heightPx: number): { a: Float32Array; b: Float32Array } {
  const n = widthPx * heightPx * 4;
  const a = new Float32Array(n),
    b = new Float32Array(n);
  let s = 12345;
  const rnd = () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
  const period = 61 * widthPx * 4;
  for (let i = 0; i < Math.min(n, period); i++) {
    const r = rnd();
    a[i] = r < 0.001 ? NaN : r < 0.002 ? Infinity : r < 0.003 ? -Infinity : (rnd() - 0.2) * (r < 0.1 ? 1e4 : 4);
    b[i] = Number.isFinite(a[i]!) ? a[i]! + (rnd() - 0.5) * 0.05 : rnd();
  }
  for (let i = period; i < n; i++) {
    a[i] = a[i - period]!;
    b[i] = b[i - period]!;
  }
  return { a, b };
}

/** Level 0 of a MIP texture filled through a mapped staging buffer and copyBufferToTexture, in bands of rows. */
async function uploadLevel0(device: GPUDevice, texture: GPUTexture, rgba: Float32Array, widthPx: number, heightPx: number): Promise<void> {
  const rowBytes = widthPx * 16; // 3840 × 16 = 61,440: a multiple of 256, as copyBufferToTexture needs
  const bandRows = Math.max(1, Math.floor((16 << 20) / rowBytes));
  for (let y = 0; y < heightPx; y += bandRows) {
    const rows = Math.min(bandRows, heightPx - y);
    const staging = device.createBuffer({
      size: rows * rowBytes,
      usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.MAP_WRITE,
      mappedAtCreation: true,
    });
    new Float32Array(staging.getMappedRange()).set(rgba.subarray(y * widthPx * 4, (y + rows) * widthPx * 4));
    staging.unmap();
    const enc = device.createCommandEncoder();
    enc.copyBufferToTexture(
      { buffer: staging, bytesPerRow: rowBytes, rowsPerImage: rows },
      { texture, origin: { x: 0, y } },
      { width: widthPx, height: rows },
    );
    device.queue.submit([enc.finish()]);
    await device.queue.onSubmittedWorkDone();
    staging.destroy();
  }
}

export async function benchCompare(dawn: DawnDevice, opts: CompareBenchOptions): Promise<unknown> {
  const { device } = dawn;
  if (!dawn.timestamps) throw new Error('the adapter has no timestamp-query: GPU times cannot be measured');
  const widthPx = 3840,
    heightPx = 2160;
  const runs = opts.quick ? 5 : 30;
  opts.log(`compare: making two ${widthPx}×${heightPx} rgba32float layers`);
  const { a, b } = makePair(widthPx, heightPx);
  const ta = createMipTexture(device, widthPx, heightPx, 'bench A');
  const tb = createMipTexture(device, widthPx, heightPx, 'bench B');
  await uploadLevel0(device, ta, a, widthPx, heightPx);
  await uploadLevel0(device, tb, b, widthPx, heightPx);

  const ck = new CompareKit(new ShaderKit(device));
  const palette = new UniformBlock(PALETTE_BYTES);
  packPalette(palette);
  ck.writePalette(palette);
  const region: Region = { x0: 0, y0: 0, widthPx, heightPx };
  const at: ReducePlacement = {
    aX0: 0,
    aY0: 0,
    aWidthPx: widthPx,
    aHeightPx: heightPx,
    bX0: 0,
    bY0: 0,
    bWidthPx: widthPx,
    bHeightPx: heightPx,
  };
  const timer = new GpuTimer(device, 4);
  const metrics = new ReduceBuffers(ck, 'metrics');
  const stats = new ReduceBuffers(ck, 'stats');

  // the compare pass: absolute error at 1:1 into a 4K canvas-like target (rgba8unorm, as the canvas)
  const targetFormat: GPUTextureFormat = 'rgba8unorm';
  const renderTarget = device.createTexture({ size: [widthPx, heightPx], format: targetFormat, usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const computeTarget = device.createTexture({ size: [widthPx, heightPx], format: targetFormat, usage: GPUTextureUsage.STORAGE_BINDING });
  const computeGroup = device.createBindGroup({
    layout: ck.kit.previewTargetLayout(targetFormat),
    entries: [{ binding: 0, resource: computeTarget.createView() }],
  });
  const block = new UniformBlock(COMPARE_VIEW_BYTES);
  const place = { originXPx: 0, originYPx: 0, widthPx, heightPx, levelCount: 1 };
  packCompareView(block, DEFAULT_DISPLAY, {
    a: place,
    b: place,
    texelsPerPx: 1,
    displayMinX: 0,
    displayMinY: 0,
    displayMaxX: widthPx,
    displayMaxY: heightPx,
    background: 0.1,
    viewFlags: FLAG_NEAREST,
    show: SHOW_METRIC_BASE + differenceCode('absolute-error'),
    splitAxis: 'x',
    splitPx: widthPx / 2,
    colormap: 0,
    rangeMin: 0,
    rangeMax: 1,
  });
  const ubuf = device.createBuffer({ size: COMPARE_VIEW_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  device.queue.writeBuffer(ubuf, 0, block.bytes);
  const view = device.createBindGroup({ layout: ck.viewLayout, entries: [{ binding: 0, resource: { buffer: ubuf } }] });
  const pair = ck.pairGroup(ta, tb);

  const samples: Record<'compareRender' | 'compareCompute' | 'metrics' | 'statsDifference', number[]> = {
    compareRender: [],
    compareCompute: [],
    metrics: [],
    statsDifference: [],
  };
  const wall: number[] = [];
  let lastMetrics: ArrayBuffer | null = null;
  opts.log(`compare: ${runs} timed runs after 3 warm-ups`);
  for (let i = 0; i < runs + 3; i++) {
    const t0 = performance.now();
    const enc = device.createCommandEncoder({ label: 'compare bench' });
    // the render path's timestamps come from a render pass; the type differs only in name
    encodeCompare(ck, enc, renderTarget, { view, pair }, timer.writes(0) as GPURenderPassTimestampWrites);
    encodeCompare(ck, enc, computeTarget, { view, pair, target: computeGroup }, timer.writes(1));
    metrics.encode(enc, ta, tb, region, at, { threshold: 0, timestampWrites: timer.writes(2) });
    stats.encode(enc, ta, tb, region, at, {
      valueMode: statsSourceCode({ kind: 'difference', mode: 'absolute-error' }),
      timestampWrites: timer.writes(3),
    });
    timer.resolve(enc, 4);
    device.queue.submit([enc.finish()]);
    const [ms] = await Promise.all([
      timer.read(4),
      metrics.readBack().then((m) => {
        lastMetrics = m;
      }),
      stats.readBack(),
    ]);
    if (i < 3) continue;
    wall.push(performance.now() - t0);
    samples.compareRender.push(ms[0]!);
    samples.compareCompute.push(ms[1]!);
    samples.metrics.push(ms[2]!);
    samples.statsDifference.push(ms[3]!);
  }
  const gpuMs = Object.fromEntries(
    Object.entries(samples).map(([k, v]) => [k, { median: r3(median(v)), min: r3(Math.min(...v)), max: r3(Math.max(...v)) }]),
  );

  // the CPU reference on the same pair (the fallback path and the tests' oracle), once: the scale of what the GPU saves
  opts.log('compare: the CPU reference for scale');
  const la = { rgba: a, ...region },
    lb = { rgba: b, ...region };
  let t = performance.now();
  const cpuMetrics = metricsReference(la, lb, region);
  const cpuMetricsMs = performance.now() - t;
  t = performance.now();
  statsReference(la, lb, { kind: 'difference', mode: 'absolute-error' }, region);
  const cpuStatsMs = performance.now() - t;
  const gpuTotals = parseMetrics(lastMetrics!, region);
  const agree = gpuTotals.pixelsDiffer === cpuMetrics.pixelsDiffer;

  for (const x of [ta, tb, renderTarget, computeTarget]) x.destroy();
  ubuf.destroy();
  metrics.destroy();
  stats.destroy();
  timer.destroy();
  const pixels = widthPx * heightPx;
  const median3 = (k: keyof typeof samples) => median(samples[k]);
  return {
    widthPx,
    heightPx,
    inputFormat: 'rgba32float',
    targetFormat,
    runs,
    gpuMs,
    /** What a mode or exposure change costs on the GPU: the compare pass (the faster path) and, for a new pair or region, the reductions. */
    differencePlusReductionMs: r3(
      Math.min(median3('compareRender'), median3('compareCompute')) + median3('metrics') + median3('statsDifference'),
    ),
    reductionGpixPerS: r3(pixels / median3('metrics') / 1e6),
    wallMsPerRunAllFour: r3(median(wall)),
    cpuReference: { metricsMs: Math.round(cpuMetricsMs), statsMs: Math.round(cpuStatsMs), pixelsDifferAgree: agree },
    bytesReadPerReduction: pixels * 32,
  };
}
