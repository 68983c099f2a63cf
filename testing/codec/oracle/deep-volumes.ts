// Test support: deep images with what a depth range has to handle: volume samples (ZBack > Z) that overlap, point
// samples, equal depths, samples stored out of depth order, opaque and clear alphas, a layer with its own alpha, and
// pixels without samples.

import { floatToHalf } from '../../../codec/core/half.js';
import type { WriteChannel } from '../../../codec/writer.js';
import { random } from './images.js';

/** Channels A B G R (half), Z ZBack (float), diffuse.A diffuse.R (float), id (uint), in the header's order. */
export function deepVolumeSource(
  widthPx: number,
  heightPx: number,
  maxSamples: number,
  seed = 5,
): { sampleCounts: Uint32Array; channels: WriteChannel[] } {
  const rand = random(seed);
  const sampleCounts = new Uint32Array(widthPx * heightPx);
  // every fifth pixel has no samples
  for (let i = 0; i < sampleCounts.length; i++) sampleCounts[i] = i % 5 === 2 ? 0 : 1 + Math.floor(rand() * maxSamples);
  let total = 0;
  for (const n of sampleCounts) total += n;
  const halves = () => new Uint16Array(total);
  const [a, b, g, r] = [halves(), halves(), halves(), halves()];
  const z = new Float32Array(total);
  const zBack = new Float32Array(total);
  const diffuseA = new Float32Array(total);
  const diffuseR = new Float32Array(total);
  const id = new Uint32Array(total);
  let s = 0;
  for (let p = 0; p < sampleCounts.length; p++) {
    for (let k = 0; k < sampleCounts[p]!; k++, s++) {
      const pick = rand();
      // an eighth of the alphas are 0, an eighth 1
      const alpha = pick < 0.125 ? 0 : pick < 0.25 ? 1 : 0.05 + 0.9 * rand();
      a[s] = floatToHalf(alpha);
      r[s] = floatToHalf(alpha * rand());
      g[s] = floatToHalf(alpha * rand() * 2);
      b[s] = floatToHalf(alpha * rand() * 4);
      // depths on a coarse grid so that some are equal; half the samples are volumes
      z[s] = 1 + Math.floor(rand() * 16) * 0.5;
      zBack[s] = rand() < 0.5 ? z[s]! + 0.25 + Math.floor(rand() * 8) * 0.75 : z[s]!;
      diffuseA[s] = rand() < 0.2 ? 1 : rand();
      diffuseR[s] = diffuseA[s]! * rand() * 3;
      id[s] = (p * 977 + k * 131 + 7) >>> 0;
    }
  }
  return {
    sampleCounts,
    channels: [
      { name: 'A', pixelType: 'half', data: a },
      { name: 'B', pixelType: 'half', data: b },
      { name: 'G', pixelType: 'half', data: g },
      { name: 'R', pixelType: 'half', data: r },
      { name: 'Z', pixelType: 'float', data: z },
      { name: 'ZBack', pixelType: 'float', data: zBack },
      { name: 'diffuse.A', pixelType: 'float', data: diffuseA },
      { name: 'diffuse.R', pixelType: 'float', data: diffuseR },
      { name: 'id', pixelType: 'uint', data: id },
    ],
  };
}
