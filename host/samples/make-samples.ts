// Entry point (built to dist/make-samples.mjs): writes the sample images missing from assets/samples/.

import { fileURLToPath } from 'node:url';
import { writeSamples } from './samples.js';
import { writeSampleSequence } from './sequence.js';

const dir = process.argv[2] ?? fileURLToPath(new URL('../assets/samples/', import.meta.url));
const t0 = performance.now();
const written = [...writeSamples(dir), ...writeSampleSequence(dir)];
if (written.length) console.log(`exrview: wrote ${written.length} sample images to ${dir} in ${Math.round(performance.now() - t0)} ms`);
