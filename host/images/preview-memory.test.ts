// Plane memory made ready for a folder's previews: the first preview decodes into buffers touched while the host was
// idle, with the same pixels as a decode into fresh memory; files added later with larger previews grow the reserve.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import type { Host } from '../host.js';
import { box, halfChannels } from '../samples/samples.js';
import { EventLog, useHostFixture } from '../../testing/host/test-files.js';
import { previewPlaneBytes } from './preview-planes.js';

const fixture = useHostFixture({ timing: { watchDebounceMs: 30, settlePollMs: 60, settleMs: 400 } });
const MB = 1 << 20;
const rgba = ['A', 'B', 'G', 'R'];

/** RGBA half, ZIP: at 1024x1024 each plane is 2 MB, the least plane memory keeps. */
function writeRgba(path: string, sizePx: number): void {
  writeExrFile(path, [
    {
      dataWindow: box(sizePx, sizePx),
      compression: 'zip',
      channels: halfChannels(sizePx, sizePx, (x, y) => [x / sizePx, y / sizePx, ((x ^ y) & 15) / 16, 1], { withAlpha: true }),
    },
  ]);
}

async function until(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const t0 = performance.now();
  while (!done()) {
    if (performance.now() - t0 > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function previewOf(host: Host) {
  const folder = (await host.openFolder(fixture.dir))!;
  const [file] = await host.listFiles(folder.id);
  expect(previewPlaneBytes(file!)).toEqual([2 * MB, 2 * MB, 2 * MB, 2 * MB]);
  return () => host.decodeImage({ requestId: 'a', fileId: file!.id, part: 0, channels: rgba, priority: 'preview' });
}

it("decodes a folder's first preview into plane memory made ready at idle, with the pixels a decode into fresh memory gives", async () => {
  writeRgba(join(fixture.dir, 'rgba.exr'), 1024);
  const decode = await previewOf(fixture.host);
  await until(() => fixture.host.stats.planeMemory.keptBytes >= 8 * MB);
  const { reused, allocated } = fixture.host.stats.planeMemory;
  const ready = await decode();
  expect(fixture.host.stats.planeMemory.reused - reused).toBe(4);
  expect(fixture.host.stats.planeMemory.allocated).toBe(allocated);

  // a host whose plane memory keeps less than a plane makes no reserve: its decode writes fresh memory
  const fresh = await fixture.restartWith({ ramBudgetBytes: 8 * MB });
  const reference = await (await previewOf(fresh))();
  expect(fresh.stats.planeMemory.reused).toBe(0);
  expect(ready.planes.map((p) => p.name)).toEqual(rgba);
  ready.planes.forEach((p, i) => {
    const want = reference.planes[i]!;
    expect(Buffer.from(p.data, 0, 2 * MB).equals(Buffer.from(want.data, 0, 2 * MB)), p.name).toBe(true);
  });
});

it('grows the reserve when a file with a larger preview is added to an open folder', async () => {
  writeRgba(join(fixture.dir, 'small.exr'), 256);
  const events = new EventLog();
  fixture.host.onEvent(events.listener);
  await fixture.host.openFolder(fixture.dir);
  // 128 KB planes: too small for the plane memory to keep, so none are made
  await new Promise((r) => setTimeout(r, 100));
  expect(fixture.host.stats.planeMemory.keptBytes).toBe(0);
  writeRgba(join(fixture.dir, 'large.exr'), 1024);
  await events.next((e) => e.type === 'files-added' && e.files.some((f) => f.name === 'large.exr'));
  await until(() => fixture.host.stats.planeMemory.keptBytes >= 8 * MB);
  expect(fixture.host.stats.planeMemory.keptBytes).toBe(8 * MB);
});
