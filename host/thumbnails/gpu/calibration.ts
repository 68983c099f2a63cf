// CPU-or-GPU thumbnails by measurement: per-adapter cost models (fixed ms + ms per megapixel), their crossover, and the choice.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** One measured thumbnail: source image size and the median wall time of making it end to end. */
export interface CostSample {
  pixels: number;
  ms: number;
}

/** cost(pixels) = fixedMs + msPerMegapixel × pixels / 1e6, fitted by least squares. */
export interface CostModel {
  fixedMs: number;
  msPerMegapixel: number;
}

export interface Calibration {
  version: 1;
  /** Adapter name the figures belong to (GPUAdapterInfo description, else vendor/architecture/device). */
  adapter: string;
  measuredAt: string;
  cpuThreads: number;
  longSidePx: number;
  samples: { gpu: CostSample[]; cpu: CostSample[] };
  gpu: CostModel;
  cpu: CostModel;
  /**
   * Source pixels above which the GPU is cheaper: 0 when the GPU wins at every size, null when it wins at none
   * (the GPU's per-megapixel cost is no lower than the CPU's and its fixed cost higher).
   */
  crossoverPixels: number | null;
}

export function fitCost(samples: readonly CostSample[]): CostModel {
  if (samples.length === 0) throw new Error('fitCost: no samples');
  if (samples.length === 1) return { fixedMs: 0, msPerMegapixel: (samples[0]!.ms * 1e6) / Math.max(1, samples[0]!.pixels) };
  const n = samples.length;
  const xs = samples.map((s) => s.pixels / 1e6);
  const ys = samples.map((s) => s.ms);
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    sxx += (xs[i]! - mx) ** 2;
  }
  let slope = sxx > 0 ? sxy / sxx : 0;
  let fixed = my - slope * mx;
  // costs are never negative: refit through the origin, or flat, when the line says otherwise
  if (fixed < 0) {
    fixed = 0;
    slope = xs.reduce((a, x, i) => a + x * ys[i]!, 0) / xs.reduce((a, x) => a + x * x, 0);
  }
  if (slope < 0) {
    slope = 0;
    fixed = my;
  }
  return { fixedMs: fixed, msPerMegapixel: slope };
}

export function predictMs(model: CostModel, pixels: number): number {
  return model.fixedMs + (model.msPerMegapixel * pixels) / 1e6;
}

/** Pixels where the two lines cross, read as "the GPU is cheaper above this". */
export function crossoverPixels(gpu: CostModel, cpu: CostModel): number | null {
  const dSlope = cpu.msPerMegapixel - gpu.msPerMegapixel; // > 0: the GPU gains per pixel
  const dFixed = gpu.fixedMs - cpu.fixedMs; // > 0: the GPU starts behind
  // no gain per pixel: the GPU wins everywhere only if it also starts ahead and the lines are parallel;
  // (GPU ahead at small sizes and behind at large ones is possible too: chooseThumbnailPath compares predictions)
  if (dSlope <= 0) return dSlope === 0 && dFixed < 0 ? 0 : null;
  return Math.max(0, Math.round((dFixed / dSlope) * 1e6));
}

export interface CalibrationInput {
  adapter: string;
  cpuThreads: number;
  longSidePx: number;
  gpu: CostSample[];
  cpu: CostSample[];
  measuredAt?: string;
}

export function buildCalibration(input: CalibrationInput): Calibration {
  const gpu = fitCost(input.gpu);
  const cpu = fitCost(input.cpu);
  return {
    version: 1,
    adapter: input.adapter,
    measuredAt: input.measuredAt ?? new Date().toISOString(),
    cpuThreads: input.cpuThreads,
    longSidePx: input.longSidePx,
    samples: { gpu: input.gpu, cpu: input.cpu },
    gpu,
    cpu,
    crossoverPixels: crossoverPixels(gpu, cpu),
  };
}

/** Measures both paths at each size (median of `repeats` after one warm-up each) and fits the models. */
export async function calibrate(opts: {
  adapter: string;
  cpuThreads: number;
  longSidePx: number;
  sizes: readonly (readonly [number, number])[];
  repeats?: number;
  gpuThumbnailMs: (width: number, height: number) => Promise<number>;
  cpuThumbnailMs: (width: number, height: number) => Promise<number>;
}): Promise<Calibration> {
  const repeats = opts.repeats ?? 3;
  const gpu: CostSample[] = [];
  const cpu: CostSample[] = [];
  const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  for (const [w, h] of opts.sizes) {
    for (const [samples, fn] of [
      [gpu, opts.gpuThumbnailMs],
      [cpu, opts.cpuThumbnailMs],
    ] as const) {
      await fn(w, h);
      const xs: number[] = [];
      for (let i = 0; i < repeats; i++) xs.push(await fn(w, h));
      samples.push({ pixels: w * h, ms: med(xs) });
    }
  }
  return buildCalibration({ adapter: opts.adapter, cpuThreads: opts.cpuThreads, longSidePx: opts.longSidePx, gpu, cpu });
}

export interface ThumbnailPathChoice {
  path: 'gpu' | 'cpu';
  reason: string;
  predictedGpuMs?: number;
  predictedCpuMs?: number;
}

/** The cheaper path for an image of `pixels` by the adapter's calibration; CPU, saying why, when there is none. */
export function chooseThumbnailPath(pixels: number, calibration: Calibration | null, gpuAvailable = true): ThumbnailPathChoice {
  if (!gpuAvailable) return { path: 'cpu', reason: 'no WebGPU adapter' };
  if (!calibration) return { path: 'cpu', reason: 'GPU not calibrated yet' };
  const g = predictMs(calibration.gpu, pixels);
  const c = predictMs(calibration.cpu, pixels);
  const mp = (pixels / 1e6).toFixed(1);
  const fmt = (ms: number) => `${ms.toFixed(ms < 10 ? 1 : 0)} ms`;
  return g < c
    ? { path: 'gpu', reason: `${mp} MP: GPU ${fmt(g)} < CPU ${fmt(c)} (${calibration.adapter})`, predictedGpuMs: g, predictedCpuMs: c }
    : {
        path: 'cpu',
        reason: `${mp} MP: CPU ${fmt(c)} <= GPU ${fmt(g)} (${calibration.adapter}, ${calibration.cpuThreads} threads)`,
        predictedGpuMs: g,
        predictedCpuMs: c,
      };
}

/** Where calibrations live: one JSON file in the user data folder, keyed by adapter name. */
export function calibrationPath(userDataDir: string): string {
  return join(userDataDir, 'gpu-calibration.json');
}

function readAll(userDataDir: string): Record<string, Calibration> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(calibrationPath(userDataDir), 'utf8'));
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, Calibration>) : {};
  } catch {
    return {};
  }
}

/** The stored calibration for `adapter`, or null (none, unreadable, or of another format version or CPU count). */
export function loadCalibration(userDataDir: string, adapter: string, cpuThreads?: number): Calibration | null {
  const c = readAll(userDataDir)[adapter];
  if (!c || c.version !== 1 || typeof c.gpu?.msPerMegapixel !== 'number' || typeof c.cpu?.msPerMegapixel !== 'number') return null;
  if (cpuThreads !== undefined && c.cpuThreads !== cpuThreads) return null;
  return c;
}

export function saveCalibration(userDataDir: string, calibration: Calibration): void {
  mkdirSync(userDataDir, { recursive: true });
  const all = readAll(userDataDir);
  all[calibration.adapter] = calibration;
  const file = calibrationPath(userDataDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(all, null, 2));
  renameSync(tmp, file); // atomic: two processes never leave half a file
}
