// What one config fuzz case does: parse the config and build (and run) a bounded set of its processors, or read the LUT file;
// a ColourConfigError that names the file is a refusal, anything else a crash.

import { parseConfig } from '../../../shaders/colour/config.js';
import { ColourConfigError } from '../../../shaders/colour/errors.js';
import { describeConfig } from '../../../shaders/colour/list.js';
import { opsOfLutFile } from '../../../shaders/colour/lut-files.js';
import { applyOps, ProcessorBuilder } from '../../../shaders/colour/processor.js';
import { colourSpaceOfPath } from '../../../shaders/colour/rules.js';
import type { Op } from '../../../shaders/colour/ops/op.js';
import { FORMAT_DIR, FUZZ_DIR, type ConfigSeed } from './config-seeds.js';
import { isEngineReason, type Outcome } from './target.js';

/** What a case carries to the worker. */
export type ConfigCase = Pick<ConfigSeed, 'kind' | 'name' | 'text'>;

export const encodeCase = (c: ConfigCase): Uint8Array => new TextEncoder().encode(JSON.stringify(c));

/** Processors built per config case: enough to reach views, looks and LUTs, few enough for a short case. */
const MAX_PROCESSORS = 24;
/** Values every processor is applied to: ordinary, out of range, and the ones that break arithmetic. */
const PIXELS = Float32Array.from([0.18, 0.5, 1, 1, -1, 0, 65504, 1, NaN, Infinity, -Infinity, 1, 1e-8, 2, 100, 1]);

/** The worker's exercise, with the LUT files config cases read (by their /fuzz path). */
export function configExercise(luts: ReadonlyMap<string, string>): (bytes: Uint8Array) => Outcome {
  return (bytes) => {
    const c = JSON.parse(new TextDecoder().decode(bytes)) as ConfigCase;
    const file = c.kind === 'config' ? `${FUZZ_DIR}/${c.name}` : `${FUZZ_DIR}/luts/${c.name}`;
    try {
      if (c.kind === 'lut') runOps(opsOfLutFile(c.text, file, 'linear'));
      else runConfig(c.text, file, luts);
      return { verdict: 'decoded' };
    } catch (error) {
      return classifyColour(error);
    }
  };
}

function runConfig(text: string, file: string, luts: ReadonlyMap<string, string>): void {
  const env = { FORMAT_LUTS: FORMAT_DIR, SHOW: 'test' };
  const config = parseConfig(text, file, env);
  describeConfig(config);
  colourSpaceOfPath(config, '/shots/a_ACEScg_0001.exr');
  const builder = new ProcessorBuilder(config, {
    readText: (path) => {
      const found = luts.get(path);
      if (found === undefined) throw new Error(`ENOENT: ${path}`);
      return found;
    },
    env,
  });
  const spaces = config.colourSpaces.map((cs) => cs.name);
  // colour-space pairs and views, spread over the config: a refusal of one does not hide the rest
  const stride = Math.max(1, Math.floor(spaces.length / (MAX_PROCESSORS / 2)));
  const jobs: (() => Op[])[] = [];
  for (let k = 0; k < spaces.length && jobs.length < MAX_PROCESSORS / 2; k += stride) {
    const [src, dst] = [spaces[k]!, spaces[(k * 7 + 1) % spaces.length]!];
    jobs.push(() => builder.colourSpace(src, dst));
  }
  const views = config.displays.flatMap((display) => display.views.map((view) => [display.name, view.name] as const));
  const viewStride = Math.max(1, Math.floor(views.length / (MAX_PROCESSORS / 2)));
  for (let k = 0; k < views.length && jobs.length < MAX_PROCESSORS; k += viewStride) {
    const [display, view] = views[k]!;
    const src = spaces[k % Math.max(1, spaces.length)] ?? '';
    jobs.push(() => builder.displayView(src, display, view));
  }
  let firstRefusal: unknown;
  for (const job of jobs) {
    try {
      runOps(job());
    } catch (error) {
      if (!(error instanceof ColourConfigError)) throw error;
      firstRefusal ??= error;
    }
  }
  if (firstRefusal) throw firstRefusal;
}

function runOps(ops: Op[]): void {
  applyOps(ops, PIXELS.slice());
}

/** A ColourConfigError naming a file, with a reason in words, is a refusal; anything else is a crash. */
export function classifyColour(error: unknown): Outcome {
  if (error instanceof ColourConfigError) {
    if (error.file === '' || error.reason.length === 0 || isEngineReason(error.reason))
      return { verdict: 'crash', kind: 'ColourConfigError', reason: error.message };
    return { verdict: 'refused', kind: 'config', reason: error.reason };
  }
  const e = error as Error;
  return {
    verdict: 'crash',
    kind: e?.constructor?.name ?? typeof error,
    reason: `${e?.message ?? String(error)}\n${(e?.stack ?? '').split('\n').slice(1, 6).join('\n')}`,
  };
}
