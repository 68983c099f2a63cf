// Damaged files through the host: a file cut short and one with a zeroed chunk show their readable chunks, with the
// missing regions and the reason in the decoded image, and their header (other uses of their pixels fail with the reason);
// a file of which no chunk reads still fails.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExrReader, openFileSource } from '../../codec/index.js';
import type { DecodedImage, FileEntry, HostEvent } from '../../contract/host-api.js';
import { EventLog, useHostFixture, writeRgb } from '../../testing/host/test-files.js';

const TIMING = { watchDebounceMs: 30, settlePollMs: 60, settleMs: 400 };
const W = 48;
const H = 200; // ZIP: 16 lines a chunk, 13 chunks
const fixture = useHostFixture({ timing: TIMING });
const pattern = (x: number, y: number): [number, number, number] => [x / W, y / H, 0.25 + ((x + y) % 7) / 8];

/** The good file's chunks, where each starts and ends (chunk order). */
function chunkSpans(path: string): { start: number; end: number }[] {
  const source = openFileSource(path);
  try {
    const starts = [...ExrReader.open(source).offsets[0]!];
    const sorted = [...starts].sort((a, b) => a - b);
    return starts.map((start) => ({ start, end: sorted.find((s) => s > start) ?? source.sizeBytes }));
  } finally {
    source.close();
  }
}

/** The half plane's rows [yMin, yMax] are zero; every other row equals the good image's. */
function expectRowsMissing(got: DecodedImage, good: DecodedImage, rows: { yMin: number; yMax: number }): void {
  for (const plane of good.planes) {
    const a = new Uint16Array(got.planes.find((p) => p.name === plane.name)!.data, 0, W * H);
    const b = new Uint16Array(plane.data, 0, W * H);
    for (let y = 0; y < H; y++) {
      const row = a.subarray(y * W, (y + 1) * W);
      if (y >= rows.yMin && y <= rows.yMax)
        expect(
          row.every((v) => v === 0),
          `${plane.name} row ${y}`,
        ).toBe(true);
      else expect(row, `${plane.name} row ${y}`).toEqual(b.subarray(y * W, (y + 1) * W));
    }
  }
}

const errorNamed = (name: string) => (e: HostEvent) =>
  (e.type === 'files-changed' || e.type === 'files-added') && e.files.some((f) => f.name === name && f.status === 'error');

describe('damaged files through the host', () => {
  it('shows the readable chunks of a file cut short and of one with a zeroed chunk, with what is missing and why, and their header', async () => {
    const { dir, host } = fixture;
    const log = new EventLog();
    host.onEvent(log.listener);
    const goodPath = join(dir, 'a_good.exr');
    writeRgb(goodPath, W, H, pattern);
    const whole = readFileSync(goodPath);
    const spans = chunkSpans(goodPath);
    writeFileSync(join(dir, 'b_cut.exr'), whole.subarray(0, spans[6]!.start + 20)); // chunks 0-5 whole
    const zeroed = Buffer.from(whole);
    zeroed.fill(0, spans[3]!.start, spans[3]!.end);
    writeFileSync(join(dir, 'c_zeroed.exr'), zeroed);
    const none = Buffer.from(whole);
    for (const span of spans) none.fill(0, span.start, span.end);
    writeFileSync(join(dir, 'd_no_chunk.exr'), none);

    const folder = (await host.openFolder(dir))!;
    await log.next(errorNamed('b_cut.exr'), 10_000).catch(() => undefined);
    const files = await host.listFiles(folder.id);
    const byName = (name: string): FileEntry => files.find((f) => f.name === name)!;
    const good = await host.decodeImage({ requestId: 'g', fileId: byName('a_good.exr').id, part: 0, priority: 'preview' });
    expect(good.missing).toBeUndefined();

    // cut short: an error for the grid, with its header's summary, so its chunks can be shown
    const cut = byName('b_cut.exr');
    expect(cut.status).toBe('error');
    expect(cut.error).toMatch(/incomplete/);
    expect(cut.summary?.parts[0]?.channels.map((c) => c.name)).toEqual(['B', 'G', 'R']);
    const cutImage = await host.decodeImage({ requestId: 'c', fileId: cut.id, part: 0, priority: 'preview' });
    expect(cutImage.missing).toMatchObject({ regions: [[0, 96, W - 1, H - 1]], chunksRead: 6, chunksTotal: 13 });
    expect(cutImage.missing!.reason).toMatch(/^part 0, chunk 6: /);
    expectRowsMissing(cutImage, good, { yMin: 96, yMax: H - 1 });
    const header = await host.getHeader(cut.id);
    expect(header.parts[0]!.attributes.map((a) => a.name)).toEqual(expect.arrayContaining(['channels', 'compression', 'dataWindow']));

    // a zeroed chunk: the file is whole to the grid; its decode lists that chunk's lines
    const zeroedEntry = byName('c_zeroed.exr');
    expect(zeroedEntry.status).toBe('ok');
    const red = await host.decodeImage({ requestId: 'z1', fileId: zeroedEntry.id, part: 0, channels: ['R'], priority: 'preview' });
    expect(red.missing).toMatchObject({ regions: [[0, 48, W - 1, 63]], chunksRead: 12, chunksTotal: 13 });
    expect(red.missing!.reason).toMatch(/^part 0, chunk 3: /);
    // another layer of it, from the RAM cache or the level's chunk store: the same chunk missing, its pixels zero
    const rest = await host.decodeImage({ requestId: 'z2', fileId: zeroedEntry.id, part: 0, priority: 'preview' });
    expect(rest.missing).toEqual(red.missing);
    expectRowsMissing(rest, good, { yMin: 48, yMax: 63 });
    expect((await host.getHeader(zeroedEntry.id)).parts).toHaveLength(1);
    // only a preview shows a damaged image: a played frame, a thumbnail's decode and an export still fail with the reason
    await expect(host.decodeImage({ requestId: 'z3', fileId: zeroedEntry.id, part: 0, priority: 'playback' })).rejects.toThrow(
      /^part 0, chunk 3: /,
    );
    await expect(host.decodeImage({ requestId: 'z4', fileId: zeroedEntry.id, part: 0, priority: 'thumbnail-visible' })).rejects.toThrow(
      /chunk 3/,
    );
    const view = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'srgb', layer: '', channelMode: 'rgb' } as const;
    const exported = await host.exportImages({ fileIds: [zeroedEntry.id], kind: 'image', format: 'png', overwrite: true, view });
    expect(exported.failed[0]?.reason).toMatch(/chunk 3: .*1 of 13 chunks cannot be read, so it is not exported/);

    // no chunk reads: nothing to show, and the reason says so
    const noChunk = byName('d_no_chunk.exr');
    await expect(host.decodeImage({ requestId: 'n', fileId: noChunk.id, part: 0, priority: 'preview' })).rejects.toThrow(
      /part 0, chunk 0: .*no other chunk of the image could be read/,
    );
  });
});
