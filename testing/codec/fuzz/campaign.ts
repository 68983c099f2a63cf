// A fuzz campaign: seeded cases over a set of seeds through a CaseRunner, summarised as numbers a test can assert and a script can print.

import { createHash } from 'node:crypto';
import type { CaseRunner, Failure } from './harness.js';
import { layoutOf, mutate, prng, type Layout } from './mutate.js';
import type { Seed } from './seeds.js';

export interface Finding {
  caseIndex: number;
  seed: string;
  fromCorpus: boolean;
  what: string;
  failure: Failure;
  kind?: string;
  reason?: string;
  ms: number;
  bytes: Uint8Array;
  sha1: string;
}

export interface CampaignOptions {
  /** The campaign's seed: case i is reproducible from (seed, i) alone. */
  seed: number;
  /** Stop after this many cases... */
  maxCases: number;
  /** ...or at this time (performance.now() ms), whichever comes first. */
  deadlineMs?: number;
  firstCase?: number;
  onFinding?(finding: Finding): void;
}

export interface CampaignSummary {
  seed: number;
  cases: number;
  decoded: number;
  refused: number;
  failures: number;
  byFailure: Partial<Record<Failure, number>>;
  /** Refusal kinds (invalid / unsupported / io / aborted). */
  byKind: Record<string, number>;
  /** The most frequent refusal reasons (numbers blanked): shows which checks the cases reach. */
  topReasons: Array<[string, number]>;
  slowest: { ms: number; caseIndex: number; seed: string; what: string };
  medianMs: number;
  peakRssMb: number;
  maxCaseRssGrowthMb: number;
  /** Worker heap after a full collection at the end, minus at the start (MiB): what the cases leaked. */
  heapGrowthMb: number;
  workersStarted: number;
  seeds: number;
  elapsedMs: number;
}

/** The case-index-derived stream, so `--case N` reproduces one case without running the ones before it. */
export function caseRng(seed: number, caseIndex: number) {
  return prng((Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(caseIndex + 1, 0xc2b2ae35)) >>> 0);
}

export function makeCase(seeds: readonly Seed[], layouts: ReadonlyArray<Layout | undefined>, seed: number, caseIndex: number) {
  const rng = caseRng(seed, caseIndex);
  const s = rng.int(seeds.length);
  const m = mutate(seeds[s]!.bytes, layouts[s], rng);
  return { seed: seeds[s]!, ...m };
}

export async function runCampaign(runner: CaseRunner, seeds: readonly Seed[], options: CampaignOptions): Promise<CampaignSummary> {
  const t0 = performance.now();
  const layouts = seeds.map((s) => layoutOf(s.bytes));
  const summary: CampaignSummary = {
    seed: options.seed,
    cases: 0,
    decoded: 0,
    refused: 0,
    failures: 0,
    byFailure: {},
    byKind: {},
    topReasons: [],
    slowest: { ms: 0, caseIndex: -1, seed: '', what: '' },
    medianMs: 0,
    peakRssMb: 0,
    maxCaseRssGrowthMb: 0,
    heapGrowthMb: 0,
    workersStarted: 0,
    seeds: seeds.length,
    elapsedMs: 0,
  };
  const times: number[] = [];
  const reasons = new Map<string, number>();
  const first = options.firstCase ?? 0;
  for (let i = first; i < first + options.maxCases; i++) {
    if (options.deadlineMs !== undefined && performance.now() >= options.deadlineMs) break;
    const c = makeCase(seeds, layouts, options.seed, i);
    const result = await runner.run(c.bytes);
    summary.cases++;
    times.push(result.ms);
    summary.maxCaseRssGrowthMb = Math.max(summary.maxCaseRssGrowthMb, result.rssGrowthMb);
    if (result.ms > summary.slowest.ms) summary.slowest = { ms: result.ms, caseIndex: i, seed: c.seed.name, what: c.what };
    if (result.failure) {
      summary.failures++;
      summary.byFailure[result.failure] = (summary.byFailure[result.failure] ?? 0) + 1;
      options.onFinding?.({
        caseIndex: i,
        seed: c.seed.name,
        fromCorpus: c.seed.fromCorpus,
        what: c.what,
        failure: result.failure,
        kind: result.outcome.kind,
        reason: result.outcome.reason,
        ms: result.ms,
        bytes: c.bytes,
        sha1: createHash('sha1').update(c.bytes).digest('hex'),
      });
    } else if (result.outcome.verdict === 'decoded') {
      summary.decoded++;
    } else {
      summary.refused++;
      const k = result.outcome.kind ?? '?';
      summary.byKind[k] = (summary.byKind[k] ?? 0) + 1;
      const r = (result.outcome.reason ?? '')
        .replace(/-?\d+(\.\d+)?/g, 'N')
        .replace(/"[^"]*"/g, '"…"')
        .slice(0, 100);
      reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
  }
  times.sort((a, b) => a - b);
  summary.topReasons = [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 40);
  summary.medianMs = times.length ? times[times.length >> 1]! : 0;
  const baseline = runner.baselineHeapBytes;
  summary.heapGrowthMb = baseline ? ((await runner.heapAfterGc()) - baseline) / 2 ** 20 : 0;
  summary.peakRssMb = runner.peakRssMb;
  summary.workersStarted = runner.workersStarted;
  summary.elapsedMs = performance.now() - t0;
  return summary;
}
