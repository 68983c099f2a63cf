// Damaged files through the host's own readers: the folder scan's header summary and the thumbnail jobs (the flat one's own
// chunk decoder, the deep one's flattening), under the codec fuzz harness.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCampaign, type Finding } from '../../testing/codec/fuzz/campaign.js';
import { bundleWorker, CaseRunner } from '../../testing/codec/fuzz/harness.js';
import { generatedSeeds } from '../../testing/codec/fuzz/seeds.js';

const root = join(__dirname, '..', '..');
const SEED = Number(process.env.EXRVIEW_FUZZ_SEED ?? 20260612) >>> 0;
const CASES = Number(process.env.EXRVIEW_FUZZ_HOST_CASES ?? 1500);

/**
 * The worker: each case is written to a file (both readers take paths), summarised as the library
 * does, then thumbnailed as the decode pool does. readSummary turns every failure into a message, so
 * a message that is an engine error (a TypeError's text) counts as a crash too.
 */
const workerSource = (dir: string) => `
import { writeFileSync } from 'node:fs';
import { serve } from './testing/codec/fuzz/worker-protocol.ts';
import { classify, isEngineReason } from './testing/codec/fuzz/target.ts';
import { readSummary } from './host/headers/summary.ts';
import { thumbnailJob } from './host/thumbnails/job.ts';
import { deepThumbnailPart, deepThumbnailTask } from './host/thumbnails/deep-thumbnail.ts';
const path = ${JSON.stringify(join(dir, 'case.exr'))};
serve(async (bytes) => {
  writeFileSync(path, bytes);
  try {
    const summary = await readSummary(path);
    if (summary.kind !== 'ok') {
      if (isEngineReason(summary.reason)) return { verdict: 'crash', kind: 'summary', reason: summary.reason };
      return { verdict: 'refused', kind: summary.kind, reason: summary.reason };
    }
    // a deep-only file's thumbnail is flattened in a task of its own, as the pool does
    const deepPart = deepThumbnailPart(summary.parts);
    for (const longSidePx of [7, 64]) {
      if (deepPart) deepThumbnailTask({ path, part: deepPart.index, longSidePx }, { signal: { aborted: false } });
      else thumbnailJob({ path, longSidePx }, { signal: { aborted: false } });
    }
    return { verdict: 'decoded' };
  } catch (error) {
    return classify(error);
  }
});
`;

let work = '';
let workerFile = '';
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'exrview-host-fuzz-'));
  workerFile = await bundleWorker(root, work, { name: 'host-fuzz-worker', contents: workerSource(work) });
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

const regressionsDir = join(root, 'testing', 'codec', 'regressions');
const regressions = readdirSync(regressionsDir)
  .filter((n) => n.endsWith('.exr'))
  .sort();

describe('damaged files through the folder scan and the thumbnail job', () => {
  it('replays the fuzz regressions (testing/codec/regressions) cleanly', async () => {
    const runner = new CaseRunner({ workerFile, caseTimeoutMs: 10_000, maxHeapMb: 512, memoryBoundMb: 256 });
    try {
      expect(regressions.length).toBeGreaterThan(0);
      for (const name of regressions) {
        const result = await runner.run(new Uint8Array(readFileSync(join(regressionsDir, name))));
        expect(result.failure, `${name}: ${result.outcome.kind}: ${result.outcome.reason}`).toBeUndefined();
        expect(result.ms, name).toBeLessThan(5_000);
      }
    } finally {
      await runner.close();
    }
  }, 120_000);

  it(`summarises and thumbnails or refuses every case cleanly (seed ${SEED}, ${CASES} cases)`, async () => {
    const runner = new CaseRunner({ workerFile, caseTimeoutMs: 10_000, maxHeapMb: 512, memoryBoundMb: 256 });
    const findings: Finding[] = [];
    const summary = await runCampaign(runner, generatedSeeds(), {
      seed: SEED,
      maxCases: CASES,
      onFinding: (f) => findings.push(f),
    }).finally(() => runner.close());
    const { topReasons: _r, ...numbers } = summary;
    console.log(`host fuzz: ${JSON.stringify(numbers)}`);
    const hint = `seed ${SEED}; write case N with: node scripts/fuzz-long.mjs --seed ${SEED} --no-corpus --case N --out DIR`;
    expect(
      findings.map((f) => `case ${f.caseIndex} (${f.seed}: ${f.what}) -> ${f.failure}: ${f.kind} ${f.reason}`),
      hint,
    ).toEqual([]);
    expect(summary.cases).toBe(CASES);
    expect(summary.decoded).toBeGreaterThan(CASES * 0.05);
  }, 180_000);
});
