// Files still being written, through the host: a scanline and a tiled file laid down chunk by chunk (offset tables zeroed
// until the end) in a watched folder; at every state the grid's entry says how many chunks are there, and the viewer's
// decode shows exactly those (the others listed as not written yet, apart from damage), until the file is whole.
import { appendFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, memorySource, type WritePart } from '../../codec/index.js';
import type { FileEntry, HostEvent } from '../../contract/host-api.js';
import { writeChunkByChunk, type ChunkByChunk } from '../../testing/codec/incomplete.js';
import { EventLog, useHostFixture } from '../../testing/host/test-files.js';

const TIMING = { watchDebounceMs: 20, settlePollMs: 60, settleMs: 20_000 };
const fx = useHostFixture({ timing: TIMING });

function ramp(w: number, h: number, c: number): Float32Array {
  return Float32Array.from({ length: w * h }, (_, i) => 1 + c + (i % w) * 0.25 + Math.floor(i / w) * 0.0625);
}

/** 9 chunks of 16 lines (ZIP), the last of 5. */
const scanline: WritePart = {
  compression: 'zip',
  dataWindow: { xMin: 0, yMin: 0, xMax: 23, yMax: 16 * 8 + 4 },
  channels: ['B', 'G', 'R'].map((name, c) => ({ name, pixelType: 'float' as const, data: ramp(24, 16 * 8 + 5, c) })),
};

/** Tiles of 16 with mipmap levels: 21 chunks. */
const tiled: WritePart = {
  compression: 'zip',
  dataWindow: { xMin: 0, yMin: 0, xMax: 63, yMax: 47 },
  tiles: { xSizePx: 16, ySizePx: 16, levelMode: 'mipmapLevels' },
  channels: [{ name: 'Y', pixelType: 'float', data: ramp(64, 48, 0) }],
};

const entryOf = (name: string, match: (f: FileEntry) => boolean) => (e: HostEvent) =>
  (e.type === 'files-added' || e.type === 'files-changed') && e.files.some((f) => f.name === name && match(f));

/** Writes `file` into the folder as a renderer does (appending each chunk) and checks what the host shows at each state. */
async function renderAndCheck(name: string, file: ChunkByChunk, levels: { lx: number; ly: number }[]): Promise<void> {
  const log = new EventLog();
  fx.host.onEvent(log.listener);
  const folder = (await fx.host.openFolder(fx.dir))!;
  const path = join(fx.dir, name);
  const total = file.order.length;
  let written = file.after(0);
  writeFileSync(path, written);
  for (let n = 0; n <= total; n++) {
    if (n > 0) {
      const next = n === total ? file.complete : file.after(n);
      // the tables are filled at close (written in place); every other step appends one chunk
      if (n === total) writeFileSync(path, next);
      else appendFileSync(path, next.subarray(written.length));
      written = next;
    }
    const whole = n === total;
    const event = await log.next(entryOf(name, (f) => (whole ? f.status === 'ok' : f.rendering?.chunksPresent === n)));
    const entry = (event as Extract<HostEvent, { files: FileEntry[] }>).files.find((f) => f.name === name)!;
    if (whole) expect(entry.rendering).toBeUndefined();
    else expect(entry).toMatchObject({ status: 'incomplete', rendering: { chunksPresent: n, chunksTotal: total } });
    expect((await fx.host.listFiles(folder.id)).find((f) => f.name === name)).toEqual(entry);
    // what the codec decodes of the same bytes (incomplete.test.ts: the complete file's pixels where chunks are written)
    const oracle = ExrReader.open(memorySource(written));
    for (const { lx, ly } of levels) {
      const request = { requestId: `${name}:${n}:${lx}`, fileId: entry.id, part: 0, lx, ly, priority: 'preview' as const };
      const want = oracle.decode({ part: 0, lx, ly, tolerant: true });
      if (want.missing && want.missing.chunksRead === 0) {
        await expect(fx.host.decodeImage(request)).rejects.toThrow(/chunk is not written yet \(incomplete file: \d+ of \d+ chunks\)/);
        continue;
      }
      const got = await fx.host.decodeImage(request);
      got.planes.forEach((plane, c) => {
        const bytes = Buffer.from(plane.data, 0, want.channels[c]!.data.byteLength);
        expect(bytes.equals(Buffer.from(want.channels[c]!.data.buffer)), `${name} after ${n} chunks, level ${lx}: ${plane.name}`).toBe(
          true,
        );
      });
      if (!want.missing) {
        expect(got.missing).toBeUndefined();
        continue;
      }
      // the chunks not there are told as not written yet, apart from damage
      expect(got.missing).toMatchObject({
        chunksRead: want.missing.chunksRead,
        chunksTotal: want.missing.chunksTotal,
        incomplete: { chunksPresent: n, chunksTotal: total },
      });
      expect(got.missing!.reason).toMatch(/chunk is not written yet/);
    }
    if (!whole) {
      // the grid's thumbnail: of the chunks there, hatched elsewhere (a tiled file's MIP level it is made of may be whole
      // already); or, where that level has none yet (small levels come last), the reason, as a decode of it gives it
      const thumb = fx.host.getThumbnail({ requestId: `t${n}`, fileId: entry.id, longSidePx: 16, priority: 'thumbnail-visible' });
      await thumb.then(
        (t) => {
          if (t.missing) expect(t.missing.reason).toMatch(/chunk is not written yet/);
        },
        (error: Error) => expect(error.message).toMatch(/chunk is not written yet .*no other chunk of the image could be read/),
      );
    }
  }
}

describe('a file being rendered, in the viewer', () => {
  it('scanline: every state shows the chunks written, "N of M", until the tables are filled', async () => {
    await renderAndCheck('beauty.exr', writeChunkByChunk([scanline]), [{ lx: 0, ly: 0 }]);
  });

  it('tiled with mipmap levels: every state shows the tiles written, at each level', async () => {
    await renderAndCheck('tiles.exr', writeChunkByChunk([tiled]), [
      { lx: 0, ly: 0 },
      { lx: 1, ly: 1 },
    ]);
  });
});
