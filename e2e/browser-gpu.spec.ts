// Shader and engine tests in headless Chromium (WebGPU on SwiftShader): every display transform, the MIP chain and
// the histogram against the CPU reference on random HDR input (NaN, Inf, negatives, huge values); engine caching,
// eviction and device-loss recovery with real textures.
import { test, expect, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DISPLAY_TRANSFORMS, CHANNEL_VIEWS, DEFAULT_DISPLAY, HIST_BINS, type DisplayParams } from '../shaders/display-params.js';
import { histogram, mipReduce, toneMapPixel } from '../shaders/tonemap-reference.js';

const root = fileURLToPath(new URL('..', import.meta.url));
let url = '';
let close: () => Promise<void> = async () => {};

test.beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-harness-'));
  await build({ entryPoints: [join(root, 'renderer/testing/gpu-harness.ts')], bundle: true, format: 'esm', outfile: join(dir, 'harness.js'), loader: { '.wgsl': 'text' }, target: 'es2022', logLevel: 'warning' });
  const js = readFileSync(join(dir, 'harness.js'));
  const server = createServer((req, res) => {
    if (req.url === '/harness.js') { res.setHeader('content-type', 'text/javascript'); res.end(js); return; }
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><html><body><script type="module" src="/harness.js"></script></body></html>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}/`;
  close = () => new Promise((r) => server.close(() => r()));
});
test.afterAll(async () => close());

async function open(page: Page): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => 'gpuHarness' in window);
}

/** Deterministic random HDR RGBA: mostly log-uniform over ±2^±12, plus negatives, zeros, huge values, NaN and ±Inf. */
function randomHdr(n: number, seed: number): number[] {
  let s = seed >>> 0;
  const rnd = (): number => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
  const out: number[] = [];
  for (let i = 0; i < n * 4; i++) {
    const k = rnd();
    let v: number;
    if (k < 0.02) v = NaN;
    else if (k < 0.03) v = Infinity;
    else if (k < 0.04) v = -Infinity;
    else if (k < 0.06) v = 0;
    else if (k < 0.08) v = (rnd() < 0.5 ? -1 : 1) * 3e38 * rnd();
    else if (k < 0.18) v = -Math.pow(2, rnd() * 8 - 6);
    else v = Math.pow(2, rnd() * 24 - 12);
    out.push(Math.fround(v));
  }
  return out;
}

const W = 64, H = 64;

function compareToneMap(input: number[], gpu: number[], p: DisplayParams): { maxErr: number; worst: string } {
  let maxErr = 0, worst = '';
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = (y * W + x) * 4;
    const ref = toneMapPixel(input[i]!, input[i + 1]!, input[i + 2]!, input[i + 3]!, x, y, p);
    for (let c = 0; c < 3; c++) {
      const g = gpu[i + c]!;
      const err = Number.isNaN(g) ? Infinity : Math.abs(g - ref[c]!);
      if (err > maxErr) { maxErr = err; worst = `(${x},${y}) in ${input.slice(i, i + 4).join(',')} gpu ${gpu.slice(i, i + 3).join(',')} ref ${ref.join(',')}`; }
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
        const p: DisplayParams = { ...DEFAULT_DISPLAY, transform, exposureEv, offset: exposureEv === 2.5 ? 0.01 : 0, gamma: exposureEv === -3 ? 2.2 : 1 };
        const gpu = await page.evaluate(([f, i, w, h, params]) => window.gpuHarness[f]!(i as never, w as never, h as never, params as never), [fn, input, W, H, p] as const) as number[];
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
      { falseColour: true }, { falseColour: true, exposureEv: 3, channelView: 'luminance' },
      { clipping: true }, { clipping: true, exposureEv: -2, transform: 'aces' },
      { nanInf: false }, { nanInf: false, channelView: 'rgba', transform: 'agx' },
    ];
    for (const c of cases) {
      const p: DisplayParams = { ...DEFAULT_DISPLAY, ...c };
      const gpu = await page.evaluate(([f, i, w, h, params]) => window.gpuHarness[f]!(i as never, w as never, h as never, params as never), [fn, input, W, H, p] as const) as number[];
      const { maxErr, worst } = compareToneMap(input, gpu, p);
      expect(maxErr, `${JSON.stringify(c)}: worst ${worst}`).toBeLessThan(TOL);
    }
  });
}

test('engine: the compute tone-map draws the canvas as the render pass does; uploads go through the staging ring', async ({ page }) => {
  await open(page);
  const r = await page.evaluate(() => window.gpuHarness.engineToneMapPaths!()) as Record<string, Record<string, unknown> & { lastUpload: Record<string, number>; show: Record<string, number> }> & { maxDiff: number; meanCompute: number };
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
  const r = await page.evaluate(() => window.gpuHarness.engineDefaultPath!()) as { format: string; toneMapPath: string; reason: string; features: string[] };
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
  for (const [w, h] of [[64, 64], [75, 33]] as const) {
    const input = randomHdr(w * h, 3 + w);
    const levels = await page.evaluate(([i, ww, hh]) => window.gpuHarness.mips!(i as never, ww as never, hh as never), [input, w, h] as const) as { widthPx: number; heightPx: number; data: number[] }[];
    let ref: { data: Float32Array; widthPx: number; heightPx: number } = { data: new Float32Array(input), widthPx: w, heightPx: h };
    expect(levels.length).toBe(Math.floor(Math.log2(Math.max(w, h))) + 1);
    for (let l = 1; l < levels.length; l++) {
      ref = mipReduce(ref.data, ref.widthPx, ref.heightPx);
      const g = levels[l]!;
      expect([g.widthPx, g.heightPx]).toEqual([ref.widthPx, ref.heightPx]);
      const bad = g.data.map((v, i) => (sameF32(v, ref.data[i]!) ? -1 : i)).filter((i) => i >= 0);
      expect(bad.length, `${w}x${h} level ${l}: first mismatch at ${bad[0]}: gpu ${g.data[bad[0] ?? 0]} ref ${ref.data[bad[0] ?? 0]}`).toBe(0);
    }
  }
});

test('the histogram (compute shader) matches the CPU reference', async ({ page }) => {
  await open(page);
  const input = randomHdr(W * H, 4);
  const gpu = await page.evaluate(([i, w, h]) => window.gpuHarness.histogram!(i as never, w as never, h as never), [input, W, H] as const) as number[];
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

test('engine: parameter and layer changes never upload again', async ({ page }) => {
  await open(page);
  const r = await page.evaluate(() => window.gpuHarness.engineNoUploadOnParams!()) as Record<string, unknown>;
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
  const r = await page.evaluate(() => window.gpuHarness.engineEviction!()) as Record<string, unknown>;
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

test('engine: device loss → new device, image reloaded from the source and drawn again', async ({ page }) => {
  await open(page);
  const r = await page.evaluate(() => window.gpuHarness.engineDeviceLoss!()) as Record<string, unknown>;
  expect(r.newDevice).toBe(true);
  expect(r.deviceLosses).toBe(1);
  expect(r.loads).toBe(2);
  expect(r.uploads).toBe(8);
  expect(r.before as number).toBeGreaterThan(30);
  expect(Math.abs((r.after as number) - (r.before as number))).toBeLessThan(2);
});

test('engine: the thumbnail grid draws in one pass and exposure re-tone-maps it without uploads', async ({ page }) => {
  await open(page);
  const r = await page.evaluate(() => window.gpuHarness.engineGrid!()) as Record<string, unknown>;
  expect(r.drawn).toBe(4);
  expect(r.uploads0).toBe(4);
  expect(r.uploads3).toBe(4);
  expect(r.mean3 as number).toBeGreaterThan((r.mean0 as number) + 20);
});
