// The long fuzz run behind scripts/fuzz-long.mjs: time-boxed, findings written to a folder, a JSON summary printed last.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { makeCase, runCampaign, type Finding } from './campaign.js';
import { CaseRunner } from './harness.js';
import { layoutOf } from './mutate.js';
import { corpusDirOf, corpusSeeds, generatedSeeds, htj2kSeeds } from './seeds.js';

const USAGE = `usage: node scripts/fuzz-long.mjs [--seconds N] [--seed N] [--out DIR] [--corpus-max-bytes N] [--no-corpus]
       node scripts/fuzz-long.mjs --seed N --case I --out DIR   (write one case's bytes, to reproduce it)`;

export async function main(argv: string[], projectRoot: string, workerFile: string): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      seconds: { type: 'string', default: '60' },
      seed: { type: 'string' },
      out: { type: 'string' },
      'corpus-max-bytes': { type: 'string', default: String(4 * 2 ** 20) },
      'no-corpus': { type: 'boolean', default: false },
      case: { type: 'string' },
      'timeout-ms': { type: 'string', default: '10000' },
      'memory-bound-mb': { type: 'string', default: '768' },
      reasons: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const seconds = Number(values.seconds);
  const seed = values.seed !== undefined ? Number(values.seed) >>> 0 : (Date.now() ^ (process.pid << 16)) >>> 0;
  if (!(seconds > 0) || !Number.isFinite(seed)) {
    console.error(USAGE);
    return 2;
  }
  const seeds = [
    ...generatedSeeds(),
    ...(values['no-corpus'] ? [] : [...htj2kSeeds(), ...corpusSeeds(corpusDirOf(projectRoot), Number(values['corpus-max-bytes']))]),
  ];
  const out = values.out ?? mkdtempSync(join(tmpdir(), `exrview-fuzz-${seed}-`));
  mkdirSync(out, { recursive: true });

  if (values.case !== undefined) {
    const index = Number(values.case);
    const c = makeCase(
      seeds,
      seeds.map((s) => layoutOf(s.bytes)),
      seed,
      index,
    );
    const file = join(out, `case-${seed}-${index}.exr`);
    writeFileSync(file, c.bytes);
    console.log(JSON.stringify({ seed, case: index, from: c.seed.name, what: c.what, file }));
    return 0;
  }

  console.error(
    `fuzz: seed ${seed}, ${seeds.length} seeds (${seeds.filter((s) => s.fromCorpus).length} from the corpus), ${seconds} s, findings in ${out}`,
  );
  const runner = new CaseRunner({
    workerFile,
    caseTimeoutMs: Number(values['timeout-ms']),
    maxHeapMb: 1024,
    memoryBoundMb: Number(values['memory-bound-mb']),
  });
  const findings: Array<Omit<Finding, 'bytes'> & { file: string }> = [];
  const onFinding = (f: Finding) => {
    const file = join(out, `${f.failure}-${f.seed.replace(/[^\w.-]+/g, '_')}-${f.caseIndex}.exr`);
    writeFileSync(file, f.bytes);
    const { bytes: _bytes, ...rest } = f;
    findings.push({ ...rest, file });
    console.error(`fuzz: ${f.failure} at case ${f.caseIndex} (${f.seed}: ${f.what}): ${f.kind} ${f.reason?.split('\n')[0] ?? ''}`);
  };
  const deadlineMs = performance.now() + seconds * 1000;
  let progress = setInterval(() => console.error(`fuzz: ${Math.round((deadlineMs - performance.now()) / 1000)} s left`), 60_000);
  progress.unref();
  try {
    const summary = await runCampaign(runner, seeds, { seed, maxCases: Number.MAX_SAFE_INTEGER, deadlineMs, onFinding });
    writeFileSync(join(out, 'summary.json'), JSON.stringify({ ...summary, findings }, null, 2));
    if (values.reasons) for (const [reason, n] of summary.topReasons) console.error(`${String(n).padStart(7)}  ${reason}`);
    console.log(
      JSON.stringify({
        seed,
        cases: summary.cases,
        crashes: summary.failures,
        byFailure: summary.byFailure,
        decoded: summary.decoded,
        refused: summary.refused,
        slowest: summary.slowest,
        medianMs: Number(summary.medianMs.toFixed(3)),
        peakRssMb: Math.round(summary.peakRssMb),
        maxCaseRssGrowthMb: Math.round(summary.maxCaseRssGrowthMb),
        heapGrowthMb: Number(summary.heapGrowthMb.toFixed(2)),
        workersStarted: summary.workersStarted,
        seeds: summary.seeds,
        findings: findings.map((f) => f.file),
        out,
      }),
    );
    return summary.failures > 0 ? 1 : 0;
  } finally {
    clearInterval(progress);
    progress = undefined as never;
    await runner.close();
  }
}
