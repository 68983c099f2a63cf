// Warms the main thread's side of decoding: the warm-up images written to a temporary folder and sent through the
// pool's real jobs (header read, band plan, replies, the thumbnail's sums to pixels) a few times.
//
// The workers warm their codecs when they start (warm-up.ts), but the main thread plans and collects every band of
// every file, and in a fresh process it runs that code in V8's interpreter while every worker waits on it. Done once
// per process, right after the workers are warm and before an artist's first folder, at the lowest priority; the
// images written to the temporary folder are removed.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { thumbnailOnPool } from '../thumbnails/on-pool.js';
import { readHeader } from '../headers/summary.js';
import { decodeLevel } from '../decode/image-decode.js';
import { levelLayout } from '../decode/layout.js';
import type { PlaneMemory } from '../decode/plane-memory.js';
import type { DecodePool } from '../decode/pool.js';
import { warmUpImages } from './warm-up.js';
import { makeWarmUpFolder, removeWarmUpFolder } from './warm-up-folder.js';

/** Passes over the images, so that the per-band code runs often enough for V8 to optimise it (a guess, not tuned). */
const ROUNDS = 6;
/** Wider than the workers' own warm-up images: rows as long as a 2K render's, so the per-row code sees its real lengths. */
export const JOB_IMAGE_WIDTH_PX = 2048;
export const JOB_IMAGE_HEIGHT_PX = 64;
/** Below every job an artist starts, so that a folder opened meanwhile goes first. */
const PRIORITY = Number.MAX_SAFE_INTEGER;

/** EXRVIEW_WARM_UP_JOBS=0 turns this warm-up off: a cold run then compares with a one-shot command's (thumbs-vs-decode). */
const ENABLED = process.env.EXRVIEW_WARM_UP_JOBS !== '0';

/** Decodes and thumbnails the warm-up images on the pool, ROUNDS times; the time it took (ms). Never throws. */
export async function warmUpJobs(pool: DecodePool, memory: PlaneMemory | undefined): Promise<number> {
  if (!ENABLED) return 0;
  const t0 = performance.now();
  try {
    await runWarmUpJobs(pool, memory, ROUNDS);
  } catch {
    // best effort, as the workers' own warm-up: a real decode reports its own problems
  }
  return performance.now() - t0;
}

/** warmUpJobs' work: the images' pixels decoded and their thumbnails made `rounds` times; throws what a job throws. */
export async function runWarmUpJobs(
  pool: DecodePool,
  memory: PlaneMemory | undefined,
  rounds: number,
): Promise<{ pixels: number; thumbnails: number }> {
  const done = { pixels: 0, thumbnails: 0 };
  // the jobs read files, as an artist's do: without a folder to write them to there is nothing to warm with
  const dir = makeWarmUpFolder();
  if (!dir) return done;
  try {
    const paths = warmUpImages(JOB_IMAGE_WIDTH_PX, JOB_IMAGE_HEIGHT_PX).map(({ compression, bytes }) => {
      const path = join(dir, `${compression}.exr`);
      writeFileSync(path, bytes);
      return path;
    });
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        paths.map(async (path) => {
          const { parts, handoff } = await readHeader(path);
          const { result } = await decodeLevel(pool, {
            path,
            layout: levelLayout(parts[0]!, 0, 0, null),
            handoff,
            channels: null,
            priority: PRIORITY,
            memory,
          }).promise;
          for (const channel of result.image.channels) memory?.give(channel.data.buffer as SharedArrayBuffer);
          done.pixels += result.image.widthPx * result.image.heightPx;
          await thumbnailOnPool(pool, path, 32, PRIORITY).promise;
          done.thumbnails++;
        }),
      );
    }
  } finally {
    removeWarmUpFolder(dir);
  }
  return done;
}
