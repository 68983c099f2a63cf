// Config fuzz seeds: the test configs of testing/colour/configs/, two built-in ACES configs written out as YAML, and one or
// more LUT files of every format the config path reads (the test LUTs and those make-format-luts.mjs writes).

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtinConfigTree } from '../../../shaders/colour/builtin-configs/index.js';

export interface ConfigSeed {
  /** `config` cases run through parseConfig and a processor builder; `lut` cases through the LUT reader of their extension. */
  kind: 'config' | 'lut';
  /** The file name (its extension picks the LUT reader). */
  name: string;
  text: string;
}

/** Where a case's config sits in the worker's file table: its LUTs resolve from here. */
export const FUZZ_DIR = '/fuzz';
/** $FORMAT_LUTS of formats-test.ocio in the worker's file table. */
export const FORMAT_DIR = '/fuzz/formats';

/** The LUT files every config case may read, by the path the worker's readText answers for. */
export function lutFiles(configDir: string): Map<string, string> {
  const files = new Map<string, string>();
  const lutDir = join(configDir, 'luts');
  for (const name of readdirSync(lutDir)) files.set(`${FUZZ_DIR}/luts/${name}`, readFileSync(join(lutDir, name), 'utf8'));
  const formats = mkdtempSync(join(tmpdir(), 'exrview-config-fuzz-luts-'));
  try {
    execFileSync(process.execPath, [join(configDir, 'make-format-luts.mjs'), formats]);
    for (const name of readdirSync(formats)) files.set(`${FORMAT_DIR}/${name}`, readFileSync(join(formats, name), 'utf8'));
  } finally {
    rmSync(formats, { recursive: true, force: true });
  }
  return files;
}

export async function configSeeds(configDir: string, luts: Map<string, string>): Promise<ConfigSeed[]> {
  const seeds: ConfigSeed[] = readdirSync(configDir)
    .filter((name) => name.endsWith('.ocio'))
    .sort()
    .map((name) => ({ kind: 'config' as const, name, text: readFileSync(join(configDir, name), 'utf8') }));
  for (const uri of ['ocio://cg-config-latest', 'ocio://cg-config-v2.2.0_aces-v1.3_ocio-v2.4']) {
    seeds.push({ kind: 'config', name: `${uri.slice('ocio://'.length)}.ocio`, text: treeToYaml(await builtinConfigTree(uri)) });
  }
  for (const [path, text] of luts) seeds.push({ kind: 'lut', name: path.slice(path.lastIndexOf('/') + 1), text });
  return seeds;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;

/** A built-in config's parsed tree (tags in `$tag`) back to block-style YAML with `!<Tag>`s, a key per line. */
export function treeToYaml(tree: unknown): string {
  const scalar = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));
  const tagOf = (v: unknown): string => (isObject(v) && typeof v.$tag === 'string' ? `!<${v.$tag}> ` : '');
  const isEmpty = (v: unknown): boolean =>
    Array.isArray(v) ? v.length === 0 : isObject(v) && Object.keys(v).every((k) => k.startsWith('$'));
  const lines: string[] = [];
  const block = (v: unknown, pad: string): void => {
    if (Array.isArray(v)) {
      for (const item of v) {
        if (isObject(item) && !isEmpty(item)) {
          lines.push(`${pad}- ${tagOf(item).trimEnd()}`);
          block(item, `${pad}  `);
        } else lines.push(`${pad}- ${inline(item)}`);
      }
      return;
    }
    for (const [key, value] of Object.entries(v as Record<string, unknown>)) {
      if (key.startsWith('$')) continue;
      if (isObject(value) && !isEmpty(value)) {
        lines.push(`${pad}${JSON.stringify(key)}: ${tagOf(value).trimEnd()}`);
        block(value, `${pad}  `);
      } else lines.push(`${pad}${JSON.stringify(key)}: ${inline(value)}`);
    }
  };
  const inline = (v: unknown): string => {
    if (Array.isArray(v)) return `${tagOf(v)}[${v.map(inline).join(', ')}]`;
    if (isObject(v)) return `${tagOf(v)}{}`;
    return scalar(v);
  };
  block(tree, '');
  return `${lines.join('\n')}\n`;
}
