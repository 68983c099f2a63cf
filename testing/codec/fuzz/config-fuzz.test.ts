// The bounded config fuzz run of `npm test`: seeded text mutations of the test configs, two built-in ACES configs and a LUT
// file of every format, each parsed and built, or refused with a ColourConfigError naming the file, in bounded time and memory.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../shaders/colour/config.js';
import { describeConfig } from '../../../shaders/colour/list.js';
import { openConfig } from '../../../shaders/colour/open-config.js';
import { caseRng } from './campaign.js';
import { mutateText } from './config-mutate.js';
import { configSeeds, lutFiles, type ConfigSeed } from './config-seeds.js';
import { encodeCase } from './config-target.js';
import { bundleWorker, CaseRunner } from './harness.js';

const root = join(__dirname, '..', '..', '..');
const CONFIG_DIR = join(root, 'testing', 'colour', 'configs');
/** Fixed by default so `npm test` is reproducible; EXRVIEW_FUZZ_SEED explores elsewhere. */
const SEED = Number(process.env.EXRVIEW_FUZZ_SEED ?? 20261128) >>> 0;
const CASES = Number(process.env.EXRVIEW_CONFIG_FUZZ_CASES ?? 1500);
/** The run stops here, whichever of this and CASES comes first: the suite stays bounded on a loaded machine. */
const BUDGET_MS = Number(process.env.EXRVIEW_CONFIG_FUZZ_MS ?? 60_000);
/** One case alone (its index), to reproduce a finding: EXRVIEW_FUZZ_SEED=S EXRVIEW_CONFIG_FUZZ_CASE=N. */
const ONLY_CASE = process.env.EXRVIEW_CONFIG_FUZZ_CASE === undefined ? undefined : Number(process.env.EXRVIEW_CONFIG_FUZZ_CASE);
/** A real hang runs forever; the slowest honest case (a mutated ACES config with its processors) takes well under a second. */
const CASE_TIMEOUT_MS = 10_000;

let work = '';
let workerFile = '';
let seeds: ConfigSeed[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'exrview-config-fuzz-'));
  const luts = lutFiles(CONFIG_DIR);
  seeds = await configSeeds(CONFIG_DIR, luts);
  const lutsFile = join(work, 'luts.json');
  writeFileSync(lutsFile, JSON.stringify([...luts]));
  workerFile = await bundleWorker(root, work, {
    name: 'config-fuzz-worker',
    contents: [
      "import { readFileSync } from 'node:fs';",
      "import { configExercise } from './testing/codec/fuzz/config-target.ts';",
      "import { serve } from './testing/codec/fuzz/worker-protocol.ts';",
      `serve(configExercise(new Map(JSON.parse(readFileSync(${JSON.stringify(lutsFile)}, 'utf8')))));`,
    ].join('\n'),
  });
}, 120_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('config fuzz seeds', () => {
  it('cover every test config, two built-in configs and every LUT format', () => {
    const names = seeds.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['studio-test.ocio', 'v1-test.ocio', 'formats-test.ocio', 'cg-config-latest.ocio']));
    const formats = new Set(seeds.filter((s) => s.kind === 'lut').map((s) => s.name.slice(s.name.lastIndexOf('.') + 1)));
    expect([...formats].sort()).toEqual(['3dl', 'clf', 'csp', 'ctf', 'cube', 'spi1d', 'spi3d', 'spimtx']);
  });

  it('a built-in config written out as YAML reads back as the same config', async () => {
    const seed = seeds.find((s) => s.name === 'cg-config-latest.ocio')!;
    const reader = { readText: (): string => '', readBytes: (): Uint8Array => new Uint8Array() };
    const builtin = (await openConfig('ocio://cg-config-latest', reader)).config;
    expect(describeConfig(parseConfig(seed.text, 'cg.ocio'), 'x')).toEqual(describeConfig(builtin, 'x'));
  });
});

describe('mutation fuzzing of configs and LUT files', () => {
  it(`parses or refuses every case with a ColourConfigError (seed ${SEED}, up to ${CASES} cases)`, async () => {
    const runner = new CaseRunner({ workerFile, caseTimeoutMs: CASE_TIMEOUT_MS, maxHeapMb: 512, memoryBoundMb: 160 });
    const findings: string[] = [];
    const reasons = new Map<string, number>();
    let cases = 0,
      parsed = 0,
      refused = 0;
    const deadline = performance.now() + BUDGET_MS;
    try {
      const [first, end] = ONLY_CASE === undefined ? [0, CASES] : [ONLY_CASE, ONLY_CASE + 1];
      for (let i = first; i < end && performance.now() < deadline; i++) {
        const rng = caseRng(SEED, i);
        const seed = seeds[rng.int(seeds.length)]!;
        const mutated = mutateText(seed.text, rng);
        const result = await runner.run(encodeCase({ kind: seed.kind, name: seed.name, text: mutated.text }));
        cases++;
        if (result.failure) {
          // the case's text, kept past the run: open it with `exrview ocio list` or a test
          const kept = join(tmpdir(), `exrview-config-fuzz-${SEED}-${i}-${seed.name}`);
          writeFileSync(kept, mutated.text);
          findings.push(
            `case ${i} (${seed.name}: ${mutated.what}; ${kept}) -> ${result.failure}: ${result.outcome.kind} ${result.outcome.reason}`,
          );
        } else if (result.outcome.verdict === 'decoded') parsed++;
        else {
          refused++;
          const reason = (result.outcome.reason ?? '').replace(/-?\d+(\.\d+)?/g, 'N').replace(/"[^"]*"/g, '"…"');
          reasons.set(reason.slice(0, 60), (reasons.get(reason.slice(0, 60)) ?? 0) + 1);
        }
      }
    } finally {
      await runner.close();
    }
    console.log(
      `config fuzz: ${JSON.stringify({ seed: SEED, cases, parsed, refused, reasons: reasons.size, workers: runner.workersStarted })}`,
    );
    expect(findings, `seed ${SEED}: rerun one case with EXRVIEW_FUZZ_SEED=${SEED} EXRVIEW_CONFIG_FUZZ_CASE=N`).toEqual([]);
    // enough cases, and mutations that reach past the first check: some still build, many different checks refuse
    if (ONLY_CASE !== undefined) return;
    expect(cases).toBeGreaterThanOrEqual(Math.min(CASES, 200));
    expect(parsed).toBeGreaterThan(cases * 0.05);
    expect(refused).toBeGreaterThan(cases * 0.2);
    expect(reasons.size).toBeGreaterThanOrEqual(20);
  }, 180_000);
});
