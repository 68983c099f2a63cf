// Live images through HostApi: listed with any folder's files, decoded, described, thumbnailed and exported from their
// planes; their changes told as file events, at most one per image per interval while a renderer sends tiles.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { halfToFloat } from '../../codec/index.js';
import type { HostEvent } from '../../contract/host-api.js';
import { createTestHost } from '../../testing/server/test-host.js';
import { LiveImages } from './live-images.js';
import { withLiveImages } from './live-host.js';
import { liveFileId } from './live-files.js';

const VIEW = { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'linear', layer: '', channelMode: 'rgb' } as const;

async function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-live-'));
  writeFileSync(join(dir, 'disk.exr'), 'not really');
  const inner = createTestHost();
  const live = new LiveImages();
  const host = withLiveImages(inner, live);
  const folder = (await host.openFolder(dir))!;
  const events: HostEvent[] = [];
  host.onEvent((e) => events.push(e));
  return { host, inner, live, folder, events };
}

describe('withLiveImages', () => {
  it("lists live images with the folder's files, and decodes, describes and thumbnails them from their planes", async () => {
    const { host, live, folder } = await setUp();
    live.create({ name: '/renders/beauty.exr', widthPx: 4, heightPx: 2, channelNames: ['R', 'G', 'B', 'A', 'depth.Z'] }, null);
    const image = live.get('/renders/beauty.exr')!;
    image.planes[0]!.set([0, 1, 2, 3, 4, 5, 6, 7]);
    image.planes[3]!.fill(1);
    const files = await host.listFiles(folder.id);
    expect(files.map((f) => f.name).sort()).toEqual(['beauty.exr', 'disk.exr']);
    const entry = files.find((f) => f.live === 'tev')!;
    expect(entry.summary!.parts[0]!.layers.map((l) => l.name)).toEqual(['', 'depth']);
    expect(entry.summary!.parts[0]!.layers[0]!.channels).toEqual(['R', 'G', 'B', 'A']);

    const decoded = await host.decodeImage({ requestId: 'r', fileId: entry.id, part: 0, channels: ['R'], priority: 'preview' });
    expect(decoded.planes.map((p) => p.name)).toEqual(['R']);
    expect([...new Float32Array(decoded.planes[0]!.data)]).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    // a copy: the image may change while the decode travels
    image.planes[0]![0] = 99;
    expect(new Float32Array(decoded.planes[0]!.data)[0]).toBe(0);
    await expect(host.decodeImage({ requestId: 'r', fileId: entry.id, part: 0, channels: ['Q'], priority: 'preview' })).rejects.toThrow(
      /has no channel Q/,
    );

    const header = await host.getHeader(entry.id);
    expect(header.parts[0]!.attributes.find((a) => a.name === 'channels')!.text).toBe('R float, G float, B float, A float, depth.Z float');

    const thumb = await host.getThumbnail({ requestId: 't', fileId: entry.id, longSidePx: 2, priority: 'thumbnail-visible' });
    expect([thumb.widthPx, thumb.heightPx]).toEqual([2, 1]);
    const red = new Uint16Array(thumb.rgbaHalf);
    // box filter of R over 2×2 blocks: (99 + 1 + 4 + 5) / 4 and (2 + 3 + 6 + 7) / 4
    expect([halfToFloat(red[0]!), halfToFloat(red[4]!)]).toEqual([27.25, 4.5]);
    expect(halfToFloat(red[3]!)).toBe(1);
  });

  it('exports live images as downloads, the wrapped host seeing every request (its refusals hold)', async () => {
    const { host, inner, live } = await setUp();
    live.create({ name: 'grey', widthPx: 2, heightPx: 2, channelNames: ['Y'] }, null);
    live.get('grey')!.planes[0]!.fill(0.5);
    const result = await host.exportImages({ fileIds: [liveFileId('grey')], kind: 'image', format: 'png', overwrite: false, view: VIEW });
    expect(result.failed).toEqual([]);
    expect(inner.calls).toContain('exportImages');
    expect(result.downloads?.map((d) => [d.name, d.mimeType])).toEqual([['grey.png', 'image/png']]);
    expect(new Uint8Array(result.downloads![0]!.data).subarray(1, 4)).toEqual(new TextEncoder().encode('PNG'));
  });

  it('tells additions, changes and removals as file events, coalescing updates into one region event', async () => {
    const { live, events } = await setUp();
    live.create({ name: 'a', widthPx: 64, heightPx: 8, channelNames: ['Y'] }, null);
    for (let i = 0; i < 50; i++)
      await live.apply({
        type: 'update-image',
        grabFocus: false,
        name: 'a',
        x: i,
        y: i % 4,
        widthPx: 1,
        heightPx: 2,
        channels: [{ name: 'Y', offset: 0, stride: 1 }],
        data: Float32Array.of(i, i),
      });
    await expect.poll(() => events.filter((e) => e.type === 'live-region').length).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 100));
    const regions = events.filter((e) => e.type === 'live-region');
    // the first change at once, the rest as one after the interval; tiles alone never send the whole image again
    expect(regions.length).toBeLessThanOrEqual(3);
    expect(events.filter((e) => e.type === 'files-changed')).toEqual([]);
    expect(events[0]).toMatchObject({ type: 'files-added', files: [{ id: liveFileId('a'), live: 'tev' }] });
    // the first update's tile alone, then the box of the 49 after it
    expect(regions[0]).toMatchObject({ file: { id: liveFileId('a') }, region: { xPx: 0, yPx: 0, widthPx: 1, heightPx: 2 } });
    const rest = regions.slice(1).map((e) => (e.type === 'live-region' ? e.region : null));
    const left = Math.min(...rest.map((r) => r!.xPx));
    const right = Math.max(...rest.map((r) => r!.xPx + r!.widthPx));
    expect([left, right]).toEqual([1, 50]);
    // a create under the same name replaces the whole image: the page fetches all of it
    live.create({ name: 'a', widthPx: 64, heightPx: 8, channelNames: ['Y'] }, null);
    await expect.poll(() => events.filter((e) => e.type === 'files-changed').length).toBe(1);
    live.close('a');
    expect(events.at(-1)).toEqual({ type: 'files-removed', folderId: 'tev', fileIds: [liveFileId('a')] });
  });

  it('decodes the crop an update changed, its data window the crop and its display window the image', async () => {
    const { host, live } = await setUp();
    live.create({ name: 'c', widthPx: 4, heightPx: 3, channelNames: ['R', 'G'] }, null);
    live.get('c')!.planes[0]!.set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const region = { xPx: 1, yPx: 1, widthPx: 2, heightPx: 2 };
    const crop = await host.decodeImage({ requestId: 'r', fileId: liveFileId('c'), part: 0, channels: ['R'], priority: 'preview', region });
    expect(crop.dataWindow).toEqual([1, 1, 2, 2]);
    expect(crop.displayWindow).toEqual([0, 0, 3, 2]);
    expect([crop.widthPx, crop.heightPx, crop.region]).toEqual([2, 2, region]);
    expect([...new Float32Array(crop.planes[0]!.data)]).toEqual([5, 6, 9, 10]);
    await expect(
      host.decodeImage({ requestId: 'r', fileId: liveFileId('c'), part: 0, priority: 'preview', region: { ...region, xPx: 3 } }),
    ).rejects.toThrow(/outside c \(4×3\): ask for a region inside it/);
  });

  it("tells vector graphics as the whole list, and a client's grabFocus as a focus event", async () => {
    const { host, live, events } = await setUp();
    await live.apply({ type: 'create-image', grabFocus: true, name: 'v', widthPx: 8, heightPx: 8, channelNames: ['Y'] });
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({ type: 'files-added' }),
      { type: 'live-focus', folderId: 'tev', fileId: liveFileId('v') },
    ]);
    const line = [
      { kind: 'begin-path' as const, values: [] },
      { kind: 'move-to' as const, values: [0, 0] },
      { kind: 'line-to' as const, values: [8, 8] },
      { kind: 'stroke' as const, values: [] },
    ];
    await live.apply({ type: 'vector-graphics', grabFocus: false, name: 'v', append: false, commands: line.slice(0, 2) });
    await live.apply({ type: 'vector-graphics', grabFocus: false, name: 'v', append: true, commands: line.slice(2) });
    expect(events.at(-1)).toEqual({ type: 'live-vectors', folderId: 'tev', fileId: liveFileId('v'), commands: line });
    expect((await host.getHeader(liveFileId('v'))).vectorGraphics).toEqual(line);
    await live.apply({ type: 'vector-graphics', grabFocus: true, name: 'v', append: false, commands: line.slice(0, 1) });
    expect(events.slice(-2)).toEqual([
      { type: 'live-vectors', folderId: 'tev', fileId: liveFileId('v'), commands: line.slice(0, 1) },
      { type: 'live-focus', folderId: 'tev', fileId: liveFileId('v') },
    ]);
    // an update without grabFocus leaves the selection alone
    const before = events.length;
    await live.apply({
      type: 'update-image',
      grabFocus: false,
      name: 'v',
      x: 0,
      y: 0,
      widthPx: 1,
      heightPx: 1,
      channels: [{ name: 'Y', offset: 0, stride: 1 }],
      data: Float32Array.of(1),
    });
    await new Promise((r) => setTimeout(r, 60));
    expect(events.slice(before).map((e) => e.type)).toEqual(['live-region']);
  });
});
