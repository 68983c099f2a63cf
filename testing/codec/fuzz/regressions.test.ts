// Replays every file of testing/codec/regressions through the codec under the fuzz harness: each decodes or is refused cleanly, in bounded time and memory.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleWorker, CaseRunner } from './harness.js';

const root = join(__dirname, '..', '..', '..');
export const regressionsDir = join(root, 'testing', 'codec', 'regressions');
const files = readdirSync(regressionsDir)
  .filter((n) => n.endsWith('.exr'))
  .sort();

let work = '';
let runner: CaseRunner | null = null;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'exrview-regressions-'));
  runner = new CaseRunner({ workerFile: await bundleWorker(root, work), caseTimeoutMs: 10_000, maxHeapMb: 512, memoryBoundMb: 256 });
});
afterAll(async () => {
  await runner?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('fuzz regressions through the codec', () => {
  it('has regression files', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  for (const name of files) {
    it(`${name}: decoded or refused cleanly`, async () => {
      const result = await runner!.run(new Uint8Array(readFileSync(join(regressionsDir, name))));
      expect(result.failure, `${result.outcome.kind}: ${result.outcome.reason}`).toBeUndefined();
      expect(result.rssGrowthMb).toBeLessThan(256);
    }, 30_000);
  }
});
