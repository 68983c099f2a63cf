// Test support: finds or builds the OpenEXR C++ oracles and the image tools the conformance tests use, or says why not.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const sharedDir = resolve(here, '../../../../shared');
const buildScript = join(sharedDir, 'tools/build-ref-tools.sh');
const buildDir = join(tmpdir(), 'exrview-oracles');

export interface Oracles {
  /** shared/tools/exr_ref_stats: the stats OpenEXR decodes (the JSON shape of `exrview stats`). */
  refStats: string;
  /** exr_deep_ref: hashes of what OpenEXR reads from deep parts. */
  deepRef: string;
  /** exr_rgba_ref: RgbaInputFile's RGBA halves (luminance/chroma reconstruction). */
  rgbaRef: string;
  /** exr_levels_ref: statistics of every level of every tiled part. */
  levelsRef: string;
  /** exr_deep_range_ref: a deep part's samples and its depth-range composite, as OpenEXR reads them. */
  deepRangeRef: string;
}

export interface ImageTools {
  oiiotool: string | null;
  exrmaketiled: string | null;
  exrmultipart: string | null;
  /** OpenEXR's preview maker (Debian: openexr). */
  exrmakepreview: string | null;
}

function onPath(command: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || null;
  } catch {
    return null;
  }
}

function newerThan(target: string, source: string): boolean {
  return existsSync(target) && statSync(target).mtimeMs >= statSync(source).mtimeMs;
}

let cached: { oracles: Oracles } | { reason: string } | undefined;

/** Builds the oracles once per machine (they are cached in the temp dir); a reason when this machine cannot. */
export function findOracles(): { oracles: Oracles } | { reason: string } {
  if (cached) return cached;
  cached = build();
  return cached;
}

function build(): { oracles: Oracles } | { reason: string } {
  if (!existsSync(buildScript)) return { reason: `${buildScript} is absent (../shared is not beside the repository)` };
  if (!onPath('g++')) return { reason: 'g++ is not installed' };
  try {
    execFileSync('pkg-config', ['--exists', 'OpenEXR'], { stdio: 'ignore' });
  } catch {
    return { reason: 'the OpenEXR C++ library is not installed (Debian: libopenexr-dev)' };
  }
  mkdirSync(buildDir, { recursive: true });
  const refStats = join(buildDir, 'exr_ref_stats');
  try {
    if (!newerThan(refStats, join(sharedDir, 'tools/exr_ref_stats.cpp')))
      execFileSync('bash', [buildScript, buildDir], { stdio: 'ignore' });
    const flags = execFileSync('pkg-config', ['--cflags', '--libs', 'OpenEXR'], { encoding: 'utf8' }).trim().split(/\s+/);
    const built: Record<string, string> = {};
    for (const name of ['exr_deep_ref', 'exr_rgba_ref', 'exr_levels_ref', 'exr_deep_range_ref']) {
      const source = join(here, `${name}.cpp`);
      const binary = join(buildDir, name);
      if (!newerThan(binary, source)) execFileSync('g++', ['-O2', '-o', binary, source, ...flags], { stdio: 'ignore' });
      built[name] = binary;
    }
    return {
      oracles: {
        refStats,
        deepRef: built.exr_deep_ref!,
        rgbaRef: built.exr_rgba_ref!,
        levelsRef: built.exr_levels_ref!,
        deepRangeRef: built.exr_deep_range_ref!,
      },
    };
  } catch (error) {
    return { reason: `building the OpenEXR oracles failed: ${(error as Error).message.split('\n')[0]}` };
  }
}

export function findImageTools(): ImageTools {
  return {
    oiiotool: onPath('oiiotool'),
    exrmaketiled: onPath('exrmaketiled'),
    exrmultipart: onPath('exrmultipart'),
    exrmakepreview: onPath('exrmakepreview'),
  };
}

/** What an oracle prints (trimmed); its error line when OpenEXR rejects the file and exits non-zero. */
export function runText(binary: string, args: string[]): string {
  try {
    return execFileSync(binary, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim();
  } catch (error) {
    const text = String((error as { stdout?: string }).stdout ?? '').trim();
    if (!text) throw error;
    return text;
  }
}

/** Runs an oracle that prints JSON; an error object when OpenEXR rejects the file. */
export function runJson(binary: string, args: string[]): unknown {
  const text = runText(binary, args);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // the oracles print OpenEXR's message unescaped; it may hold quotes
    return { error: text.trim() };
  }
}

/** FNV-1a (32-bit) over bytes, continuing from `hash`: the oracles' hash. */
export function fnv1a(bytes: Uint8Array, hash = 2166136261): number {
  let h = hash >>> 0;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 16777619) >>> 0;
  return h;
}
