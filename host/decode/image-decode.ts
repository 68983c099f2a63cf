// One level decoded by every free worker at once: bands of whole chunks that fill shared planes in place.
//
// The planes (and the chunk store, when one is kept) are SharedArrayBuffers taken when the first band starts; the
// workers write into them and the caller receives them as they are: no copy on the way out of the pool.

import {
  ExrError,
  type ChunkFailure,
  type DecodedChannel,
  type DecodedImage,
  type MissingChunks,
  type StageTimings,
} from '../../codec/index.js';
import { bandCountFor, planBands, planeByteLength, planeView, type LevelLayout } from './layout.js';
import type { PlaneMemory } from './plane-memory.js';
import type { DecodePool, JobHandle, JobPlan } from './pool.js';
import type { BandResult, BandTaskArgs } from './band-task.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface LevelDecodeRequest {
  path: string;
  /** The level and the selected channels' planes (see layout.ts); a promise when the header is still being read. */
  layout: LevelLayout | Promise<LevelLayout>;
  /** The channels to decode, as the layout selected them; null for every channel. */
  channels: string[] | null;
  priority?: number;
  /** Where plane memory comes from (reused buffers, huge pages); plain SharedArrayBuffers without it. */
  memory?: PlaneMemory;
  /**
   * 'keep': also keep every decompressed chunk of the level (the result's chunkStore), so that other channels can be
   * unpacked later without reading or decompressing again. A store: unpack from it, without touching the file.
   */
  chunks?: 'keep' | { store: SharedArrayBuffer };
  /** The main thread's parse of the file (header-handoff.ts), handed to every band; the workers parse it themselves without. */
  handoff?: HeaderHandoff | null;
  /**
   * Decode every chunk that can be: those that cannot are zeroed and listed in the image's `missing` (a damaged file
   * shows what it holds). The decode still fails when no chunk at all could be read.
   */
  tolerant?: boolean;
}

export interface LevelDecode {
  image: DecodedImage;
  /** The level's decompressed chunks when they were kept (or read from). */
  chunkStore: SharedArrayBuffer | null;
}

/** Decodes a whole level in bands on the pool; the planes in the result are views on SharedArrayBuffers. */
export function decodeLevel(pool: DecodePool, request: LevelDecodeRequest): JobHandle<LevelDecode> {
  const plan =
    request.layout instanceof Promise
      ? request.layout.then((layout) => levelPlan(pool, request, layout))
      : levelPlan(pool, request, request.layout);
  return pool.submitJob<LevelDecode>(plan, request.priority ?? 0);
}

function levelPlan(pool: DecodePool, request: LevelDecodeRequest, layout: LevelLayout): JobPlan<LevelDecode> {
  const take = (byteLength: number) => request.memory?.take(byteLength) ?? new SharedArrayBuffer(byteLength);
  let buffers: SharedArrayBuffer[] = [];
  let chunkStore: BandTaskArgs['chunkStore'];
  return {
    tasks: () => {
      buffers = layout.planes.map((p) => take(planeByteLength(p)));
      const chunks = request.chunks;
      chunkStore =
        chunks === 'keep'
          ? { buffer: take(layout.chunkStoreBytes), mode: 'fill' }
          : chunks
            ? { buffer: chunks.store, mode: 'read' }
            : undefined;
      // called as the job's first task is taken: the bands fit the jobs they will share the workers with (a preview's
      // own, when only prefetches and thumbnails wait behind it)
      return planBands(layout, bandCountFor(layout, pool.size, pool.jobsAsUrgentAs(request.priority ?? 0) - 1)).map((band) => {
        const args: BandTaskArgs = {
          path: request.path,
          part: layout.part,
          lx: layout.lx,
          ly: layout.ly,
          channels: request.channels,
          frame: layout.frame,
          region: { xMin: layout.frame.xMin, xMax: layout.frame.xMax, yMin: band.yMin, yMax: band.yMax },
          planes: buffers,
          ...(chunkStore ? { chunkStore } : {}),
          ...(request.handoff ? { handoff: request.handoff } : {}),
          ...(request.tolerant ? { tolerant: true } : {}),
        };
        return { kind: 'band', args };
      });
    },
    combine: (results) => {
      const timings: StageTimings = { readMs: 0, decompressMs: 0, unpackMs: 0, bytesRead: 0, chunks: 0 };
      for (const r of results as BandResult[]) {
        timings.readMs += r.readMs;
        timings.decompressMs += r.decompressMs;
        timings.unpackMs += r.unpackMs;
        timings.bytesRead += r.bytesRead;
        timings.chunks += r.chunks;
      }
      const missing = bandsMissing(results as BandResult[]);
      const channels: DecodedChannel[] = layout.planes.map((p, i) => ({
        ...p,
        data: planeView(p.pixelType, buffers[i]!, p.widthSamples * p.heightSamples),
      }));
      const { frame } = layout;
      const image: DecodedImage = {
        part: layout.part,
        lx: layout.lx,
        ly: layout.ly,
        region: frame,
        widthPx: frame.xMax - frame.xMin + 1,
        heightPx: frame.yMax - frame.yMin + 1,
        channels,
        timings,
        ...(missing ? { missing } : {}),
      };
      return { image, chunkStore: chunkStore?.buffer ?? null };
    },
  };
}

/**
 * The chunks the bands could not read, in chunk order (each chunk is in one band); none when every one was read. A level
 * of which no chunk could be read fails with the first chunk's reason: there is nothing to show.
 */
export function bandsMissing(results: readonly BandResult[]): MissingChunks | null {
  const failures: ChunkFailure[] = [];
  let chunksRead = 0;
  let chunksTotal = 0;
  let incomplete: MissingChunks['incomplete'];
  for (const r of results) {
    incomplete ??= r.missing?.incomplete;
    if (!r.missing) {
      chunksRead += r.chunks;
      chunksTotal += r.chunks;
      continue;
    }
    failures.push(...r.missing.failures);
    chunksRead += r.missing.chunksRead;
    chunksTotal += r.missing.chunksTotal;
  }
  if (failures.length === 0) return null;
  failures.sort((a, b) => a.chunk - b.chunk);
  if (chunksRead === 0) {
    const first = failures[0]!;
    throw new ExrError('invalid', `${first.reason} (and no other chunk of the image could be read either)`);
  }
  return { failures, chunksRead, chunksTotal, ...(incomplete ? { incomplete } : {}) };
}
