// Sequences through the real host: listed with frames, gaps, damage and rate; played through the frame ring.

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostEvent } from '../../contract/host-api.js';
import { damageMiddleChunk, writeSequence } from '../samples/sequence.js';
import { EventLog, useHostFixture, writeRgb } from '../../testing/host/test-files.js';

const TIMING = { watchDebounceMs: 30, settlePollMs: 60, settleMs: 600 };
const fx = useHostFixture({ timing: TIMING, workers: 2, playbackBudgetBytes: 4 * 64 * 36 * 8 });

describe('sequences', () => {
  it('lists a sequence with its range, gaps, damaged frames and frame rate, beside single files', async () => {
    writeSequence({ dir: fx.dir, frames: 12, widthPx: 64, heightPx: 36, framesPerSecond: 25, skip: [1004, 1005] });
    damageMiddleChunk(join(fx.dir, 'beauty.1008.exr'));
    writeRgb(join(fx.dir, 'still.exr'), 8, 8, () => [1, 1, 1]);
    const folder = (await fx.host.openFolder(fx.dir))!;
    const [q, ...rest] = await fx.host.listSequences(folder.id);
    expect(rest).toEqual([]);
    expect(q).toMatchObject({
      name: 'beauty.####.exr',
      relativePattern: 'beauty.####.exr',
      padding: 4,
      firstFrame: 1001,
      lastFrame: 1012,
      step: 1,
      missingFrames: [1004, 1005],
      framesPerSecond: 25,
      widthPx: 64,
      heightPx: 36,
    });
    expect(q!.frames).toHaveLength(10);
    // the damage is in the pixels, not the header: the file lists, the decode fails
    expect(q!.damagedFrames).toEqual([]);
    const damaged = q!.frames.find((f) => f.frame === 1008)!;
    await expect(fx.host.decodeImage({ requestId: 'd', fileId: damaged.fileId, part: 0, priority: 'playback' })).rejects.toThrow();
    // the same id on the next listing
    expect((await fx.host.listSequences(folder.id))[0]!.id).toBe(q!.id);
  });

  it("says when a folder's sequences change: a frame rendered into the folder", async () => {
    writeSequence({ dir: fx.dir, frames: 3, widthPx: 16, heightPx: 16 });
    const log = new EventLog();
    fx.host.onEvent(log.listener);
    const folder = (await fx.host.openFolder(fx.dir))!;
    writeSequence({ dir: fx.dir, frames: 1, firstFrame: 1004, widthPx: 16, heightPx: 16 });
    await log.next((e: HostEvent) => e.type === 'sequences-changed' && e.folderId === folder.id);
    expect((await fx.host.listSequences(folder.id))[0]).toMatchObject({ firstFrame: 1001, lastFrame: 1004 });
  });

  it('plays from the frame ring: frames decoded ahead under the budget, handed out without a decode of their own', async () => {
    writeSequence({ dir: fx.dir, frames: 10, widthPx: 64, heightPx: 36 });
    const folder = (await fx.host.openFolder(fx.dir))!;
    const q = (await fx.host.listSequences(folder.id))[0]!;
    const ids = q.frames.map((f) => f.fileId);
    const channels = ['A', 'B', 'G', 'R'];
    // channels named in any order
    fx.host.setPlayback({ fileIds: ids, part: 0, channels: ['R', 'G', 'B', 'A'] });
    // the budget holds four frames of 64x36 half RGBA
    expect(fx.host.stats.playback).toMatchObject({ frames: 4, started: 4 });
    const ringIdle = async () => {
      while (fx.host.stats.playback.decoding > 0) await new Promise((r) => setTimeout(r, 5));
    };
    for (const [i, fileId] of ids.entries()) {
      // the player is ahead: the ring's window is ready before each frame is asked for
      await ringIdle();
      const { image, release } = await fx.host.decodeImageLease({ requestId: `p${i}`, fileId, part: 0, channels, priority: 'playback' });
      expect(image.planes.map((p) => p.name)).toEqual(channels);
      // what the host waited for is the ring's decode, already under way
      expect(image.source).toBe('decode');
      release();
    }
    const stats = fx.host.stats;
    expect(stats.playback.served).toBe(10);
    expect(stats.decodes).toBe(10);
    // the first window was decoded with nothing ready ahead (into recycled memory, not kept); every later frame with
    // three ready ahead, so kept for the next loop
    expect(stats.playback.kept).toBe(6);
    fx.host.setPlayback(null);
    expect(fx.host.stats.playback.frames).toBe(0);
    // a second loop plays the kept frames from the RAM cache and decodes the others again
    const sources: string[] = [];
    for (const [i, fileId] of ids.entries()) {
      const again = await fx.host.decodeImageLease({ requestId: `again${i}`, fileId, part: 0, channels, priority: 'playback' });
      sources.push(again.image.source);
      again.release();
    }
    expect(sources).toEqual([...Array(4).fill('decode'), ...Array(6).fill('ram-cache')]);
    expect(fx.host.stats.decodes).toBe(14);
  });

  it("asks for frames as the preview does (fitWithin): whole from the ring when they fit, reduced when over the page's limits", async () => {
    writeSequence({ dir: fx.dir, frames: 6, widthPx: 64, heightPx: 36 });
    const folder = (await fx.host.openFolder(fx.dir))!;
    const ids = (await fx.host.listSequences(folder.id))[0]!.frames.map((f) => f.fileId);
    const channels = ['A', 'B', 'G', 'R'];
    const ringIdle = async () => {
      while (fx.host.stats.playback.decoding > 0) await new Promise((r) => setTimeout(r, 5));
    };
    fx.host.setPlayback({ fileIds: ids, part: 0, channels });
    // a page that shows these frames whole: the limits change nothing, each frame is the ring's
    const roomy = { maxSidePx: 8192, maxPixels: 1 << 26 };
    for (const [i, fileId] of ids.slice(0, 3).entries()) {
      await ringIdle();
      const image = await fx.host.decodeImage({ requestId: `w${i}`, fileId, part: 0, channels, priority: 'playback', fitWithin: roomy });
      expect([image.widthPx, image.heightPx, image.reduced]).toEqual([64, 36, undefined]);
    }
    expect(fx.host.stats.playback.served).toBe(3);
    // a page whose largest texture is 32 px a side: every 64×36 frame comes as its half level, never past the limit
    const small = { maxSidePx: 32, maxPixels: 1 << 20 };
    for (const [i, fileId] of ids.slice(3).entries()) {
      const image = await fx.host.decodeImage({ requestId: `r${i}`, fileId, part: 0, channels, priority: 'playback', fitWithin: small });
      expect([image.widthPx, image.heightPx]).toEqual([32, 18]);
      expect(image.reduced).toMatchObject({ factor: 2, over: 'side', fullWidthPx: 64, fullHeightPx: 36 });
      expect(image.planes.every((p) => p.widthSamples === 32 && p.heightSamples === 18)).toBe(true);
    }
    fx.host.setPlayback(null);
  });

  it("decodes each frame over the page's limits once: the plan carries them, the ring makes the reduced level", async () => {
    writeSequence({ dir: fx.dir, frames: 6, widthPx: 64, heightPx: 36 });
    const folder = (await fx.host.openFolder(fx.dir))!;
    const ids = (await fx.host.listSequences(folder.id))[0]!.frames.map((f) => f.fileId);
    const channels = ['A', 'B', 'G', 'R'];
    const small = { maxSidePx: 32, maxPixels: 1 << 20 };
    const ringIdle = async () => {
      while (fx.host.stats.playback.decoding > 0) await new Promise((r) => setTimeout(r, 5));
    };
    fx.host.setPlayback({ fileIds: ids, part: 0, channels, fitWithin: small });
    for (const [i, fileId] of ids.entries()) {
      await ringIdle();
      const { image, release } = await fx.host.decodeImageLease({
        requestId: `p${i}`,
        fileId,
        part: 0,
        channels,
        priority: 'playback',
        fitWithin: small,
      });
      expect([image.widthPx, image.heightPx]).toEqual([32, 18]);
      expect(image.reduced).toMatchObject({ factor: 2, over: 'side', fullWidthPx: 64, fullHeightPx: 36 });
      expect(image.planes.every((p) => p.widthSamples === 32 && p.heightSamples === 18)).toBe(true);
      release();
    }
    // one decode per frame, the ring's (the page's requests all served from it), and level 0 never decoded whole
    expect(fx.host.stats.playback).toMatchObject({ started: 6, served: 6, failed: 0 });
    expect(fx.host.stats.decodes).toBe(0);
    fx.host.setPlayback(null);
  });

  it("cancels the ring's decodes when the player jumps away", async () => {
    writeSequence({ dir: fx.dir, frames: 30, widthPx: 64, heightPx: 36 });
    const folder = (await fx.host.openFolder(fx.dir))!;
    const ids = (await fx.host.listSequences(folder.id))[0]!.frames.map((f) => f.fileId);
    const channels = ['A', 'B', 'G', 'R'];
    fx.host.setPlayback({ fileIds: ids, part: 0, channels });
    fx.host.setPlayback({ fileIds: ids.slice(20), part: 0, channels });
    const stats = fx.host.stats.playback;
    expect(stats.cancelled).toBeGreaterThan(0);
    expect(stats.started).toBe(8);
    const { release } = await fx.host.decodeImageLease({ requestId: 'j', fileId: ids[20]!, part: 0, channels, priority: 'playback' });
    release();
  });

  it('has a positive default budget: half the RAM cache, at most 2 GiB (2 << 30 overflowed to -2 GiB and held nothing ahead)', async () => {
    const host = await fx.restartWith({ playbackBudgetBytes: undefined });
    const budget = host.stats.playback.budgetBytes;
    expect(budget).toBeGreaterThan(0);
    expect(budget).toBeLessThanOrEqual(2 * 2 ** 30);
  });
});
