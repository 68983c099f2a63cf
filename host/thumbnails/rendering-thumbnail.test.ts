// A tiled file being rendered: writers lay level 0 down first and its small MIP levels last, so its grid thumbnail is
// made from the level-0 tiles there (the others hatched) until the MIP level it would be made from is whole.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ExrReader, memorySource, writeExr, type WritePart } from '../../codec/index.js';
import type { FileEntry, HostEvent } from '../../contract/host-api.js';
import { writeChunkByChunk } from '../../testing/codec/incomplete.js';
import { EventLog, tempDir, useHostFixture } from '../../testing/host/test-files.js';
import { DecodePool } from '../decode/pool.js';
import { thumbnailOnPool } from './on-pool.js';

const hasWorker = existsSync(join(__dirname, '..', '..', 'dist', 'decode-worker.mjs'));
const W = 128;
const H = 96;
const TILE_PX = 16;
/** 32 × 24: level 2 of the MIP chain, each thumbnail pixel 4 × 4 of level 0 (a tile covers 4 × 4 of them). */
const LONG_SIDE_PX = 32;

const ramp = (c: number) =>
  Float32Array.from({ length: W * H }, (_, i) => 0.1 + c * 0.2 + ((i % W) / W) * 0.5 + (Math.floor(i / W) / H) * 0.3);
const channels = ['B', 'G', 'R'].map((name, c) => ({ name, pixelType: 'float' as const, data: ramp(c) }));
const mipmapped: WritePart = {
  compression: 'zip',
  dataWindow: { xMin: 0, yMin: 0, xMax: W - 1, yMax: H - 1 },
  tiles: { xSizePx: TILE_PX, ySizePx: TILE_PX, levelMode: 'mipmapLevels' },
  channels,
};
/** The same pixels with level 0 alone: its thumbnail is level 0 box-filtered, as a render's is until its levels land. */
const oneLevel: WritePart = { ...mipmapped, tiles: { xSizePx: TILE_PX, ySizePx: TILE_PX, levelMode: 'oneLevel' } };

const TILES_X = W / TILE_PX;
const LEVEL0_TILES = TILES_X * (H / TILE_PX);

let pool: DecodePool | null = null;
afterAll(async () => pool?.close());
const dir = tempDir('exrview-rendering-thumb-');
afterAll(() => dir.remove());

async function thumbnailOf(name: string, bytes: Uint8Array, rendering: boolean) {
  const path = join(dir.path, name);
  writeFileSync(path, bytes);
  pool ??= new DecodePool({ workers: 2 });
  const there = rendering ? ExrReader.open(memorySource(bytes)).offsets : undefined;
  return (await thumbnailOnPool(pool, path, LONG_SIDE_PX, 0, there ? { there } : {}).promise).result;
}

describe.skipIf(!hasWorker)('the thumbnail of a tiled file being rendered', () => {
  const file = writeChunkByChunk([mipmapped]);

  it('is made of the level-0 tiles there, the rest hatched, until a MIP level it can be made from is whole', async () => {
    // the writer's order: level 0 row by row, then each smaller level
    expect(file.order.slice(0, LEVEL0_TILES).every((id, i) => id.chunk === i)).toBe(true);
    const reference = await thumbnailOf('one-level.exr', writeExr([oneLevel]), false);
    expect(reference).toMatchObject({ widthPx: 32, heightPx: 24, lx: 0 });
    const want = new Uint16Array(reference.rgbaHalf);

    const written = 20;
    const got = await thumbnailOf('tiles-20.exr', file.after(written), true);
    expect(got).toMatchObject({ widthPx: 32, heightPx: 24, lx: 0, ly: 0, source: 'full-decode' });
    expect(got.missing).toMatchObject({ chunksRead: written, chunksTotal: LEVEL0_TILES });
    expect(got.missing!.reason).toMatch(/chunk is not written yet/);
    // the pixels of the tiles written are level 0's box filter; those of the others are hatched (not the image)
    const pixels = new Uint16Array(got.rgbaHalf);
    const binsPerTile = TILE_PX / (W / 32);
    for (let ty = 0; ty < 24; ty++)
      for (let tx = 0; tx < 32; tx++) {
        const tile = Math.floor(ty / binsPerTile) * TILES_X + Math.floor(tx / binsPerTile);
        const i = (ty * 32 + tx) * 4;
        const same = [0, 1, 2, 3].every((c) => pixels[i + c] === want[i + c]);
        expect(same, `pixel ${tx},${ty} (tile ${tile})`).toBe(tile < written);
      }

    // level 0 whole, level 1 too, level 2 not yet: level 1, the smallest level there whole that is large enough
    const level1End = file.order.findIndex((id) => id.chunk === LEVEL0_TILES + 12);
    const atLevel1 = await thumbnailOf('level-1.exr', file.after(level1End), true);
    expect(atLevel1).toMatchObject({ lx: 1, ly: 1, source: 'mip-level' });
    expect(atLevel1.missing).toBeUndefined();

    // level 2 whole: the level a whole file's thumbnail is made from
    const level2End = file.order.findIndex((id) => id.chunk === LEVEL0_TILES + 12 + 4);
    const atLevel2 = await thumbnailOf('level-2.exr', file.after(level2End), true);
    expect(atLevel2).toMatchObject({ lx: 2, ly: 2, source: 'mip-level' });
    expect(atLevel2.missing).toBeUndefined();
    const closed = await thumbnailOf('closed.exr', file.complete, false);
    expect(closed).toMatchObject({ lx: 2, ly: 2 });
    expect(new Uint16Array(atLevel2.rgbaHalf)).toEqual(new Uint16Array(closed.rgbaHalf));
  });
});

const fx = useHostFixture({ timing: { watchDebounceMs: 20, settlePollMs: 60, settleMs: 20_000 } });

describe.skipIf(!hasWorker)('through the host', () => {
  it("a render's grid thumbnail comes from level 0 while its small levels are not there, then from its MIP level", async () => {
    const file = writeChunkByChunk([mipmapped]);
    const log = new EventLog();
    fx.host.onEvent(log.listener);
    await fx.host.openFolder(fx.dir);
    const path = join(fx.dir, 'render.exr');
    const entryWith = async (match: (f: FileEntry) => boolean): Promise<FileEntry> => {
      const isIt = (e: HostEvent) =>
        (e.type === 'files-added' || e.type === 'files-changed') && e.files.some((f) => f.name === 'render.exr' && match(f));
      const event = (await log.next(isIt)) as Extract<HostEvent, { files: FileEntry[] }>;
      return event.files.find((f) => f.name === 'render.exr')!;
    };
    const thumbnail = (entry: FileEntry) =>
      fx.host.getThumbnail({
        requestId: `t-${entry.sizeBytes}`,
        fileId: entry.id,
        longSidePx: LONG_SIDE_PX,
        priority: 'thumbnail-visible',
      });

    writeFileSync(path, file.after(30));
    const rendering = await entryWith((f) => f.rendering?.chunksPresent === 30);
    const partial = await thumbnail(rendering);
    expect(partial).toMatchObject({ widthPx: 32, heightPx: 24, source: 'full-decode' });
    expect(partial.missing).toMatchObject({ chunksRead: 30, chunksTotal: LEVEL0_TILES });

    writeFileSync(path, file.after(LEVEL0_TILES + 12 + 4));
    const levelsThere = await entryWith((f) => f.rendering?.chunksPresent === LEVEL0_TILES + 16);
    const fromLevel = await thumbnail(levelsThere);
    expect(fromLevel).toMatchObject({ widthPx: 32, heightPx: 24, source: 'mip-level' });
    expect(fromLevel.missing).toBeUndefined();
  });
});
