// The ACES 2.0 output transform's WGSL on the GPU (Dawn, in a child process) against applyOps: each peak and gamut of
// the built-in views forward on HDR input, and inverse on display-linear values inside the display's cube. Usage: node
// aces2-gpu-child.mjs OUT.json; writes each case's worst difference (absolute to 1, relative above).
import '../../bench/gpu/install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { writeFileSync } from 'node:fs';
import { openDawnDevice } from '../../host/thumbnails/gpu/dawn.js';
import type { FixedFunctionOp } from '../../shaders/colour/ops/op.js';
import { cubeInput, gpuAccuracy, hdrInput, type Accuracy } from '../../bench/gpu/ocio-accuracy.js';

export interface Aces2GpuCase extends Accuracy {
  name: string;
}

const REC709 = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329];
const P3_D65 = [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329];
const VIEWS: [string, number[]][] = [
  ['SDR 100 nits Rec.709', [100, ...REC709]],
  ['SDR 100 nits P3', [100, ...P3_D65]],
  ['HDR 1000 nits P3', [1000, ...P3_D65]],
  ['HDR 4000 nits P3', [4000, ...P3_D65]],
];
const PIXELS = 8192;

async function main(): Promise<void> {
  const out = process.argv[2]!;
  const { device, adapter } = await openDawnDevice();
  const input = hdrInput(PIXELS, 11);
  const cases: Aces2GpuCase[] = [];
  for (const [name, params] of VIEWS) {
    const op: FixedFunctionOp = { type: 'fixedFunction', style: 'ACES_OutputTransform20', direction: 'forward', params };
    cases.push({ name: `${name} forward`, ...(await gpuAccuracy(device, [op], input)) });
    const inCube = cubeInput(PIXELS, 23, (0.97 * params[0]!) / 100);
    cases.push({ name: `${name} inverse`, ...(await gpuAccuracy(device, [{ ...op, direction: 'inverse' }], inCube)) });
  }
  writeFileSync(out, JSON.stringify({ adapter: adapter.key, pixels: PIXELS, cases }));
  device.destroy();
  process.exit(0);
}

void main();
