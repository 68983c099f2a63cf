// The OpenColorIO oracle: a lattice of test values, exrview's processor and ocio_apply run on it, and their difference.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyOps, parseConfig, ProcessorBuilder } from '../../shaders/colour/index.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const OCIO_APPLY = resolve(repoRoot, '../shared/tools/ocio-2/ocio_apply');
export const oraclePresent = existsSync(OCIO_APPLY);
export const CONFIG_DIR = resolve(repoRoot, 'testing/colour/configs');

/** 17 values per channel: -1, 0, then log steps up to 65504; then every channel pattern with NaN and ±Inf. */
export function latticePixels(): Float32Array {
  const steps = [-1, -0.01, 0, ...Array.from({ length: 14 }, (_, i) => 1e-3 * Math.pow(65504 / 1e-3, i / 13))];
  const specials = [NaN, Infinity, -Infinity, 0.18, 0.5];
  const pixels: number[] = [];
  for (const r of steps) for (const g of steps) for (const b of steps) pixels.push(r, g, b, 1);
  for (const r of specials) for (const g of specials) for (const b of specials) pixels.push(r, g, b, 1);
  return Float32Array.from(pixels);
}

/** The camera-log encoded range, -0.1 to 1.2, 17 steps per channel. */
export function encodedPixels(): Float32Array {
  const steps = Array.from({ length: 17 }, (_, i) => -0.1 + (1.3 * i) / 16);
  const pixels: number[] = [];
  for (const r of steps) for (const g of steps) for (const b of steps) pixels.push(r, g, b, 1);
  return Float32Array.from(pixels);
}

export function runOcioApply(config: string, args: string[], pixels: Float32Array, env: Record<string, string> = {}): Float32Array {
  const result = spawnSync(OCIO_APPLY, [config, ...args], {
    input: Buffer.from(pixels.buffer, pixels.byteOffset, pixels.byteLength),
    env: { ...process.env, OCIO_OPT: 'lossless', ...env },
    maxBuffer: 1 << 28,
  });
  if (result.status !== 0) throw new Error(`ocio_apply ${args.join(' ')} failed: ${result.stderr.toString().trim()}`);
  const out = new Float32Array(result.stdout.length / 4);
  new Uint8Array(out.buffer).set(result.stdout);
  return out;
}

/** `env` stands for the process environment (context variables, OCIO_INACTIVE_COLORSPACES), as ocio_apply reads it. */
export function loadBuilder(configPath: string, env: Record<string, string> = {}): ProcessorBuilder {
  return new ProcessorBuilder(parseConfig(readFileSync(configPath, 'utf8'), configPath, env), {
    readText: (path) => readFileSync(path, 'utf8'),
    env,
  });
}

export function runExrview(builder: ProcessorBuilder, args: string[], pixels: Float32Array, looks?: string): Float32Array {
  const ops = args[0] === 'cs' ? builder.colourSpace(args[1]!, args[2]!) : builder.displayView(args[1]!, args[2]!, args[3]!, looks);
  const out = pixels.slice();
  applyOps(ops, out);
  return out;
}

export interface Difference {
  /** The largest error, absolute up to 1 and relative above (as the issue measures). */
  maxError: number;
  /** The first pixel where the two disagree beyond `tolerance`, for the message. */
  worst?: { index: number; input: number[]; expected: number[]; actual: number[] };
}

export function difference(input: Float32Array, expected: Float32Array, actual: Float32Array): Difference {
  let maxError = 0;
  let worstAt = -1;
  for (let i = 0; i < expected.length; i++) {
    if (i % 4 === 3) continue;
    const e = expected[i]!,
      a = actual[i]!;
    let error: number;
    if (Number.isNaN(e) || Number.isNaN(a)) error = Number.isNaN(e) && Number.isNaN(a) ? 0 : Infinity;
    else if (!Number.isFinite(e) || !Number.isFinite(a)) error = e === a ? 0 : Infinity;
    else error = Math.abs(e - a) / Math.max(1, Math.abs(e));
    if (error > maxError) {
      maxError = error;
      worstAt = i - (i % 4);
    }
  }
  const pick = (arr: Float32Array): number[] => Array.from(arr.subarray(worstAt, worstAt + 4));
  return {
    maxError,
    worst: worstAt >= 0 ? { index: worstAt / 4, input: pick(input), expected: pick(expected), actual: pick(actual) } : undefined,
  };
}

/** Every processor of a config the oracle tests: each (colour space → display, view) and each colour-space pair. */
export function processorsOf(builder: ProcessorBuilder): string[][] {
  const spaces = builder.config.colourSpaces.map((cs) => cs.name);
  const out: string[][] = [];
  for (const src of spaces) {
    for (const display of builder.config.displays) for (const view of display.views) out.push(['dv', src, display.name, view.name]);
    for (const dst of spaces) if (dst !== src) out.push(['cs', src, dst]);
  }
  return out;
}
