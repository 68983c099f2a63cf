// Bundles the sequence playback bench into dist/sequence-bench/bench.mjs: Node alone runs it (webgpu loaded only for --upload dawn).
import { bundleBench } from '../bundle.mjs';

await bundleBench([{ in: 'bench/sequence/main.ts', out: 'bench' }], process.argv[2] ?? 'dist/sequence-bench');
