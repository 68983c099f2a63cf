// Test support for damaged deep files: a small deep scanline image, one line a chunk, and its damaged copies.

import { floatToHalf, writeExr } from '../../codec/index.js';
import { cutInChunk, zeroChunks } from '../codec/damage.js';

/** 16 × 40, ZIPS (one line a chunk, 40 chunks). */
export const DEEP_W = 16;
export const DEEP_H = 40;
/** Each pixel's one opaque sample: grey 0.5. */
export const DEEP_GREY = 0.5;

export function deepBytes(): Uint8Array {
  const n = DEEP_W * DEEP_H;
  const half = (v: number) => new Uint16Array(n).fill(floatToHalf(v));
  return writeExr([
    {
      compression: 'zips',
      dataWindow: { xMin: 0, yMin: 0, xMax: DEEP_W - 1, yMax: DEEP_H - 1 },
      deepSampleCounts: new Uint32Array(n).fill(1),
      channels: ['A', 'B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data: half(name === 'A' ? 1 : DEEP_GREY) })),
    },
  ]);
}

/** The deep file with line `line`'s chunk zeroed: its header still reads and its status is 'ok'. */
export const deepZeroedLine = (line: number): Uint8Array => zeroChunks(deepBytes(), [line]);

/** The deep file cut inside line `line`'s chunk: that line and those after it are lost, and the file is 'error' once settled. */
export const deepCutAt = (line: number): Uint8Array => cutInChunk(deepBytes(), line);
