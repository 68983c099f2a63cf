// Tests of the CPU-or-GPU thumbnail choice: cost fits, crossover, choice and reasons, the per-adapter cache.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  buildCalibration,
  calibrate,
  calibrationPath,
  chooseThumbnailPath,
  crossoverPixels,
  fitCost,
  loadCalibration,
  saveCalibration,
} from './calibration.js';

const line = (fixedMs: number, msPerMegapixel: number) => (pixels: number) => ({ pixels, ms: fixedMs + (msPerMegapixel * pixels) / 1e6 });

describe('fitCost', () => {
  it('recovers a line', () => {
    const f = line(3, 2);
    const m = fitCost([f(1e5), f(1e6), f(8e6)]);
    expect(m.fixedMs).toBeCloseTo(3, 6);
    expect(m.msPerMegapixel).toBeCloseTo(2, 6);
  });
  it('never gives negative costs', () => {
    const m = fitCost([
      { pixels: 1e6, ms: 1 },
      { pixels: 2e6, ms: 5 },
    ]);
    expect(m.fixedMs).toBeGreaterThanOrEqual(0);
    const flat = fitCost([
      { pixels: 1e6, ms: 5 },
      { pixels: 2e6, ms: 4 },
    ]);
    expect(flat.msPerMegapixel).toBe(0);
  });
});

describe('crossover and choice', () => {
  it('GPU with a fixed cost but cheaper per pixel wins above the crossover', () => {
    const gpu = { fixedMs: 10, msPerMegapixel: 1 };
    const cpu = { fixedMs: 1, msPerMegapixel: 4 };
    expect(crossoverPixels(gpu, cpu)).toBe(3e6);
    const cal = buildCalibration({
      adapter: 'A',
      cpuThreads: 8,
      longSidePx: 256,
      gpu: [line(10, 1)(1e6), line(10, 1)(8e6)],
      cpu: [line(1, 4)(1e6), line(1, 4)(8e6)],
    });
    expect(cal.crossoverPixels).toBe(3e6);
    expect(chooseThumbnailPath(1e6, cal).path).toBe('cpu');
    const big = chooseThumbnailPath(8e6, cal);
    expect(big.path).toBe('gpu');
    expect(big.reason).toMatch(/GPU .* < CPU/);
  });
  it('no crossover when the GPU is no cheaper per pixel', () => {
    expect(crossoverPixels({ fixedMs: 5, msPerMegapixel: 3 }, { fixedMs: 1, msPerMegapixel: 2 })).toBeNull();
    expect(crossoverPixels({ fixedMs: 0, msPerMegapixel: 2 }, { fixedMs: 1, msPerMegapixel: 2 })).toBe(0);
  });
  it('falls back to the CPU, saying why', () => {
    expect(chooseThumbnailPath(1e6, null)).toEqual({ path: 'cpu', reason: 'GPU not calibrated yet' });
    expect(chooseThumbnailPath(1e6, null, false).reason).toBe('no WebGPU adapter');
  });
});

describe('calibrate', () => {
  it('measures both paths at each size and fits them', async () => {
    const calls: string[] = [];
    const cal = await calibrate({
      adapter: 'fake',
      cpuThreads: 4,
      longSidePx: 256,
      sizes: [
        [1000, 1000],
        [2000, 2000],
      ],
      repeats: 3,
      gpuThumbnailMs: async (w, h) => (calls.push(`g${w}`), 5 + (w * h) / 1e6),
      cpuThumbnailMs: async (w, h) => (calls.push(`c${w}`), (3 * w * h) / 1e6),
    });
    expect(calls.length).toBe(2 * 2 * 4); // warm-up + 3 repeats, both paths, two sizes
    expect(cal.crossoverPixels).toBe(2.5e6);
  });
});

describe('cache per adapter', () => {
  let dir = '';
  afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));
  it('stores and reloads by adapter name, ignores damaged files', () => {
    dir = mkdtempSync(join(tmpdir(), 'exrview-cal-'));
    expect(loadCalibration(dir, 'A')).toBeNull();
    const a = buildCalibration({
      adapter: 'A',
      cpuThreads: 8,
      longSidePx: 256,
      gpu: [{ pixels: 1e6, ms: 2 }],
      cpu: [{ pixels: 1e6, ms: 3 }],
    });
    const b = buildCalibration({
      adapter: 'B',
      cpuThreads: 8,
      longSidePx: 256,
      gpu: [{ pixels: 1e6, ms: 9 }],
      cpu: [{ pixels: 1e6, ms: 3 }],
    });
    saveCalibration(dir, a);
    saveCalibration(dir, b);
    expect(loadCalibration(dir, 'A')?.gpu.msPerMegapixel).toBeCloseTo(2);
    expect(loadCalibration(dir, 'B')?.gpu.msPerMegapixel).toBeCloseTo(9);
    expect(loadCalibration(dir, 'A', 16)).toBeNull(); // measured with another CPU count
    writeFileSync(calibrationPath(dir), '{not json');
    expect(loadCalibration(dir, 'A')).toBeNull();
  });
});
