// Warms a fresh decode worker: small in-memory images in each compression the writer makes, decoded a few times.
//
// A fresh worker runs the codec's TypeScript (reader, unpackers, predictors) in V8's interpreter until the JIT has
// compiled it; on the first folder of a session that cost as much again as the decoding (16 workers on the lent
// machine: 7.6 s of CPU cold against 4.1-5.0 s warm for the same 40 files). Workers started ahead of need (pool.start)
// pay it before the first job instead of during it. The compressions the writer cannot make (B44, DWA, HTJ2K) still
// share the reader and unpackers warmed here.

import { ExrReader, memorySource } from '../../exr/index.js';
import { writeExr } from '../../exr/writer.js';
import type { Compression } from '../../exr/types.js';

const WARM_COMPRESSIONS: Compression[] = ['zip', 'zips', 'piz', 'rle', 'pxr24', 'none'];
const WIDTH_PX = 256;
const HEIGHT_PX = 64;
const ROUNDS = 3;

/** Decodes each warm-up image ROUNDS times; returns how long it took (ms). Never throws: warming is best effort. */
export function warmUpDecoder(): number {
  const t0 = performance.now();
  try {
    const count = WIDTH_PX * HEIGHT_PX;
    const half = Uint16Array.from({ length: count }, (_, i) => 0x3c00 + (i % 1024));
    const float = Float32Array.from({ length: count }, (_, i) => i / count);
    const channels = [
      ...['A', 'B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data: half })),
      { name: 'Z', pixelType: 'float' as const, data: float },
    ];
    const dataWindow = { xMin: 0, yMin: 0, xMax: WIDTH_PX - 1, yMax: HEIGHT_PX - 1 };
    for (const compression of WARM_COMPRESSIONS) {
      const reader = ExrReader.open(memorySource(writeExr([{ compression, dataWindow, channels }])));
      for (let round = 0; round < ROUNDS; round++) reader.decode();
    }
  } catch {
    // a codec bug shows in the real decode, with its file and chunk; warming is no place to report it
  }
  return performance.now() - t0;
}
