// Listing and watching real folders: summaries, damaged and non-EXR files, and live add, change, rename, remove, truncated-then-complete.

import { appendFileSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { FileEntry, HostEvent } from '../../contract/host-api.js';
import { halfChannels, box } from '../samples/samples.js';
import { EventLog, rgbBytes, useHostFixture, writeRgb } from '../../testing/host/test-files.js';

const grey = (v: number) => () => [v, v, v] as [number, number, number];
const TIMING = { watchDebounceMs: 30, settlePollMs: 60, settleMs: 600 };

const fx = useHostFixture({ timing: TIMING });

describe('listing', () => {
  beforeEach(() => {
    writeRgb(join(fx.dir, 'b.exr'), 64, 32, grey(0.5));
    writeRgb(join(fx.dir, 'a10.exr'), 16, 16, grey(0.5));
    writeRgb(join(fx.dir, 'a9.exr'), 16, 16, grey(0.5), {
      tiles: { xSizePx: 8, ySizePx: 8, levelMode: 'mipmapLevels' },
    });
    mkdirSync(join(fx.dir, 'sub'));
    writeExrFile(join(fx.dir, 'sub', 'layers.exr'), [
      { dataWindow: box(8, 8), channels: [...halfChannels(8, 8, grey(1)), ...halfChannels(8, 8, grey(2), { prefix: 'diffuse.' })] },
    ]);
    writeFileSync(join(fx.dir, 'notes.txt'), 'not an image');
    writeFileSync(join(fx.dir, 'broken.exr'), Buffer.from('this is not an OpenEXR file at all'));
  });

  it('lists the EXR files of a folder in natural order with header summaries', async () => {
    const folder = (await fx.host.openFolder(fx.dir))!;
    const files = await fx.host.listFiles(folder.id);
    expect(files.map((f) => f.relativePath)).toEqual(['a9.exr', 'a10.exr', 'b.exr', 'broken.exr']);
    const b = files.find((f) => f.name === 'b.exr')!;
    expect(b.status).toBe('ok');
    expect(b.summary).toMatchObject({ widthPx: 64, heightPx: 32, multipart: false });
    expect(b.summary!.parts[0]).toMatchObject({
      type: 'scanlineimage',
      compression: 'zip',
      tiled: false,
      dataWindow: [0, 0, 63, 31],
      hasPreview: false,
    });
    expect(b.summary!.parts[0]!.layers).toEqual([{ name: '', view: null, channels: ['R', 'G', 'B'] }]);
    const tiled = files.find((f) => f.name === 'a9.exr')!;
    expect(tiled.summary!.parts[0]).toMatchObject({ tiled: true, levelMode: 'mipmapLevels', levelCount: 5 });
    const broken = files.find((f) => f.name === 'broken.exr')!;
    expect(broken.status).toBe('error');
    expect(broken.error).toMatch(/not an OpenEXR file/);
  });

  it('goes into sub-folders only when asked, and groups layers', async () => {
    const folder = (await fx.host.openFolder(fx.dir, { recursive: true }))!;
    const files = await fx.host.listFiles(folder.id);
    const layered = files.find((f) => f.relativePath === 'sub/layers.exr')!;
    expect(layered.summary!.parts[0]!.layers).toEqual([
      { name: '', view: null, channels: ['R', 'G', 'B'] },
      { name: 'diffuse', view: null, channels: ['diffuse.R', 'diffuse.G', 'diffuse.B'] },
    ]);
  });

  it('says what is wrong with a folder that cannot be opened', async () => {
    await expect(fx.host.openFolder(join(fx.dir, 'missing'))).rejects.toThrow(/no such folder/);
    await expect(fx.host.openFolder(join(fx.dir, 'b.exr'))).rejects.toThrow(/it is a file, not a folder/);
  });
});

describe('a progressive open', () => {
  it('returns with the first files in name order read, and announces the rest in batches', async () => {
    const count = 300;
    // written in reverse, so that the order read is the sort's, not the directory's
    for (let i = count - 1; i >= 0; i--) writeRgb(join(fx.dir, `shot_${i}.exr`), 4, 4, grey(0.5));
    const log = new EventLog();
    fx.host.onEvent(log.listener);
    const folder = (await fx.host.openFolder(fx.dir, { progressive: true }))!;
    const first = await fx.host.listFiles(folder.id);
    expect(first.length).toBeGreaterThanOrEqual(256);
    expect(first.length).toBeLessThan(count);
    // the first screen's files: natural order from the start, none skipped
    expect(first.slice(0, 256).map((f) => f.name)).toEqual(Array.from({ length: 256 }, (_, i) => `shot_${i}.exr`));
    await log.next((e) => e.type === 'sequences-changed');
    const announced = log.events.flatMap((e) => (e.type === 'files-added' ? e.files : []));
    const ids = new Set([...first, ...announced].map((f) => f.id));
    expect(ids.size).toBe(count);
    // each file after the first 256 announced once
    expect(announced.map((f) => f.name).sort()).toEqual(Array.from({ length: count - 256 }, (_, i) => `shot_${256 + i}.exr`).sort());
    // batched: far fewer events than files
    expect(log.events.filter((e) => e.type === 'files-added').length).toBeLessThan(10);
    expect(await fx.host.listFiles(folder.id)).toHaveLength(count);
  });

  it('reads a small folder whole before it returns', async () => {
    for (let i = 0; i < 5; i++) writeRgb(join(fx.dir, `a${i}.exr`), 4, 4, grey(0.5));
    const folder = (await fx.host.openFolder(fx.dir, { progressive: true }))!;
    expect(await fx.host.listFiles(folder.id)).toHaveLength(5);
  });
});

describe('watching', () => {
  let log: EventLog;
  let folderId: string;

  beforeEach(async () => {
    writeRgb(join(fx.dir, 'first.exr'), 16, 16, grey(0.25));
    log = new EventLog();
    fx.host.onEvent(log.listener);
    folderId = (await fx.host.openFolder(fx.dir))!.id;
  });

  const added =
    (name: string) =>
    (e: HostEvent): e is Extract<HostEvent, { type: 'files-added' }> =>
      e.type === 'files-added' && e.files.some((f) => f.name === name);
  const changed =
    (name: string, status?: FileEntry['status']) =>
    (e: HostEvent): e is Extract<HostEvent, { type: 'files-changed' }> =>
      e.type === 'files-changed' && e.files.some((f) => f.name === name && (status === undefined || f.status === status));
  const removed = (id: string) => (e: HostEvent) => e.type === 'files-removed' && e.fileIds.includes(id);

  it('reports files added, changed, renamed and removed', async () => {
    const t0 = performance.now();
    writeRgb(join(fx.dir, 'new.exr'), 32, 16, grey(1));
    const add = await log.next(added('new.exr'));
    // shown within half a second (a margin for a loaded machine): the watcher's quiet time, then one header read
    expect(performance.now() - t0).toBeLessThan(500 + 1000);
    const entry = add.files[0]!;
    expect(entry).toMatchObject({ status: 'ok', folderId, relativePath: 'new.exr' });
    expect(entry.summary?.widthPx).toBe(32);

    let mark = log.length;
    writeRgb(join(fx.dir, 'new.exr'), 48, 16, grey(1));
    const change = await log.next(changed('new.exr'), 10_000, mark);
    expect(change.files[0]!.summary?.widthPx).toBe(48);
    expect(change.files[0]!.id).toBe(entry.id);

    mark = log.length;
    renameSync(join(fx.dir, 'new.exr'), join(fx.dir, 'renamed.exr'));
    await log.next(removed(entry.id), 10_000, mark);
    const renamed = await log.next(added('renamed.exr'), 10_000, mark);
    expect(renamed.files[0]!.summary?.widthPx).toBe(48);

    mark = log.length;
    rmSync(join(fx.dir, 'renamed.exr'));
    await log.next(removed(renamed.files[0]!.id), 10_000, mark);
    const names = (await fx.host.listFiles(folderId)).map((f) => f.name);
    expect(names).toEqual(['first.exr']);
  });

  it('marks a file being written as incomplete and reports it whole when the writing ends', async () => {
    const bytes = rgbBytes(64, 64, (x) => [x / 64, 0.5, 0.25]);
    const path = join(fx.dir, 'rendering.exr');
    // a writer that has put down the header and half the chunks (offset table still zeros, as OpenEXR leaves it)
    const headerAndHalf = Buffer.from(bytes.subarray(0, Math.floor(bytes.length / 2)));
    writeFileSync(path, headerAndHalf);
    const first = await log.next(added('rendering.exr'));
    expect(first.files[0]!.status).toBe('incomplete');
    // its header is whole: the chunks there so far can be shown, and how many there are is said (4 chunks of 16 lines)
    expect(first.files[0]!.summary?.widthPx).toBe(64);
    expect(first.files[0]!.rendering?.chunksTotal).toBe(4);
    expect(first.files[0]!.rendering!.chunksPresent).toBeLessThan(4);
    // the rest arrives: the file is whole now
    appendFileSync(path, Buffer.from(bytes.subarray(headerAndHalf.length)));
    const done = await log.next(changed('rendering.exr', 'ok'));
    expect(done.files[0]!.summary?.widthPx).toBe(64);
    expect(done.files[0]!.id).toBe(first.files[0]!.id);
  });

  it('reports a file cut short that stops changing as an error, not forever incomplete', async () => {
    const bytes = rgbBytes(64, 64, () => [1, 1, 1]);
    writeFileSync(join(fx.dir, 'cut.exr'), Buffer.from(bytes.subarray(0, bytes.length - 10)));
    const first = await log.next(added('cut.exr'));
    expect(first.files[0]!.status).toBe('incomplete');
    const settled = await log.next(changed('cut.exr', 'error'));
    expect(settled.files[0]!.error).toMatch(/incomplete.*write or copy it again/);
  });

  it('refuses work on a file that is still incomplete with a message that says so', async () => {
    const bytes = rgbBytes(16, 16, () => [1, 1, 1]);
    writeFileSync(join(fx.dir, 'partial.exr'), Buffer.from(bytes.subarray(0, 40)));
    const first = await log.next(added('partial.exr'));
    await expect(
      fx.host.getThumbnail({ requestId: 't', fileId: first.files[0]!.id, longSidePx: 8, priority: 'thumbnail-visible' }),
    ).rejects.toThrow(/still being written/);
  });
});
