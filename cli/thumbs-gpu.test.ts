// `exrview thumbs --gpu`: the GPU process (Dawn) against the CPU path on files written by the project's writer, the
// per-image choice from a stored calibration, a crash of the GPU process, and no adapter. Needs the build and a Vulkan driver.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dawnChildEnv } from '../host/thumbnails/gpu/dawn.js';
import { buildCalibration, saveCalibration } from '../host/thumbnails/gpu/calibration.js';
import { writeSamples } from '../host/samples/samples.js';
import { tempDir } from '../testing/host/test-files.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'exrview.mjs');
const env = dawnChildEnv();
const why = !existsSync(join(root, 'dist', 'gpu-thumbs-child.mjs'))
  ? 'dist/gpu-thumbs-child.mjs is missing: run `node scripts/build.mjs`'
  : !existsSync(join(root, 'node_modules/webgpu/package.json'))
    ? 'the webgpu package is not installed'
    : !env.VK_ICD_FILENAMES && !existsSync('/usr/share/vulkan/icd.d')
      ? 'no Vulkan driver found'
      : '';
if (why) console.warn(`thumbs-gpu.test: skipped: ${why}`);

describe.skipIf(!!why)('exrview thumbs --gpu', () => {
  const dir = tempDir('exrview-thumbs-gpu-');
  const images = join(dir.path, 'images');
  const run = (args: string[], extraEnv: Record<string, string> = {}, cache = 'cache') =>
    spawnSync(process.execPath, [bin, 'thumbs', images, ...args], {
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, EXRVIEW_CACHE_DIR: join(dir.path, cache), ...extraEnv },
    });

  beforeAll(() => {
    mkdirSync(images);
    // the first-start samples, written by the project's writer: 0.23 to 0.79 MP, RGB, alpha, layers, tiled MIP levels
    writeSamples(images);
  });
  afterAll(() => dir.remove());

  async function meanAbsDiff(a: string, b: string): Promise<number> {
    const [x, y] = await Promise.all([a, b].map((f) => sharp(f).raw().toBuffer({ resolveWithObject: true })));
    expect([x!.info.width, x!.info.height]).toEqual([y!.info.width, y!.info.height]);
    let sum = 0;
    for (let i = 0; i < x!.data.length; i++) sum += Math.abs(x!.data[i]! - y!.data[i]!);
    return sum / x!.data.length;
  }

  let adapter = '';

  it('--gpu on makes every thumbnail on the GPU, within 2/255 of the CPU path on average', async () => {
    const on = run(['--out', join(dir.path, 'on'), '--gpu', 'on']);
    expect(on.status, on.stderr).toBe(0);
    const m = /path: GPU for 5 of 5 \(--gpu on, ([^)]+)\)/.exec(on.stdout);
    expect(m, on.stdout).not.toBeNull();
    adapter = m![1]!;
    const off = run(['--out', join(dir.path, 'off'), '--gpu', 'off'], {}, 'cache-off');
    expect(off.status, off.stderr).toBe(0);
    expect(off.stdout).toContain('path: CPU (--gpu off)');
    for (const f of readdirSync(join(dir.path, 'off'))) {
      const d = await meanAbsDiff(join(dir.path, 'on', f), join(dir.path, 'off', f));
      expect(d, f).toBeLessThan(2);
    }
  }, 180_000);

  it('--gpu auto chooses per image from the stored calibration of the adapter, and says so', () => {
    expect(adapter).not.toBe('');
    // a calibration with the crossover at 0.75 MP: tiled-mip.exr (1024x768) on the GPU, the four smaller ones on the CPU
    const cache = join(dir.path, 'cache-auto');
    saveCalibration(
      cache,
      buildCalibration({
        adapter,
        cpuThreads: 1,
        longSidePx: 256,
        gpu: [
          { pixels: 1, ms: 30 },
          { pixels: 1e6, ms: 40 },
        ],
        cpu: [
          { pixels: 2e5, ms: 10 },
          { pixels: 1e6, ms: 50 },
        ],
      }),
    );
    const r = run(['--out', join(dir.path, 'auto'), '--gpu', 'auto'], {}, 'cache-auto');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`path: GPU for 1 of 5 \\(${adapter.replace(/[.()]/g, '\\$&')}: GPU faster above 0\\.75 MP`));
    expect(r.stdout).toMatch(/from: .*1 GPU/);
    expect(readdirSync(join(dir.path, 'auto'))).toHaveLength(5);
  }, 120_000);

  it('--gpu auto does not spend time calibrating a software rasteriser: it uses the CPU and says why', () => {
    if (!/swiftshader|llvmpipe|lavapipe/i.test(adapter)) return; // a hardware adapter is calibrated, as above
    const r = run(['--out', join(dir.path, 'soft'), '--gpu', 'auto'], {}, 'cache-soft');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/path: CPU \(auto: no GPU: the only adapter is a software rasteriser/);
    expect(existsSync(join(dir.path, 'cache-soft', 'gpu-calibration.json'))).toBe(false);
    expect(readdirSync(join(dir.path, 'soft'))).toHaveLength(5);
  }, 120_000);

  it('a crash of the GPU process does not end the command: auto goes on on the CPU and says so', () => {
    const crasher = join(dir.path, 'crash-child.mjs');
    writeFileSync(
      crasher,
      "process.send({ type: 'ready', adapter: { key: 'crash test', vendor: '', architecture: '', device: '', description: 'crash test' } });\nprocess.on('message', () => process.abort());\n",
    );
    const cache = join(dir.path, 'cache-crash');
    saveCalibration(
      cache,
      buildCalibration({
        adapter: 'crash test',
        cpuThreads: 1,
        longSidePx: 256,
        gpu: [
          { pixels: 1e5, ms: 1 },
          { pixels: 1e6, ms: 2 },
        ],
        cpu: [
          { pixels: 1e5, ms: 10 },
          { pixels: 1e6, ms: 100 },
        ],
      }),
    );
    const r = run(['--out', join(dir.path, 'crash'), '--gpu', 'auto'], { EXRVIEW_GPU_CHILD: crasher }, 'cache-crash');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/GPU for 0 of 5 \(crash test: GPU faster .*the GPU process ended \(SIGABRT\): 5 made on the CPU instead/);
    expect(readdirSync(join(dir.path, 'crash'))).toHaveLength(5);
  }, 120_000);

  it('--gpu on without an adapter fails with a clear message; auto falls back to the CPU', () => {
    const none = { VK_ICD_FILENAMES: join(dir.path, 'no-such-icd.json') };
    const on = run(['--out', join(dir.path, 'none-on'), '--gpu', 'on'], none);
    expect(on.status).toBe(1);
    expect(on.stderr).toMatch(/^exrview: --gpu on: no GPU thumbnail path here: .*adapter/);
    const auto = run(['--out', join(dir.path, 'none-auto'), '--gpu', 'auto'], none);
    expect(auto.status, auto.stderr).toBe(0);
    expect(auto.stdout).toMatch(/path: CPU \(auto: no GPU: .*adapter/);
  }, 120_000);
});
