// GPU tests that run Dawn in a child process: why such a test is skipped here, its child's bundle, and one run of it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { dawnChildEnv } from '../host/thumbnails/gpu/dawn.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = dawnChildEnv();

/** Why a Dawn test cannot run on this machine; '' when it can. */
export function dawnSkipReason(): string {
  if (!existsSync(join(root, 'node_modules/webgpu/package.json'))) return 'the webgpu package is not installed';
  if (!env.VK_ICD_FILENAMES && !env.VK_DRIVER_FILES && !existsSync('/usr/share/vulkan/icd.d'))
    return 'no Vulkan driver found (install chromium or mesa-vulkan-drivers)';
  return '';
}

/** Bundles `entry` (a path from the project's root) as `child.mjs` in a new folder under dist/, returned. */
export async function bundleDawnChild(entry: string, label: string): Promise<string> {
  // inside the project (dist/ is ignored): the bundle's `import 'webgpu'` resolves from node_modules above it
  mkdirSync(join(root, 'dist'), { recursive: true });
  const dir = mkdtempSync(join(root, 'dist', `${label}-`));
  await build({
    absWorkingDir: root,
    entryPoints: [{ in: entry, out: 'child' }],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    external: ['webgpu'],
    loader: { '.wgsl': 'text' },
    logLevel: 'warning',
    banner: { js: "import { createRequire as __childRequire } from 'node:module'; const require = __childRequire(import.meta.url);" },
  });
  return dir;
}

/** Runs the bundled child with `args`; `died` says how it failed ('' when it exited 0), with the end of its stderr. */
export function runDawnChild(dir: string, args: string[]): { died: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(dir, 'child.mjs'), ...args], { cwd: root, env, encoding: 'utf8', timeout: 120_000 });
  const died = r.signal ? `killed by ${r.signal}` : r.status !== 0 ? `exit ${r.status}` : '';
  return { died, stderr: r.stderr.slice(-2000) };
}
