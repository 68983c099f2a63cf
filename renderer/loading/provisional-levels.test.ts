// A small first level stays provisional until a finer level of its image is handed over; its refinement is asked for
// once while under way (the host holds the finer level for one request), and again once an abandoned one settled.
import { describe, expect, it } from 'vitest';
import type { DecodedImage } from '../host-client/api-types.js';
import type { FetchedImage } from './plane-fetcher.js';
import { ProvisionalLevels } from './provisional-levels.js';

const key = { fileId: 'f', part: 0 };
const engine = {};

const fetchedOf = (channels: readonly string[], widthPx: number): FetchedImage => ({
  image: { widthPx, planes: channels.map((name) => ({ name })) } as unknown as DecodedImage,
  hostSource: 'decode',
  host: {} as DecodedImage['timings'],
  transferBytes: 0,
  transferMs: 0,
});

/** A finer level's fetches, counted and answered by the test. */
function finerFetch(channels: readonly string[]) {
  const calls: { resolve: () => void; reject: (e: Error) => void }[] = [];
  const fetch = () =>
    new Promise<FetchedImage>((resolve, reject) => calls.push({ resolve: () => resolve(fetchedOf(channels, 8192)), reject }));
  return { fetch, calls };
}

const small = (channels: readonly string[], refine: () => Promise<FetchedImage>): FetchedImage => ({
  ...fetchedOf(channels, 2048),
  refine,
});
const never = () => Promise.reject(new Error('not asked for here'));

describe('ProvisionalLevels', () => {
  it('holds nothing of an image handed no small level', () => {
    const levels = new ProvisionalLevels();
    expect(levels.finer(engine, key, ['R'], never)).toBeNull();
    levels.handed(engine, key, fetchedOf(['R'], 8192));
    expect(levels.finer(engine, key, ['R'], never)).toBeNull();
  });

  it('shares the refinement under way, and asks again once an abandoned one settled', async () => {
    const levels = new ProvisionalLevels();
    const rgb = finerFetch(['R', 'G', 'B']);
    levels.handed(engine, key, small(['R', 'G', 'B'], rgb.fetch));
    const first = levels.finer(engine, key, ['R', 'G', 'B'], never);
    // a channel of those planes: the same request
    expect(levels.finer(engine, key, ['R'], never)).toBe(first);
    expect(rgb.calls).toHaveLength(1);
    rgb.calls[0]!.resolve();
    expect((await first)!.image.widthPx).toBe(8192);
    // nobody handed it over: the small level is still provisional, and the next show asks for the finer one again
    const again = levels.finer(engine, key, ['R', 'G', 'B'], never);
    expect(again).not.toBe(first);
    expect(rgb.calls).toHaveLength(2);
    // a failed refinement leaves it provisional too
    rgb.calls[1]!.reject(new Error('the host closed'));
    await expect(again).rejects.toThrow('the host closed');
    void levels.finer(engine, key, ['G'], never);
    expect(rgb.calls).toHaveLength(3);
  });

  it('keeps each small level of an image until a finer level of it is handed over', () => {
    const levels = new ProvisionalLevels();
    const rgb = finerFetch(['R', 'G', 'B']);
    const diffuse = finerFetch(['diffuse.R']);
    levels.handed(engine, key, small(['R', 'G', 'B'], rgb.fetch));
    levels.handed(engine, key, small(['diffuse.R'], diffuse.fetch));
    void levels.finer(engine, key, ['R'], never);
    void levels.finer(engine, key, ['diffuse.R'], never);
    expect([rgb.calls.length, diffuse.calls.length]).toEqual([1, 1]);
    // a finer level replaces everything the engine held of the image (planes of another size)
    levels.handed(engine, key, fetchedOf(['R', 'G', 'B'], 8192));
    expect(levels.finer(engine, key, ['diffuse.R'], never)).toBeNull();
    expect(levels.finer(engine, key, ['R'], never)).toBeNull();
  });

  it('asks for the finer level of planes no one small level came with, once while under way', () => {
    const levels = new ProvisionalLevels();
    levels.handed(engine, key, small(['R', 'G', 'B'], never));
    levels.handed(engine, key, small(['A'], never));
    const rgba = finerFetch(['R', 'G', 'B', 'A']);
    const first = levels.finer(engine, key, ['R', 'G', 'B', 'A'], rgba.fetch);
    expect(levels.finer(engine, key, ['R', 'G', 'B', 'A'], never)).toBe(first);
    expect(rgba.calls).toHaveLength(1);
  });

  it("forgets another engine's small levels and a changed file's", () => {
    const levels = new ProvisionalLevels();
    levels.handed(engine, key, small(['R'], never));
    expect(levels.finer({}, key, ['R'], never)).toBeNull();
    levels.handed(engine, { fileId: 'f', part: 1 }, small(['R'], never));
    levels.handed(engine, { fileId: 'g', part: 0 }, small(['R'], finerFetch(['R']).fetch));
    levels.forgetFile('f');
    expect(levels.finer(engine, key, ['R'], never)).toBeNull();
    expect(levels.finer(engine, { fileId: 'f', part: 1 }, ['R'], never)).toBeNull();
    expect(levels.finer(engine, { fileId: 'g', part: 0 }, ['R'], never)).not.toBeNull();
  });
});
