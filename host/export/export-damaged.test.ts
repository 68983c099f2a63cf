// Export of damaged files: a deep part is written from the chunks that could be read (the rest black) and
// the result says "written with damage"; a damaged flat image is still not exported.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ExrReader, HALF_TO_FLOAT, memorySource } from '../../codec/index.js';
import type { FileEntry, HostEvent, ViewTransform } from '../../contract/host-api.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { toneMapPixel } from '../../shaders/tonemap-cpu.js';
import { cutInChunk } from '../../testing/codec/damage.js';
import { DEEP_GREY, DEEP_H, DEEP_W, deepBytes, deepCutAt, deepZeroedLine } from '../../testing/host/damaged-deep.js';
import { EventLog, rgbBytes, tempDir, useHostFixture } from '../../testing/host/test-files.js';

const fixture = useHostFixture({ timing: { watchDebounceMs: 30, settlePollMs: 60, settleMs: 400 } });
const view: ViewTransform = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb' };
const grey8 = Math.round(toneMapPixel(DEEP_GREY, DEEP_GREY, DEEP_GREY, 1, 0, 0, { ...DEFAULT_DISPLAY, nanInf: false })[0]! * 255);

/** Per line of an RGB PNG (the export drops alpha): its red, when the line is uniform. */
async function pngLines(path: string): Promise<number[]> {
  const { data, info } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height, info.channels]).toEqual([DEEP_W, DEEP_H, 3]);
  return Array.from({ length: DEEP_H }, (_, y) => {
    const line = new Set(Array.from({ length: DEEP_W * 3 }, (_, i) => data[y * DEEP_W * 3 + i]));
    expect(line.size, `line ${y}`).toBe(1);
    return [...line][0]!;
  });
}

describe('exporting damaged files', () => {
  it('a deep file with a zeroed chunk or cut short: written from its readable lines, the result saying what it lacks', async () => {
    const { dir, host } = fixture;
    const out = tempDir('exrview-out-');
    try {
      const log = new EventLog();
      host.onEvent(log.listener);
      writeFileSync(join(dir, 'a_deep.exr'), deepBytes());
      writeFileSync(join(dir, 'b_deep_zeroed.exr'), deepZeroedLine(10));
      writeFileSync(join(dir, 'c_deep_cut.exr'), deepCutAt(30));
      writeFileSync(
        join(dir, 'd_flat_cut.exr'),
        cutInChunk(
          rgbBytes(48, 64, (x, y) => [x / 48, y / 64, 0.5], { compression: 'zip' }),
          2,
        ),
      );
      const folder = (await host.openFolder(dir))!;
      const settled = (name: string) => (e: HostEvent) =>
        (e.type === 'files-changed' || e.type === 'files-added') && e.files.some((f) => f.name === name && f.status === 'error');
      await Promise.all(['c_deep_cut.exr', 'd_flat_cut.exr'].map((n) => log.next(settled(n), 10_000).catch(() => undefined)));
      const files = await host.listFiles(folder.id);
      const byName = (name: string): FileEntry => files.find((f) => f.name === name)!;
      expect(byName('c_deep_cut.exr').status).toBe('error');

      const ids = ['a_deep.exr', 'b_deep_zeroed.exr', 'c_deep_cut.exr', 'd_flat_cut.exr'].map((n) => byName(n).id);
      const result = await host.exportImages({ fileIds: ids, kind: 'image', format: 'png', overwrite: false, view, outDir: out.path });
      const written = (name: string) => result.written.find((w) => w.fileId === byName(name).id)!;
      expect(result.written).toHaveLength(3);
      expect(written('a_deep.exr').damage).toBeUndefined();
      expect(written('b_deep_zeroed.exr').damage).toMatch(
        /^written with damage: 1 of 40 chunks could not be read and are black in it \(part 0, chunk 10: .*\); copy or render/,
      );
      expect(written('c_deep_cut.exr').damage).toMatch(/^written with damage: 10 of 40 chunks could not be read .*\(part 0, chunk 30: /);
      const readable = grey8;
      expect(await pngLines(written('a_deep.exr').path)).toEqual(Array(DEEP_H).fill(readable));
      expect(await pngLines(written('b_deep_zeroed.exr').path)).toEqual(
        Array.from({ length: DEEP_H }, (_, y) => (y === 10 ? 0 : readable)),
      );
      expect(await pngLines(written('c_deep_cut.exr').path)).toEqual(Array.from({ length: DEEP_H }, (_, y) => (y >= 30 ? 0 : readable)));
      // a flat image is not exported with holes in it
      expect(result.failed).toEqual([
        { fileId: byName('d_flat_cut.exr').id, reason: expect.stringMatching(/^d_flat_cut\.exr: .*incomplete/) },
      ]);

      // as an EXR layer: the flattened lines that could be read, zero where none could
      const layer = await host.exportImages({
        fileIds: [ids[2]!],
        kind: 'exr-layer',
        format: 'exr',
        overwrite: false,
        view,
        outDir: out.path,
      });
      expect(layer.written[0]!.damage).toMatch(/^written with damage: 10 of 40 chunks could not be read and are zero in it/);
      const reader = ExrReader.open(memorySource(new Uint8Array(readFileSync(layer.written[0]!.path))));
      const r = reader.decode().channels.find((c) => c.name === 'R')!;
      const valueAt = (y: number) => (r.pixelType === 'half' ? HALF_TO_FLOAT[r.data[y * DEEP_W]!]! : r.data[y * DEEP_W]!);
      expect(Array.from({ length: DEEP_H }, (_, y) => valueAt(y))).toEqual(
        Array.from({ length: DEEP_H }, (_, y) => (y >= 30 ? 0 : DEEP_GREY)),
      );
    } finally {
      out.remove();
    }
  });
});
