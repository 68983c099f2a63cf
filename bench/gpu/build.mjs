// Bundles the GPU bench into dist/gpu-bench/ (bench.mjs and its CPU worker) so that only the `webgpu` package must travel to the GPU machine.
import { bundleBench } from '../bundle.mjs';

await bundleBench(
  [
    { in: 'bench/gpu/main.ts', out: 'bench' },
    { in: 'bench/gpu/cpu-worker.ts', out: 'cpu-worker' },
  ],
  process.argv[2] ?? 'dist/gpu-bench',
);
