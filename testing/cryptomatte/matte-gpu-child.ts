// The GPU matte pass (shaders/cryptomatte/matte-gpu.ts) on Dawn against the CPU reference, in a child process (a native
// abort fails the test instead of killing the runner). Usage: node matte-gpu-child.mjs DIR OUT.json; writes the cases' results.

import { writeFileSync } from 'node:fs';
import { ExrReader, openFileSource } from '../../codec/index.js';
import { loadDawn, openDawnDevice } from '../../host/thumbnails/gpu/dawn.js';
import { idOfName, type CryptoId } from '../../shaders/cryptomatte/hash.js';
import { findCryptomattes } from '../../shaders/cryptomatte/layers.js';
import { interleaveGroup, matteCpu, type RankGroupPlanes } from '../../shaders/cryptomatte/matte-cpu.js';
import { createMatteTarget, MattePass, uploadRankGroups, type MatteWorkgroup } from '../../shaders/cryptomatte/matte-gpu.js';
import { writeCryptomatteFixture } from './fixtures.js';
import { readTextureFloats } from '../gpu-readback.js';

export interface GpuCase {
  layer: string;
  picks: number;
  workgroup: string;
  /** Pixels whose GPU value differs in any bit from the CPU's. */
  mismatches: number;
  covered: number;
}

async function main(): Promise<void> {
  const [dir, outPath] = process.argv.slice(2);
  await loadDawn();
  const { device, adapter } = await openDawnDevice();
  // sides that are not multiples of the workgroup, so the edge threads are exercised
  const fixture = writeCryptomatteFixture(dir!, 67, 45);
  const source = openFileSource(fixture.file);
  const reader = ExrReader.open(source);
  const part = reader.parts[0]!;
  const strings = new Map(part.attributes.flatMap((a) => (a.value.type === 'string' ? [[a.name, a.value.value] as const] : [])));
  const scan = findCryptomattes(strings, part.channels);
  const image = reader.decode();
  source.close();
  const pixels = image.widthPx * image.heightPx;
  const pass = new MattePass(device);
  const cases: GpuCase[] = [];
  for (const truth of Object.values(fixture.layers)) {
    const layer = scan.layers.find((l) => l.name === truth.name)!;
    const groups = layer.groups.map(
      (names) => names.map((n) => image.channels.find((c) => c.name === n)!.data as Float32Array) as unknown as RankGroupPlanes,
    );
    const ranks = uploadRankGroups(
      device,
      groups.map((g) => interleaveGroup(g, pixels)),
      image.widthPx,
      image.heightPx,
    );
    const target = createMatteTarget(device, image.widthPx, image.heightPx);
    // beyond the pass's first picked-ID buffer (64), so that it grows
    const many: CryptoId[] = [...truth.names.map(idOfName), ...Array.from({ length: 100 }, (_, i) => idOfName(`absent ${i}`))];
    const pickSets: CryptoId[][] = [[], ...truth.names.map((n) => [idOfName(n)]), truth.names.slice(0, 2).map(idOfName), many];
    const shapes: MatteWorkgroup[] = [
      [8, 8],
      [16, 4],
    ];
    for (const picks of pickSets)
      for (const workgroup of shapes) {
        const encoder = device.createCommandEncoder();
        pass.encode(encoder, ranks, picks, target, workgroup);
        device.queue.submit([encoder.finish()]);
        const gpu = new Uint32Array((await readTextureFloats(device, target, 1)).buffer);
        const cpuValues = matteCpu(groups, picks, pixels);
        const cpu = new Uint32Array(cpuValues.buffer);
        let mismatches = 0;
        for (let i = 0; i < pixels; i++) if (gpu[i] !== cpu[i]) mismatches++;
        cases.push({
          layer: truth.name,
          picks: picks.length,
          workgroup: workgroup.join('x'),
          mismatches,
          covered: cpuValues.filter((v) => v > 0).length,
        });
      }
    ranks.destroy();
    target.destroy();
  }
  pass.destroy();
  writeFileSync(outPath!, JSON.stringify({ adapter: adapter.key, pixels, cases }));
  device.destroy();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
