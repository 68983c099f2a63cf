// The bounded fuzz run of `npm test`: a few thousand seeded mutations of our own files (and small corpus files), each decoded or refused with an ExrError in bounded time and memory.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaign, type Finding } from './campaign.js';
import { bundleWorker, CaseRunner } from './harness.js';
import { corpusDirOf, corpusSeeds, generatedSeeds, htj2kSeeds } from './seeds.js';

const root = join(__dirname, '..', '..', '..');
/** Fixed by default so `npm test` is reproducible; EXRVIEW_FUZZ_SEED explores elsewhere. */
const SEED = Number(process.env.EXRVIEW_FUZZ_SEED ?? 20260611) >>> 0;
const CASES = Number(process.env.EXRVIEW_FUZZ_CASES ?? 4000);
/** Generous for a loaded 2-core machine: a real hang runs forever, a slow case here takes well under a second. */
const CASE_TIMEOUT_MS = 10_000;
/** Small corpus files only: a case of a large file costs milliseconds, and the bounded run must stay short. */
const CORPUS_MAX_BYTES = 64 * 1024;

let work = '';
let workerFile = '';

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'exrview-fuzz-test-'));
  workerFile = await bundleWorker(root, work);
});

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('the fuzz harness catches what it is there to catch', () => {
  // a stand-in worker speaking the harness protocol, misbehaving on request: the harness must report, not die
  const fakeWorker = `
    import { parentPort } from 'node:worker_threads';
    const hold = [];
    parentPort.on('message', (m) => {
      const t0 = performance.now();
      const op = m.type === 'case' ? m.bytes[0] : 0;
      let outcome = { verdict: 'decoded' };
      if (op === 1) for (;;) {}
      if (op === 2) for (;;) hold.push(new Array(1e6).fill({}));
      if (op === 3) outcome = { verdict: 'crash', kind: 'TypeError', reason: 'x' };
      if (op === 4) { const b = new Uint8Array(96 * 2 ** 20); b.fill(1); hold.push(b); }
      parentPort.postMessage({ id: m.id, outcome, ms: performance.now() - t0, maxRssKb: process.resourceUsage().maxRSS, heapUsedBytes: 0, arrayBuffersBytes: 0 });
    });`;

  it('reports a hang, an out-of-memory worker, a crash and a memory bound, and keeps running cases', async () => {
    const file = join(work, 'fake-worker.mjs');
    writeFileSync(file, fakeWorker);
    const runner = new CaseRunner({ workerFile: file, caseTimeoutMs: 1500, maxHeapMb: 64, memoryBoundMb: 64 });
    try {
      expect((await runner.run(Uint8Array.of(0))).failure).toBeUndefined();
      expect((await runner.run(Uint8Array.of(1))).failure).toBe('hang');
      expect((await runner.run(Uint8Array.of(0))).failure).toBeUndefined();
      expect((await runner.run(Uint8Array.of(2))).failure).toBe('oom');
      expect((await runner.run(Uint8Array.of(3))).failure).toBe('crash');
      expect((await runner.run(Uint8Array.of(4))).failure).toBe('memory');
      expect((await runner.run(Uint8Array.of(0))).failure).toBeUndefined();
      expect(runner.workersStarted).toBe(3);
    } finally {
      await runner.close();
    }
  }, 60_000);
});

describe('mutation fuzzing of the codec', () => {
  it(`decodes or refuses every case cleanly (seed ${SEED}, ${CASES} cases)`, async () => {
    const seeds = [...generatedSeeds(), ...htj2kSeeds(), ...corpusSeeds(corpusDirOf(root), CORPUS_MAX_BYTES)];
    expect(seeds.length).toBeGreaterThanOrEqual(30);
    const runner = new CaseRunner({ workerFile, caseTimeoutMs: CASE_TIMEOUT_MS, maxHeapMb: 512, memoryBoundMb: 256 });
    const findings: Finding[] = [];
    const summary = await runCampaign(runner, seeds, { seed: SEED, maxCases: CASES, onFinding: (f) => findings.push(f) }).finally(() =>
      runner.close(),
    );
    const { topReasons: _reasons, ...numbers } = summary;
    console.log(`fuzz: ${JSON.stringify(numbers)}`);
    const described = findings.map((f) => `case ${f.caseIndex} (${f.seed}: ${f.what}) -> ${f.failure}: ${f.kind} ${f.reason}`);
    expect(
      described,
      `seed ${SEED}; write case N with: node scripts/fuzz-long.mjs --seed ${SEED} --corpus-max-bytes ${CORPUS_MAX_BYTES} --case N --out DIR`,
    ).toEqual([]);
    expect(summary.cases).toBe(CASES);
    // the mutations must reach past the header checks: some cases decode, many different checks refuse
    expect(summary.decoded).toBeGreaterThan(CASES * 0.05);
    expect(summary.refused).toBeGreaterThan(CASES * 0.5);
    expect(summary.topReasons.length).toBeGreaterThanOrEqual(30);
    // nothing accumulates across cases in the worker's heap
    expect(summary.heapGrowthMb).toBeLessThan(16);
  }, 180_000);
});
