// What a level request hands out: the codec's channels as planes, its stage timings, and the chunks it could not read.

import { missingRegions, type DecodedChannel, type MissingChunks, type StageTimings } from '../../codec/index.js';
import type { BoxTuple, DecodedImage, DecodedPlane, MissingRegions, StageTimingsMs } from '../../contract/host-api.js';

export type LevelImage = Omit<DecodedImage, 'fileId' | 'source' | 'timings'>;

export type LevelTimings = Omit<StageTimingsMs, 'hostMs'>;

export interface LevelPlanes {
  image: LevelImage;
  source: DecodedImage['source'];
  timings: LevelTimings;
  /** Ends a lease: the planes are not read any more, and their memory may be reused once the level leaves the cache. */
  release(): void;
}

/** A request answered from RAM as it was: nothing read, decompressed or unpacked. */
export const NO_STAGES: LevelTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };

/** A decoded channel as the plane handed out. */
export function planeOf(c: DecodedChannel): DecodedPlane {
  return {
    name: c.name,
    pixelType: c.pixelType,
    xSampling: c.xSampling,
    ySampling: c.ySampling,
    widthSamples: c.widthSamples,
    heightSamples: c.heightSamples,
    data: bufferOf(c.data),
  };
}

/** A tolerant decode's failed chunks as the renderer is told of them: the boxes they cover and the first reason. */
export function missingOf(missing: MissingChunks): MissingRegions {
  return {
    regions: missingRegions(missing.failures).map((b): BoxTuple => [b.xMin, b.yMin, b.xMax, b.yMax]),
    reason: missing.failures[0]!.reason,
    chunksRead: missing.chunksRead,
    chunksTotal: missing.chunksTotal,
    // chunks not written yet are told apart from damage (the renderer says "rendering…", not "damaged")
    ...(missing.incomplete ? { incomplete: { ...missing.incomplete } } : {}),
  };
}

/** A job's stage timings, with the time it waited for a worker. */
export function timingsOf(t: StageTimings, queueMs: number): LevelTimings {
  return { readMs: t.readMs, decompressMs: t.decompressMs, unpackMs: t.unpackMs, bytesRead: t.bytesRead, queueMs };
}

/**
 * The buffer behind a plane: planes own theirs. A shared plane from the pool is the start of its buffer, which may be
 * longer (PlaneMemory's size classes: the plane's own bytes are planeByteLength's); a worker's transferred one is exact.
 */
export function bufferOf(data: ArrayBufferView): ArrayBuffer | SharedArrayBuffer {
  const buffer = data.buffer;
  if (data.byteOffset === 0 && (data.byteLength === buffer.byteLength || buffer instanceof SharedArrayBuffer)) return buffer;
  return buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
}
