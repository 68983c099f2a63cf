// The compare shaders in headless Chromium (WebGPU on SwiftShader) against the CPU reference (shaders/compare-cpu.ts)
// on random HDR input with NaN, ±Inf, negatives and huge values: every difference mode, the metrics and statistics
// reductions; and the GPU metrics against `oiiotool --diff` on pairs written by the project's writer.
import { test, expect, type Page } from '@playwright/test';
import { serveHarness } from './harness-server.js';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomHdr } from './hdr-input.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../shaders/display-params.js';
import {
  DIFFERENCE_MODES,
  SHOW_A,
  SHOW_B,
  SHOW_METRIC_BASE,
  SHOW_SPLIT,
  differenceCode,
  statsSourceCode,
  type StatsSource,
} from '../shaders/compare-params.js';
import { colormapCode, colormapTable, COLORMAPS } from '../shaders/colormaps.js';
import {
  compareRaw,
  colormapPixel,
  metricsReference,
  pairHistogramReference,
  regionOf,
  statsReference,
  summariseAll,
  unionRegion,
  valueAt,
  type ChannelMetrics,
  type ChannelStats,
  type MetricsTotals,
  type Region,
  type RgbaLayer,
} from '../shaders/compare-cpu.js';
import { floatToHalf, halfToFloat, toneMapPixel } from '../shaders/tonemap-cpu.js';
import { HIST_BINS } from '../shaders/display-params.js';
import { histogramSampleStep } from '../shaders/compare-layouts.js';
import { combineMetrics } from '../shaders/metrics-regions.js';
import { regionsWithout } from '../shaders/stats-regions.js';

let url = '';
let close: () => Promise<void> = async () => {};

test.beforeAll(async () => {
  const served = await serveHarness('testing/renderer/compare-harness.ts');
  url = served.url;
  close = served.close;
});
test.afterAll(async () => close());

async function open(page: Page): Promise<void> {
  page.on('console', (m) => {
    if (m.type() === 'error') console.log(`page: ${m.text()}`);
  });
  await page.goto(url);
  await page.waitForFunction(() => 'compareHarness' in window);
}

const layer = (rgba: number[], x0: number, y0: number, widthPx: number, heightPx: number): RgbaLayer & { rgba: Float32Array } => ({
  rgba: new Float32Array(rgba),
  x0,
  y0,
  widthPx,
  heightPx,
});
const plain = (l: RgbaLayer) => ({ rgba: [...l.rgba], x0: l.x0, y0: l.y0, widthPx: l.widthPx, heightPx: l.heightPx });
const F32_MAX = 3.4028234663852886e38;

/** GPU f32 against the f64 reference: close relatively, or both the same non-finite, or the reference beyond f32 and the GPU not finite. */
function close32(gpu: number, ref: number, rel: number, abs = 0): boolean {
  if (Number.isNaN(ref)) return Number.isNaN(gpu);
  if (!Number.isFinite(ref) || Math.abs(ref) > F32_MAX) return !Number.isFinite(gpu) || Math.abs(gpu) > F32_MAX * 0.5;
  if (!Number.isFinite(gpu)) return false;
  return Math.abs(gpu - ref) <= rel * Math.abs(ref) + abs;
}

function checkMetrics(gpu: MetricsTotals, ref: MetricsTotals, label: string, rel: number): void {
  expect(gpu.pixelsDiffer, `${label} pixelsDiffer`).toBe(ref.pixelsDiffer);
  for (let c = 0; c < 4; c++) {
    const g = gpu.channels[c]!,
      r = ref.channels[c]!;
    for (const k of ['n', 'differ', 'nanA', 'infA', 'nanB', 'infB', 'maxAt'] as (keyof ChannelMetrics)[])
      expect(g[k], `${label} channel ${c} ${k}`).toBe(r[k]);
    expect(close32(g.maxAbs, r.maxAbs, 1e-7), `${label} channel ${c} maxAbs gpu ${g.maxAbs} ref ${r.maxAbs}`).toBe(true);
    for (const k of ['sum', 'sumAbs', 'sumSq'] as const) {
      // a sum of signed values cancels: its error is relative to the sum of magnitudes
      const scale = k === 'sum' ? r.sumAbs : Math.abs(r[k]);
      const ok = close32(g[k], r[k], 0, rel * scale) || close32(g[k], r[k], rel);
      expect(ok, `${label} channel ${c} ${k} gpu ${g[k]} ref ${r[k]}`).toBe(true);
    }
  }
}

/** `exact`: A's or B's own values (min and max exactly); a difference image is computed in f32 on the GPU to within a few ulp. */
function checkStats(gpu: ChannelStats[], ref: ChannelStats[], label: string, rel: number, exact: boolean): void {
  for (let c = 0; c < 4; c++) {
    const g = gpu[c]!,
      r = ref[c]!;
    for (const k of ['n', 'nan', 'inf'] as const) expect(g[k], `${label} channel ${c} ${k}`).toBe(r[k]);
    if (!r.n) continue;
    const ulps = exact ? 0 : 1e-6;
    expect(close32(g.min, r.min, ulps), `${label} channel ${c} min gpu ${g.min} ref ${r.min}`).toBe(true);
    expect(close32(g.max, r.max, ulps), `${label} channel ${c} max gpu ${g.max} ref ${r.max}`).toBe(true);
    const spread = Math.sqrt(Math.max(r.m2, 0) / r.n);
    expect(close32(g.mean, r.mean, rel, rel * spread), `${label} channel ${c} mean gpu ${g.mean} ref ${r.mean}`).toBe(true);
    expect(close32(g.m2, r.m2, 50 * rel, 1e-30), `${label} channel ${c} m2 gpu ${g.m2} ref ${r.m2}`).toBe(true);
  }
}

// A 61x47 layer at (0, 0) and a 53x50 one at (6, -3): different data windows, partial overlap, union region
const A_W = 61,
  A_H = 47,
  B_W = 53,
  B_H = 50;
// f32 sums over ~3,000 values in a tree: relative error a few 1e-6 at most
const SUM_REL = 2e-5;

for (const [name, hugeMax] of [
  ['huge values up to 3e38', 3e38],
  ['values up to 1e6', 1e6],
] as const) {
  test(`metrics: the GPU reduction matches the CPU reference (${name}, NaN, ±Inf, negatives)`, async ({ page }) => {
    await open(page);
    const a = layer(randomHdr(A_W * A_H, 11, hugeMax), 0, 0, A_W, A_H);
    const bData = randomHdr(B_W * B_H, 12, hugeMax);
    // a third of B equal to A, so that equal and differing pixels both occur
    for (let y = 0; y < B_H; y++)
      for (let x = 0; x < B_W; x++)
        if ((x + y) % 3 === 0) for (let c = 0; c < 4; c++) bData[(y * B_W + x) * 4 + c] = valueAt(a, x + 6, y - 3, c);
    const b = layer(bData, 6, -3, B_W, B_H);
    const region = unionRegion(regionOf(a), regionOf(b));
    for (const threshold of [0, 1e-3]) {
      const gpu = (await page.evaluate(([x, y, r, t]) => window.compareHarness.metrics!(x as never, y as never, r as never, t as never), [
        plain(a),
        plain(b),
        region,
        threshold,
      ] as const)) as MetricsTotals;
      checkMetrics(gpu, metricsReference(a, b, region, threshold), `threshold ${threshold}`, SUM_REL);
    }
    // a sub-rectangle
    const sub: Region = { x0: 10, y0: 5, widthPx: 37, heightPx: 29 };
    const gpu = (await page.evaluate(([x, y, r]) => window.compareHarness.metrics!(x as never, y as never, r as never, 0 as never), [
      plain(a),
      plain(b),
      sub,
    ] as const)) as MetricsTotals;
    checkMetrics(gpu, metricsReference(a, b, sub, 0), 'sub-rectangle', SUM_REL);
  });

  test(`metrics of a damaged pair: the GPU over the rectangles around the missing pixels, combined, match the CPU reference that skips them (${name})`, async ({
    page,
  }) => {
    await open(page);
    const a = layer(randomHdr(A_W * A_H, 31, hugeMax), 0, 0, A_W, A_H);
    const bData = randomHdr(B_W * B_H, 32, hugeMax);
    for (let y = 0; y < B_H; y++)
      for (let x = 0; x < B_W; x++)
        if ((x + y) % 3 === 0) for (let c = 0; c < 4; c++) bData[(y * B_W + x) * 4 + c] = valueAt(a, x + 6, y - 3, c);
    const b = layer(bData, 6, -3, B_W, B_H);
    const region = unionRegion(regionOf(a), regionOf(b));
    // A missing a tile, B its last 16 rows (a file cut short) and a tile crossing A's edge, in A's pixel space
    const holes: Region[] = [
      { x0: 16, y0: 16, widthPx: 16, heightPx: 16 },
      { x0: 6, y0: B_H - 3 - 16, widthPx: B_W, heightPx: 16 },
      { x0: 52, y0: 0, widthPx: 16, heightPx: 16 },
    ];
    const pieces = regionsWithout(region, holes);
    const runs: MetricsTotals[] = [];
    for (const piece of pieces)
      runs.push(
        (await page.evaluate(([x, y, r]) => window.compareHarness.metrics!(x as never, y as never, r as never, 0 as never), [
          plain(a),
          plain(b),
          piece,
        ] as const)) as MetricsTotals,
      );
    const want = metricsReference(a, b, region, 0, holes);
    expect(want.channels[0]!.n).toBeLessThan(metricsReference(a, b, region, 0).channels[0]!.n);
    checkMetrics(combineMetrics(runs, region), want, 'around the holes', SUM_REL);
  });

  test(`statistics: A, B and every difference image match the CPU reference (${name})`, async ({ page }) => {
    await open(page);
    // huge values up to 1e38 here: WGSL lets a division be 2.5 ulp off, so a relative error within a few ulp of f32's
    // largest value may round to Inf on the GPU and not in the reference (seen at 3e38: one pixel of 3,050)
    const statsHuge = Math.min(hugeMax, 1e38);
    const a = layer(randomHdr(A_W * A_H, 21, statsHuge), 0, 0, A_W, A_H);
    const b = layer(randomHdr(B_W * B_H, 22, statsHuge), 6, -3, B_W, B_H);
    const sources: StatsSource[] = [
      { kind: 'a' },
      { kind: 'b' },
      ...DIFFERENCE_MODES.map((mode) => ({ kind: 'difference' as const, mode })),
    ];
    for (const source of sources) {
      for (const region of [unionRegion(regionOf(a), regionOf(b)), { x0: 3, y0: 4, widthPx: 40, heightPx: 33 }]) {
        const gpu = (await page.evaluate(([x, y, r, m]) => window.compareHarness.stats!(x as never, y as never, r as never, m as never), [
          plain(a),
          plain(b),
          region,
          statsSourceCode(source),
        ] as const)) as ChannelStats[];
        // Welford in f32: m2 of values beyond ~1e19 overflows f32 (the reference, in f64, does not): said by close32
        checkStats(
          gpu,
          statsReference(a, b, source, region),
          `${JSON.stringify(source)} ${JSON.stringify(region)}`,
          1e-5,
          source.kind !== 'difference',
        );
      }
    }
  });
}

test("histogram of what a compare mode shows: A, B and each difference image's magnitude match the CPU reference, every pixel and strided", async ({
  page,
}) => {
  await open(page);
  const a = layer(randomHdr(A_W * A_H, 31, 1e6), 0, 0, A_W, A_H);
  const b = layer(randomHdr(B_W * B_H, 32, 1e6), 6, -3, B_W, B_H);
  const union = unionRegion(regionOf(a), regionOf(b));
  // the region's own stride (1 here), and a stride of 3 as a 4K pair gets (8)
  const cases: [Region, number][] = [
    [union, histogramSampleStep(union)],
    [union, 3],
    [{ x0: 3, y0: 4, widthPx: 40, heightPx: 33 }, 1],
  ];
  const sources: StatsSource[] = [{ kind: 'a' }, { kind: 'b' }, ...DIFFERENCE_MODES.map((mode) => ({ kind: 'difference' as const, mode }))];
  for (const source of sources) {
    for (const [region, step] of cases) {
      const gpu = (await page.evaluate(
        ([x, y, r, m, st]) => window.compareHarness.pairHistogram!(x as never, y as never, r as never, m as never, st as never),
        [plain(a), plain(b), region, statsSourceCode(source), step] as const,
      )) as number[];
      const ref = pairHistogramReference(a, b, source, region, step);
      const label = `${JSON.stringify(source)} step ${step} ${JSON.stringify(region)}`;
      const total = (v: ArrayLike<number>): number => Array.from(v).reduce((sum, x) => sum + x, 0);
      expect(total(gpu), `${label} total`).toBe(total(ref));
      // every value may be off by a few ulp on the GPU (a difference is computed in f32, a division 2.5 ulp off), and
      // land on the other side of a bin edge: the GPU's cumulative counts lie between those of the reference's values
      // scaled down and up by 4 ulp
      const low = pairHistogramReference(a, b, source, region, step, 1 - 4 * 2 ** -23);
      const high = pairHistogramReference(a, b, source, region, step, 1 + 4 * 2 ** -23);
      const outside: string[] = [];
      for (let k = 0; k < 4; k++) {
        let cumGpu = 0,
          cumLow = 0,
          cumHigh = 0;
        for (let i = 0; i < HIST_BINS; i++) {
          cumGpu += gpu[k * HIST_BINS + i]!;
          cumLow += low[k * HIST_BINS + i]!;
          cumHigh += high[k * HIST_BINS + i]!;
          if (cumGpu < cumHigh || cumGpu > cumLow) outside.push(`histogram ${k} bin ${i}: ${cumGpu} not in [${cumHigh}, ${cumLow}]`);
        }
      }
      expect(outside, `${label}: cumulative counts`).toEqual([]);
      expect(
        gpu.reduce((sum, v) => sum + v, 0),
        `${label}: something counted`,
      ).toBeGreaterThan(0);
    }
  }
});

const TOL = 2e-3;

for (const path of ['render', 'compute'] as const) {
  test(`compare pass (${path}): A, B, split and every difference image, tone-mapped or through each colormap, match the CPU reference`, async ({
    page,
  }) => {
    await open(page);
    const W = 48,
      H = 40;
    const a = layer(randomHdr(W * H, 31), 0, 0, W, H);
    const b = layer(randomHdr(40 * 36, 32), 4, 2, 40, 36);
    const table = colormapTable();
    const shows = [SHOW_A, SHOW_B, SHOW_SPLIT, ...DIFFERENCE_MODES.map((m) => SHOW_METRIC_BASE + differenceCode(m))];
    const displays: Partial<DisplayParams>[] = [{}, { exposureEv: 2, transform: 'aces' }, { channelView: 'g', nanInf: false }];
    for (const show of shows)
      for (const cm of COLORMAPS)
        for (const d of cm === 'none' ? displays : [displays[0]!, displays[2]!]) {
          const code = colormapCode(cm);
          const g = { show, colormap: code, rangeMin: -0.5, rangeMax: 2 };
          const p: DisplayParams = { ...DEFAULT_DISPLAY, ...d };
          const gpu = (await page.evaluate(
            ([x, y, w, h, dp, gg, pa]) =>
              window.compareHarness.comparePass!(x as never, y as never, w as never, h as never, dp as never, gg as never, pa as never),
            [plain(a), plain(b), W, H, d, g, path] as const,
          )) as number[];
          let maxErr = 0,
            worst = '';
          for (let y = 0; y < H; y++)
            for (let x = 0; x < W; x++) {
              const inside = (l: RgbaLayer) => x >= l.x0 && y >= l.y0 && x < l.x0 + l.widthPx && y < l.y0 + l.heightPx;
              const at = (l: RgbaLayer) => (inside(l) ? [0, 1, 2, 3].map((c) => valueAt(l, x, y, c)) : null);
              const which = show === SHOW_SPLIT ? (x + 0.5 >= W / 2 ? SHOW_B : SHOW_A) : show;
              if (show === SHOW_SPLIT && Math.abs(x + 0.5 - W / 2) < 1) continue; // the divider line
              const raw = compareRaw(which, at(a), at(b));
              const ref =
                raw === null
                  ? [0, 0, 0]
                  : code === 0
                    ? toneMapPixel(raw[0]!, raw[1]!, raw[2]!, raw[3]!, x, y, p)
                    : colormapPixel(table, code, raw, p.channelView, p.nanInf, g.rangeMin, g.rangeMax);
              for (let c = 0; c < 3; c++) {
                const v = gpu[(y * W + x) * 4 + c]!;
                const err = Number.isNaN(v) ? Infinity : Math.abs(v - ref[c]!);
                if (err > maxErr) {
                  maxErr = err;
                  worst = `(${x},${y}) raw ${raw?.join(',')} gpu ${gpu.slice((y * W + x) * 4, (y * W + x) * 4 + 3).join(',')} ref ${ref.join(',')}`;
                }
              }
            }
          expect(maxErr, `show ${show} colormap ${cm} ${JSON.stringify(d)}: worst ${worst}`).toBeLessThan(TOL);
        }
  });
}

// ---- oiiotool --diff on pairs written by the project's writer ----

interface OiioDiff {
  meanError: number;
  rmsError: number;
  psnr: number;
  maxError: number;
  maxAt: [number, number];
  maxChannel: string;
  over: number;
}

function oiioDiff(a: string, b: string, failthresh: number): OiioDiff {
  const r = spawnSync('oiiotool', ['--fail', String(failthresh), '--warn', String(failthresh), '--diff', a, b], { encoding: 'utf8' });
  const out = r.stdout + r.stderr;
  const num = (re: RegExp): number => {
    const m = re.exec(out);
    if (!m) throw new Error(`oiiotool printed no ${re}: ${out}`);
    return Number(m[1]);
  };
  const max = /Max error\s+=\s+(\S+) @ \((\d+), (\d+), (\w+)\)/.exec(out);
  const over = /(\d+) pixels \([^)]*\) over/.exec(out);
  return {
    meanError: num(/Mean error = (\S+)/),
    rmsError: num(/RMS error = (\S+)/),
    psnr: /Peak SNR = inf/.test(out) ? Infinity : num(/Peak SNR = (\S+)/),
    maxError: max ? Number(max[1]) : 0,
    maxAt: max ? [Number(max[2]), Number(max[3])] : [0, 0],
    maxChannel: max?.[4] ?? '',
    over: over ? Number(over[1]) : 0,
  };
}

const hasOiio = spawnSync('oiiotool', ['--version'], { encoding: 'utf8' }).status === 0;

test('metrics: the GPU figures match oiiotool --diff on generated pairs (mean, RMS, PSNR, max error and where, pixels over the threshold)', async ({
  page,
}) => {
  test.skip(!hasOiio, 'oiiotool is not installed (Debian: openimageio-tools)');
  await open(page);
  const { writeExrFile } = await import('../codec/writer.js');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-oiio-'));
  const W = 73,
    H = 41;
  let seed = 5;
  const rnd = (): number => {
    seed = (seed * 1664525 + 1013904223) >>> 0;
    return seed / 2 ** 32;
  };
  const cases = [
    {
      name: 'float RGB, small noise',
      pixelType: 'float' as const,
      channels: ['R', 'G', 'B'],
      f: (x: number, y: number, c: number) => (x + y * 0.5 + c) / 100,
      noise: () => (rnd() - 0.5) * 0.02,
      bBox: null,
    },
    {
      name: 'half RGBA, sparse large errors',
      pixelType: 'half' as const,
      channels: ['R', 'G', 'B', 'A'],
      f: (x: number, y: number, c: number) => (c === 3 ? 1 : Math.sin(x * 0.2 + c) * 2 + 2),
      noise: () => (rnd() < 0.05 ? rnd() * 3 : 0),
      bBox: null,
    },
    {
      name: 'float RGB, B with another data window',
      pixelType: 'float' as const,
      channels: ['R', 'G', 'B'],
      f: (x: number, y: number, c: number) => 0.25 + 0.01 * ((x * 7 + y * 3 + c) % 13),
      noise: () => (rnd() - 0.5) * 0.001,
      bBox: { xMin: 5, yMin: -2, xMax: W + 3, yMax: H - 6 },
    },
  ];
  for (const k of cases) {
    const boxA = { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 };
    const boxB = k.bBox ?? boxA;
    const write = (path: string, box: typeof boxA, noisy: boolean): RgbaLayer => {
      const w = box.xMax - box.xMin + 1,
        h = box.yMax - box.yMin + 1;
      const rgba = new Float32Array(w * h * 4);
      for (let c = 0; c < 4; c++) if (c >= k.channels.length) for (let i = 0; i < w * h; i++) rgba[i * 4 + c] = 0;
      const channels = k.channels.map((name, c) => {
        const data = k.pixelType === 'half' ? new Uint16Array(w * h) : new Float32Array(w * h);
        for (let y = 0; y < h; y++)
          for (let x = 0; x < w; x++) {
            const v = k.f(x + box.xMin, y + box.yMin, c) + (noisy ? k.noise() : 0);
            const stored = k.pixelType === 'half' ? halfToFloat(floatToHalf(v)) : Math.fround(v);
            if (k.pixelType === 'half') data[y * w + x] = floatToHalf(v);
            else data[y * w + x] = stored;
            rgba[(y * w + x) * 4 + c] = stored;
          }
        return { name, pixelType: k.pixelType, data };
      });
      writeExrFile(path, [{ dataWindow: box, displayWindow: boxA, compression: 'zip', channels }]);
      return { rgba, x0: box.xMin, y0: box.yMin, widthPx: w, heightPx: h };
    };
    const a = write(join(dir, 'a.exr'), boxA, false);
    const b = write(join(dir, 'b.exr'), boxB, true);
    const region = unionRegion(regionOf(a), regionOf(b));
    const oiio = oiioDiff(join(dir, 'a.exr'), join(dir, 'b.exr'), 1e-6);
    const gpu = (await page.evaluate(([x, y, r]) => window.compareHarness.metrics!(x as never, y as never, r as never, 1e-6 as never), [
      plain(a),
      plain(b),
      region,
    ] as const)) as MetricsTotals;
    const used = gpu.channels.slice(0, k.channels.length);
    const all = summariseAll(used, region);
    // oiiotool prints 6 significant digits; the GPU sums in f32: agreement to 1e-5 relative (PSNR to 1e-4 dB)
    const near = (x: number, y: number, rel = 1e-5): boolean => Math.abs(x - y) <= rel * Math.abs(y) + 1e-9;
    expect(near(all.meanAbsError, oiio.meanError), `${k.name}: mean error ours ${all.meanAbsError}, oiiotool ${oiio.meanError}`).toBe(true);
    expect(near(all.rmse, oiio.rmsError), `${k.name}: RMS ours ${all.rmse}, oiiotool ${oiio.rmsError}`).toBe(true);
    expect(Math.abs(all.psnr - oiio.psnr), `${k.name}: PSNR ours ${all.psnr}, oiiotool ${oiio.psnr}`).toBeLessThan(1e-3);
    expect(near(all.maxAbsError, oiio.maxError), `${k.name}: max ours ${all.maxAbsError}, oiiotool ${oiio.maxError}`).toBe(true);
    expect(all.maxAt, `${k.name}: max error at`).toEqual(oiio.maxAt);
    expect(k.channels[used.findIndex((m) => m.maxAbs === Math.max(...used.map((u) => u.maxAbs)))], `${k.name}: max error channel`).toBe(
      oiio.maxChannel,
    );
    expect(gpu.pixelsDiffer, `${k.name}: pixels over 1e-6`).toBe(oiio.over);
  }
});
