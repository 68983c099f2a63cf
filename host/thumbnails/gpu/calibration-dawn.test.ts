// The Dawn upload path in a child process (a native abort fails the test instead of killing the runner): bit-exact
// uploads, a soak of 500 consecutive 4K uploads, and a clean GpuDeviceLostError after device loss. Needs a Vulkan driver.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** The environment Dawn needs here: a Vulkan ICD (SwiftShader from Debian's chromium, or Mesa) and a loader. */
function dawnEnv(): NodeJS.ProcessEnv | null {
  if (process.env.VK_ICD_FILENAMES || process.env.VK_DRIVER_FILES) return process.env;
  const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
  const lavapipe = ['/usr/share/vulkan/icd.d/lvp_icd.x86_64.json', '/usr/share/vulkan/icd.d/lvp_icd.aarch64.json'].find((f) =>
    existsSync(f),
  );
  if (existsSync(swiftshader))
    return {
      ...process.env,
      VK_ICD_FILENAMES: swiftshader,
      LD_LIBRARY_PATH: ['/usr/lib/chromium', process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
    };
  if (lavapipe) return { ...process.env, VK_ICD_FILENAMES: lavapipe };
  return null;
}

const env = dawnEnv();
const haveDawn = existsSync(join(root, 'node_modules/webgpu/package.json'));
const why = !env
  ? 'no Vulkan driver found (install chromium or mesa-vulkan-drivers)'
  : !haveDawn
    ? 'the webgpu package is not installed'
    : '';
if (why) console.warn(`gpu-calibration-dawn.test: skipped: ${why}`);

describe.skipIf(!!why)('Dawn upload path (child process)', () => {
  let dir = '';
  beforeAll(async () => {
    // inside the project (dist/ is ignored): the bundle's `import 'webgpu'` resolves from node_modules above it
    dir = mkdtempSync(join(root, 'dist', 'gpu-bench-test-'));
    const r = spawnSync(process.execPath, [join(root, 'bench/gpu/build.mjs'), join(dir, 'gpu-bench')], { cwd: root, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  const run = (args: string[], timeoutMs: number) => {
    // the bundle imports `webgpu` from the project's node_modules: run it from a folder beside them
    const r = spawnSync(process.execPath, [join(dir, 'gpu-bench/bench.mjs'), ...args, '--out', join(dir, 'out.json')], {
      cwd: root,
      env: env!,
      encoding: 'utf8',
      timeout: timeoutMs,
    });
    const died = r.signal ? `killed by ${r.signal}` : r.status !== 0 ? `exit ${r.status}` : '';
    expect(died, `${died}\n${r.stderr.slice(-2000)}`).toBe('');
    return JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8')) as Record<string, Record<string, unknown>>;
  };

  it('uploads bit-exactly and reports device loss as GpuDeviceLostError', () => {
    const out = run(['verify'], 120_000);
    expect(out.verify!.ok, JSON.stringify(out.verify)).toBe(true);
    const lost = run(['lost'], 60_000);
    expect(lost.deviceLoss!.clean, JSON.stringify(lost.deviceLoss)).toBe(true);
  }, 200_000);

  it('survives 500 consecutive 4K half RGBA uploads', () => {
    const out = run(['soak', '--soak', '500', '--quick'], 400_000);
    expect(out.soak!.survived).toBe(true);
    expect(out.soak!.uploads).toBe(500);
    expect(out.soak!.mismatchedBytes).toBe(0);
    expect(out.soakWriteTexture!.survived).toBe(true);
  }, 420_000);
});
