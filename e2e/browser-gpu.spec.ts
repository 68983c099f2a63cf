// Shader and engine tests in headless Chromium (WebGPU on SwiftShader): every display transform, the MIP chain and
// the histogram against the CPU reference on random HDR input (NaN, Inf, negatives, huge values); engine caching,
// eviction and device-loss recovery with real textures.
import { test, expect, type Page } from '@playwright/test';
import { serveHarness } from './harness-server.js';
import { randomHdr } from './hdr-input.js';
import { DISPLAY_TRANSFORMS, CHANNEL_VIEWS, DEFAULT_DISPLAY, HIST_BINS, type DisplayParams } from '../shaders/display-params.js';
import { histogram, mipReduce, toneMapPixel } from '../shaders/tonemap-cpu.js';
import { MAX_SKIP_BOXES, histogramSkipping, levelSkipCells } from '../shaders/histogram-skip.js';
import { formatCube, lutFromFunction, type Lut } from '../shaders/lut-cube.js';
import { LUT_SHAPERS, type LutShaper } from '../shaders/lut-apply.js';

let url = '';
let close: () => Promise<void> = async () => {};

test.beforeAll(async () => {
  const served = await serveHarness('testing/renderer/gpu-harness.ts');
  url = served.url;
  close = served.close;
});
test.afterAll(async () => close());

async function open(page: Page): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => 'gpuHarness' in window);
}

const W = 64,
  H = 64;

function compareToneMap(input: number[], gpu: number[], p: DisplayParams): { maxErr: number; worst: string } {
  let maxErr = 0,
    worst = '';
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const i = (y * W + x) * 4;
      const ref = toneMapPixel(input[i]!, input[i + 1]!, input[i + 2]!, input[i + 3]!, x, y, p);
      for (let c = 0; c < 3; c++) {
        const g = gpu[i + c]!;
        const err = Number.isNaN(g) ? Infinity : Math.abs(g - ref[c]!);
        if (err > maxErr) {
          maxErr = err;
          worst = `(${x},${y}) in ${input.slice(i, i + 4).join(',')} gpu ${gpu.slice(i, i + 3).join(',')} ref ${ref.join(',')}`;
        }
      }
    }
  return { maxErr, worst };
}

// f32 on the GPU vs f64 in the reference, through pow/log2: a few thousandths of the [0, 1] output range at most.
const TOL = 2e-3;

// both tone-map paths: the preview's render pass and the compute pass that writes the canvas texture directly
for (const fn of ['toneMap', 'toneMapCompute'] as const) {
  const path = fn === 'toneMap' ? 'render pass' : 'compute';

  test(`${path}: every display transform matches the CPU reference on random HDR input`, async ({ page }) => {
    await open(page);
    const input = randomHdr(W * H, 1);
    for (const transform of DISPLAY_TRANSFORMS) {
      for (const exposureEv of [-3, 0, 2.5]) {
        const p: DisplayParams = {
          ...DEFAULT_DISPLAY,
          transform,
          exposureEv,
          offset: exposureEv === 2.5 ? 0.01 : 0,
          gamma: exposureEv === -3 ? 2.2 : 1,
        };
        const gpu = (await page.evaluate(
          ([f, i, w, h, params]) => window.gpuHarness[f]!(i as never, w as never, h as never, params as never),
          [fn, input, W, H, p] as const,
        )) as number[];
        const { maxErr, worst } = compareToneMap(input, gpu, p);
        expect(maxErr, `${transform} EV ${exposureEv}: worst ${worst}`).toBeLessThan(TOL);
      }
    }
  });

  test(`${path}: channel views, false colour, clipping and NaN/Inf modes match the CPU reference`, async ({ page }) => {
    await open(page);
    const input = randomHdr(W * H, 2);
    const cases: Partial<DisplayParams>[] = [
      ...CHANNEL_VIEWS.map((channelView) => ({ channelView })),
      { falseColour: true },
      { falseColour: true, exposureEv: 3, channelView: 'luminance' },
      { clipping: true },
      { clipping: true, exposureEv: -2, transform: 'aces' },
      { nanInf: false },
      { nanInf: false, channelView: 'rgba', transform: 'agx' },
    ];
    for (const c of cases) {
      const p: DisplayParams = { ...DEFAULT_DISPLAY, ...c };
      const gpu = (await page.evaluate(
        ([f, i, w, h, params]) => window.gpuHarness[f]!(i as never, w as never, h as never, params as never),
        [fn, input, W, H, p] as const,
      )) as number[];
      const { maxErr, worst } = compareToneMap(input, gpu, p);
      expect(maxErr, `${JSON.stringify(c)}: worst ${worst}`).toBeLessThan(TOL);
    }
  });
}

test('engine: the compute tone-map draws the canvas as the render pass does; uploads go through the staging ring', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineToneMapPaths!())) as Record<
    string,
    Record<string, unknown> & { lastUpload: Record<string, number>; show: Record<string, number> }
  > & { maxDiff: number; meanCompute: number };
  expect(r.compute!.toneMapPath, String(r.compute!.reason)).toBe('compute');
  expect(r.renderPass!.toneMapPath).toBe('render pass');
  expect(r.renderPass!.reason).toBe('render pass asked for');
  // same shader function, same inputs: the 8-bit results agree to within one code value
  expect(r.maxDiff).toBeLessThanOrEqual(1);
  expect(r.meanCompute).toBeGreaterThan(40);
  for (const k of ['compute', 'renderPass'] as const) {
    expect(String(r[k]!.uploader)).toMatch(/^staging ring/);
    expect(r[k]!.uploads).toBe(4);
    expect(r[k]!.lastUpload.path).toBe('staging ring');
    expect(r[k]!.lastUpload.bytes).toBe(96 * 96 * 2 * 4);
    expect(r[k]!.lastUpload.submits).toBe(1);
    expect(r[k]!.lastUpload.wallMs).toBeGreaterThan(0);
    expect(r[k]!.show.GBps).toBeGreaterThan(0);
  }
});

test('engine: the tone-map path for the preferred canvas format is chosen once per device and says why', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineDefaultPath!())) as {
    format: string;
    toneMapPath: string;
    reason: string;
    features: string[];
  };
  const storageOk = r.format === 'rgba8unorm' || (r.format === 'bgra8unorm' && r.features.includes('bgra8unorm-storage'));
  expect(r.toneMapPath, r.reason).toBe(storageOk ? 'compute' : 'render pass');
  expect(r.reason.length).toBeGreaterThan(10);
});

function sameF32(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (!Number.isFinite(a) || !Number.isFinite(b)) return a === b;
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
}

test('the MIP chain (compute shader) matches the CPU reduction level by level', async ({ page }) => {
  await open(page);
  for (const [w, h] of [
    [64, 64],
    [75, 33],
  ] as const) {
    const input = randomHdr(w * h, 3 + w);
    const levels = (await page.evaluate(([i, ww, hh]) => window.gpuHarness.mips!(i as never, ww as never, hh as never), [
      input,
      w,
      h,
    ] as const)) as { widthPx: number; heightPx: number; data: number[] }[];
    let ref: { data: Float32Array; widthPx: number; heightPx: number } = { data: new Float32Array(input), widthPx: w, heightPx: h };
    expect(levels.length).toBe(Math.floor(Math.log2(Math.max(w, h))) + 1);
    for (let l = 1; l < levels.length; l++) {
      ref = mipReduce(ref.data, ref.widthPx, ref.heightPx);
      const g = levels[l]!;
      expect([g.widthPx, g.heightPx]).toEqual([ref.widthPx, ref.heightPx]);
      const bad = g.data.map((v, i) => (sameF32(v, ref.data[i]!) ? -1 : i)).filter((i) => i >= 0);
      expect(bad.length, `${w}x${h} level ${l}: first mismatch at ${bad[0]}: gpu ${g.data[bad[0] ?? 0]} ref ${ref.data[bad[0] ?? 0]}`).toBe(
        0,
      );
    }
  }
});

test('the histogram (compute shader) matches the CPU reference', async ({ page }) => {
  await open(page);
  const input = randomHdr(W * H, 4);
  const gpu = (await page.evaluate(([i, w, h]) => window.gpuHarness.histogram!(i as never, w as never, h as never), [
    input,
    W,
    H,
  ] as const)) as number[];
  const ref = histogram(input, W * H);
  for (let k = 0; k < 4; k++) {
    const g = gpu.slice(k * HIST_BINS, (k + 1) * HIST_BINS);
    const r = [...ref.subarray(k * HIST_BINS, (k + 1) * HIST_BINS)];
    const total = (a: number[]): number => a.reduce((s, v) => s + v, 0);
    expect(total(g), `histogram ${k} total`).toBe(total(r));
    // a value within f32 rounding of a bin edge may land on either side: allow a handful of moved counts
    const moved = g.reduce((s, v, i) => s + Math.abs(v - r[i]!), 0) / 2;
    expect(moved, `histogram ${k} counts moved`).toBeLessThanOrEqual(3);
    expect(total(g)).toBeGreaterThan(W * H * 0.8);
  }
});

test('the histogram leaving out missing pixels (boxes, and a mask beyond the boxes it holds) matches the CPU reference', async ({
  page,
}) => {
  await open(page);
  const w = 61,
    h = 45;
  const input = randomHdr(w * h, 7);
  const manyHoles = Array.from({ length: MAX_SKIP_BOXES + 6 }, (_, i) => ({ x0: (i * 7) % w, y0: (i * 5) % h, widthPx: 1, heightPx: 1 }));
  const cases = [
    {
      name: 'level 0, two boxes',
      level: 0,
      holes: [
        { x0: 3, y0: 4, widthPx: 10, heightPx: 6 },
        { x0: 0, y0: 30, widthPx: w, heightPx: 15 },
      ],
    },
    // odd sizes: a level-2 texel averages 4×4 pixels, and is left out when any of them is missing
    {
      name: 'level 2, odd sizes',
      level: 2,
      holes: [
        { x0: 5, y0: 9, widthPx: 1, heightPx: 1 },
        { x0: 40, y0: 0, widthPx: 21, heightPx: 3 },
      ],
    },
    { name: 'level 1, a mask', level: 1, holes: manyHoles },
  ];
  for (const c of cases) {
    const gpu = (await page.evaluate(
      ([i, ww, hh, holes, level]) =>
        window.gpuHarness.histogramSkipping!(i as never, ww as never, hh as never, holes as never, level as never),
      [input, w, h, c.holes, c.level] as const,
    )) as { bins: number[]; texels: number[]; widthPx: number; heightPx: number };
    const cells = levelSkipCells(c.holes, w, h, c.level);
    const ref = histogramSkipping(gpu.texels, gpu.widthPx, gpu.heightPx, cells);
    const whole = histogram(gpu.texels, gpu.widthPx * gpu.heightPx);
    const total = (a: ArrayLike<number>, k: number): number =>
      Array.from({ length: HIST_BINS }, (_, i) => a[k * HIST_BINS + i]!).reduce((s, v) => s + v, 0);
    for (let k = 0; k < 4; k++) {
      const g = gpu.bins.slice(k * HIST_BINS, (k + 1) * HIST_BINS);
      expect(total(gpu.bins, k), `${c.name}: histogram ${k} total`).toBe(total(ref, k));
      const moved = g.reduce((s, v, i) => s + Math.abs(v - ref[k * HIST_BINS + i]!), 0) / 2;
      expect(moved, `${c.name}: histogram ${k} counts moved`).toBeLessThanOrEqual(3);
      // texels with finite values were left out (a GPU pass that ignored the holes would count them)
      expect(total(whole, k) - total(ref, k), `${c.name}: histogram ${k} texels left out`).toBeGreaterThan(0);
    }
  }
});

test('engine: parameter and layer changes never upload again', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineNoUploadOnParams!())) as Record<string, unknown>;
  expect(r.firstSource).toBe('uploaded');
  expect(r.uploadsAfterShow).toBe(4);
  expect(r.uploadsAfter).toBe(4);
  expect(r.loads).toBe(1);
  expect(r.meanAt2 as number).toBeGreaterThan((r.meanAt0 as number) + 20);
  expect(r.layerSwitch).toEqual({ source: 'gpu-cache', built: true });
  expect(r.again).toEqual({ source: 'gpu-cache', built: false });
});

test('engine: LRU eviction under the VRAM budget keeps the image on screen', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineEviction!())) as Record<string, unknown>;
  expect(r.perImage as number).toBeGreaterThan(128 * 128 * 8);
  // four planes (RGBA) and the layer's MIP chain
  expect(r.entriesPerImage).toBe(5);
  expect(r.evictionsAfter4).toBe(2 * (r.entriesPerImage as number));
  expect(r.bytesAfter4 as number).toBeLessThanOrEqual(r.budget as number);
  expect(r.cached).toEqual([false, false, true, true]);
  expect(r.backSource).toBe('gpu-cache');
  expect(r.loads).toBe(4);
  // what is on screen stays: the layer and the planes it was built from
  expect(r.entriesAtTinyBudget).toBe(r.entriesPerImage);
  expect(r.onScreenKept).toBe(true);
});

test('engine: a show landing after a later one (an upload outlasting a cache hit) does not replace it on screen', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineLateShow!())) as Record<string, unknown>;
  expect(r.shown).toBe('img2');
  // the earlier image was uploaded and kept for a later show, not drawn
  expect(r.earlierCached).toBe(true);
  expect(r.meanAfter).toBeCloseTo(r.laterMean as number, 0);
});

test('engine: a file written again stays drawn until its new version replaces it (no blank refresh)', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineRefreshKeepsScreen!())) as Record<string, number | string>;
  expect(r.before as number).toBeGreaterThan(10);
  // forgotten: the cache asks for every plane again, but the old version is still what the preview draws
  expect(r.lacksAfterForget).toBe(4);
  expect(r.whileForgotten).toBeCloseTo(r.before as number, 0);
  // the new version replaced it
  expect(r.shown).toBe('img1');
  expect(r.after as number).toBeGreaterThan((r.before as number) + 5);
});

test('engine: device loss → new device, image reloaded from the source and drawn again', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineDeviceLoss!())) as Record<string, unknown>;
  expect(r.newDevice).toBe(true);
  expect(r.deviceLosses).toBe(1);
  expect(r.loads).toBe(2);
  expect(r.uploads).toBe(8);
  expect(r.before as number).toBeGreaterThan(30);
  expect(Math.abs((r.after as number) - (r.before as number))).toBeLessThan(2);
});

test('engine: the thumbnail grid draws in one pass and exposure re-tone-maps it without uploads', async ({ page }) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineGrid!())) as Record<string, unknown>;
  expect(r.drawn).toBe(4);
  expect(r.uploads0).toBe(4);
  expect(r.uploads3).toBe(4);
  expect(r.mean3 as number).toBeGreaterThan((r.mean0 as number) + 20);
});

// ---- .cube LUTs (shaders/lut.wgsl) against the CPU reference ----

/** A smooth, channel-mixing, non-separable function: what a creative grade looks like to a LUT. */
function gradeFn(r: number, g: number, b: number): [number, number, number] {
  return [Math.pow(r, 0.8) * 0.9 + b * 0.1, (g * g + r * 0.2) / 1.2, (Math.sin(b * 1.4) / Math.sin(1.4)) * 0.85 + g * 0.15];
}

async function toneMapCube(
  page: Page,
  fn: 'render pass' | 'compute',
  input: number[],
  p: Partial<DisplayParams>,
  cube: string,
  shaper: LutShaper,
): Promise<number[]> {
  return page.evaluate(
    ([i, w, h, params, text, s, path]) =>
      window.gpuHarness.toneMapWithCube!(i as never, w as never, h as never, params as never, text as never, s as never, path as never),
    [input, W, H, p, cube, shaper, fn] as const,
  ) as Promise<number[]>;
}

for (const path of ['render pass', 'compute'] as const) {
  test(`${path}: a 3D and a 1D .cube LUT on every shaper match the CPU reference on random HDR input`, async ({ page }) => {
    await open(page);
    const input = randomHdr(W * H, 11);
    const lut3 = lutFromFunction(17, gradeFn, 'grade');
    const lut1: Lut = {
      title: 'curve',
      kind: '1d',
      size: 64,
      domainMin: [0, 0, 0],
      domainMax: [1.5, 1.5, 1.5],
      data: new Float32Array(64 * 3),
    };
    for (let i = 0; i < 64; i++) lut1.data.set([Math.sqrt(i / 63), (i / 63) ** 2, 1 - i / 63], i * 3);
    for (const lut of [lut3, lut1]) {
      for (const shaper of LUT_SHAPERS) {
        for (const extra of [{}, { exposureEv: 2, transform: 'aces' as const }]) {
          const base: Partial<DisplayParams> = { ...extra };
          const gpu = await toneMapCube(page, path, input, base, formatCube(lut), shaper);
          const p: DisplayParams = { ...DEFAULT_DISPLAY, ...base, lut: { lut, shaper, name: lut.title } };
          const { maxErr, worst } = compareToneMap(input, gpu, p);
          expect(maxErr, `${lut.kind} ${shaper} ${JSON.stringify(extra)}: worst ${worst}`).toBeLessThan(TOL);
        }
      }
    }
  });
}

test('an identity .cube LUT leaves the tone-mapped pixels unchanged', async ({ page }) => {
  await open(page);
  const input = randomHdr(W * H, 12);
  const identity = formatCube(lutFromFunction(33, (r, g, b) => [r, g, b]));
  for (const transform of ['srgb', 'agx'] as const) {
    const plain = (await page.evaluate(
      ([i, w, h, t]) => window.gpuHarness.toneMap!(i as never, w as never, h as never, { transform: t } as never),
      [input, W, H, transform] as const,
    )) as number[];
    const through = await toneMapCube(page, 'render pass', input, { transform }, identity, 'display');
    let maxErr = 0;
    for (let i = 0; i < plain.length; i++) maxErr = Math.max(maxErr, Math.abs(plain[i]! - through[i]!));
    expect(maxErr, transform).toBeLessThan(1e-6); // f32 rounding of i/(n-1) + f/(n-1) only
  }
});

test('a .cube LUT made from a known function reproduces it on the GPU within interpolation error', async ({ page }) => {
  await open(page);
  // inputs in [0, 1] through the linear shaper with the 'linear' view: the LUT sees exactly the input
  let s = 5;
  const rnd = (): number => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  const input: number[] = [];
  for (let i = 0; i < W * H; i++) input.push(Math.fround(0.05 + rnd() * 0.95), Math.fround(rnd()), Math.fround(rnd()), 1);
  const gpu = await toneMapCube(page, 'compute', input, { transform: 'linear' }, formatCube(lutFromFunction(33, gradeFn)), 'linear');
  let maxErr = 0;
  for (let i = 0; i < W * H; i++) {
    const want = gradeFn(input[i * 4]!, input[i * 4 + 1]!, input[i * 4 + 2]!);
    for (let c = 0; c < 3; c++) maxErr = Math.max(maxErr, Math.abs(Math.min(Math.max(want[c]!, 0), 1) - gpu[i * 4 + c]!));
  }
  // trilinear error bound h^2/8 * sum |f''|, h = 1/32: r^0.8 has |f''| = 0.16 r^-1.2 <= 5.3 at r = 0.05, g^2/1.2 1.7,
  // the sine ~1.7: the worst channel's bound is 5.3 * 0.9 / 8192 ~ 6e-4 (plus f32 rounding)
  expect(maxErr).toBeLessThan(7e-4);
  expect(maxErr).toBeGreaterThan(1e-6); // not exact between the nodes: the comparison can fail
});

// ---- HDR output (extended-range canvas) ----

test('HDR path of the tone-map: above 1 kept, roll-off below the headroom, matching the CPU reference', async ({ page }) => {
  await open(page);
  const input = randomHdr(W * H, 21);
  for (const hdr of [
    { paperWhiteNits: 203, peakNits: 1000, rollOff: false },
    { paperWhiteNits: 300, peakNits: 1000, rollOff: true },
  ]) {
    const p: DisplayParams = { ...DEFAULT_DISPLAY, exposureEv: 2, hdr };
    const gpu = (await page.evaluate(
      ([i, w, h, params]) => window.gpuHarness.toneMapHdr!(i as never, w as never, h as never, params as never),
      [input, W, H, p] as const,
    )) as number[];
    const { maxErr, worst } = compareToneMap(input, gpu, p);
    // extended values reach ~1e3 without roll-off (1e9 sanitised inputs are NaN/Inf-coloured; big finite ones are not): relative tolerance
    let maxRel = 0;
    let above = 0;
    for (let i = 0; i < W * H; i++) {
      const ref = toneMapPixel(input[i * 4]!, input[i * 4 + 1]!, input[i * 4 + 2]!, input[i * 4 + 3]!, i % W, Math.floor(i / W), p);
      for (let c = 0; c < 3; c++) {
        maxRel = Math.max(maxRel, Math.abs(gpu[i * 4 + c]! - ref[c]!) / Math.max(1, Math.abs(ref[c]!)));
        if (gpu[i * 4 + c]! > 1.01) above++;
      }
    }
    expect(maxRel, `${JSON.stringify(hdr)}: worst ${worst} (abs ${maxErr})`).toBeLessThan(TOL);
    expect(above, 'values above 1 survive').toBeGreaterThan(100);
    if (hdr.rollOff) {
      // the display's peak as a canvas value, sRGB-encoded: nothing may exceed it
      const peak = 1.055 * Math.pow(1000 / 203, 1 / 2.4) - 0.055;
      expect(Math.max(...gpu.filter((_, i) => i % 4 !== 3))).toBeLessThanOrEqual(peak + 1e-3);
    }
  }
});

test('HDR output: the support probe says why not on a standard display; where the canvas keeps extended mode, the preview canvas holds values above 1', async ({
  page,
}) => {
  await open(page);
  const r = (await page.evaluate(() => window.gpuHarness.engineHdr!())) as {
    mediaStandard: { available: boolean; reason: string; canvasExtended: boolean };
    mediaHigh: { available: boolean; reason: string; canvasExtended: boolean };
    previewFormatOn: string;
    previewFormatOff: string;
    sdrFormat: string;
    captureFormat: string;
    maxCanvasValue?: number;
  };
  console.log(`HDR probe on this Chromium: ${JSON.stringify(r)}`);
  expect(r.mediaStandard.available).toBe(false);
  expect(r.mediaStandard.reason).toMatch(/not in HDR mode/);
  expect(r.mediaStandard.canvasExtended).toBe(r.mediaHigh.canvasExtended); // the same canvas check either way
  expect(r.previewFormatOff).toBe(r.sdrFormat);
  if (r.mediaHigh.canvasExtended) {
    expect(r.mediaHigh.available, r.mediaHigh.reason).toBe(true);
    expect(r.previewFormatOn).toBe('rgba16float');
    expect(r.captureFormat).toBe('rgba16float');
    // ramp x 8 (+3 EV) at paper white 203 nits: well above SDR white, not clamped
    expect(r.maxCanvasValue!).toBeGreaterThan(1.5);
  } else {
    expect(r.mediaHigh.available).toBe(false);
    expect(r.mediaHigh.reason).toMatch(/extended tone mapping/);
    expect(r.previewFormatOn).toBe(r.sdrFormat); // fallback: the preview stays SDR
    expect(r.captureFormat).toBe(r.sdrFormat);
  }
});
