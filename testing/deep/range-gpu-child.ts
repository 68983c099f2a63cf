// The depth-range pass (shaders/deep/range-gpu.ts) on Dawn against the CPU reference, in a child process (a native
// abort fails the test instead of killing the runner). Usage: node child.mjs DIR OUT.json; writes the cases' results.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeExr } from '../../codec/writer.js';
import { loadDawn, openDawnDevice } from '../../host/thumbnails/gpu/dawn.js';
import { deepSamplesTask } from '../../host/decode/deep-samples-task.js';
import { columnsOf } from '../../shaders/deep/columns.js';
import { compositeRange, type DepthRange } from '../../shaders/deep/range-composite.js';
import { DeepRangePass, uploadDeepSamples, type RangeWorkgroup } from '../../shaders/deep/range-gpu.js';
import { packSlots } from '../../shaders/deep/range-pack.js';
import { deepVolumeSource } from '../codec/oracle/deep-volumes.js';
import { readTextureFloats } from '../gpu-readback.js';

export interface RangeCase {
  slots: string;
  range: string;
  workgroup: string;
  /** Values whose GPU bits differ from the CPU's. */
  mismatches: number;
  /** Largest |gpu - cpu| / max(1, |cpu|). */
  maxError: number;
  /** The range cuts a volume sample somewhere (the split's exp2/log2 are the GPU's own). */
  splits: boolean;
  /** Pixels with a non-zero composite. */
  covered: number;
}

async function main(): Promise<void> {
  const [dir, outPath] = process.argv.slice(2);
  await loadDawn();
  const { device, adapter } = await openDawnDevice();
  // sides that are not multiples of the workgroup, so the edge threads are exercised
  const [w, h] = [67, 45];
  const deep = deepVolumeSource(w, h, 7, 3);
  const path = join(dir!, 'volumes.exr');
  writeFileSync(
    path,
    writeExr([
      {
        compression: 'zips',
        dataWindow: { xMin: 0, yMin: 0, xMax: w - 1, yMax: h - 1 },
        channels: deep.channels,
        deepSampleCounts: deep.sampleCounts,
      },
    ]),
  );
  const columns = columnsOf(deepSamplesTask({ path, part: 0, sortByDepth: true }, { signal: { aborted: false } }).result);
  const names = deep.channels.map((c) => c.name);
  const at = (n: string | null): number | null => (n === null ? null : names.indexOf(n));
  const slotSets: (string | null)[][] = [
    ['R', 'G', 'B', 'A'],
    ['diffuse.R', null, null, 'diffuse.A'],
    ['Z', 'id', 'R', null],
  ];
  const ranges: DepthRange[] = [
    { near: 0, far: 100 },
    { near: 2.625, far: 5.125 },
    { near: 4, far: 4 },
    { near: 3.1, far: 3.3 },
    { near: 50, far: 60 },
  ];
  const shapes: RangeWorkgroup[] = [
    [8, 8],
    [16, 4],
  ];
  const pass = new DeepRangePass(device);
  const target = device.createTexture({
    size: [w, h],
    format: 'rgba32float',
    usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
  });
  const cases: RangeCase[] = [];
  for (const slots of slotSets) {
    const indices = slots.map(at);
    const buffers = uploadDeepSamples(device, packSlots(columns, indices));
    for (const range of ranges) {
      const cpuPlanes = compositeRange(columns, range);
      let splits = false;
      for (let s = 0; s < columns.z.length; s++) {
        const z = columns.z[s]!;
        const back = columns.zBack[s]!;
        if (back > z && ((z < range.near && back > range.near) || (z < range.far && back > range.far))) splits = true;
      }
      for (const workgroup of shapes) {
        const encoder = device.createCommandEncoder();
        pass.encode(encoder, buffers, range, false, target, workgroup);
        device.queue.submit([encoder.finish()]);
        const gpu = await readTextureFloats(device, target, 4);
        let mismatches = 0;
        let maxError = 0;
        let covered = 0;
        for (let p = 0; p < w * h; p++) {
          for (let k = 0; k < 4; k++) {
            const c = indices[k];
            const want = Math.fround(c === null || c === undefined ? (k === 3 ? 1 : 0) : cpuPlanes[c]![p]!);
            const got = gpu[p * 4 + k]!;
            if (k === 0 && want !== 0) covered++;
            if (Object.is(got, want)) continue;
            mismatches++;
            maxError = Math.max(maxError, Math.abs(got - want) / Math.max(1, Math.abs(want)));
          }
        }
        cases.push({
          slots: slots.map((s) => s ?? '-').join(','),
          range: `${range.near}..${range.far}`,
          workgroup: workgroup.join('x'),
          mismatches,
          maxError,
          splits,
          covered,
        });
      }
    }
    buffers.destroy();
  }
  target.destroy();
  pass.destroy();
  writeFileSync(outPath!, JSON.stringify({ adapter: adapter.key, pixels: w * h, cases }));
  device.destroy();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
