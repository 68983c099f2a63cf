// Only what is shown: a layer's planes from one decode, another layer unpacked from the kept chunks (no decode), memory reused once sent.
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { writeExrFile } from '../../codec/writer.js';
import { box, halfChannels } from '../samples/samples.js';
import { useHostFixture } from '../../testing/host/test-files.js';

const fixture = useHostFixture({ workers: 2 });

/** RGBA and two layers, each with its own picture; ZIP in 16-line chunks. */
function writeLayered(path: string, widthPx: number, heightPx: number): void {
  writeExrFile(path, [
    {
      dataWindow: box(widthPx, heightPx),
      compression: 'zip',
      channels: [
        ...halfChannels(widthPx, heightPx, (x, y) => [x / widthPx, y / heightPx, 0.5, 1], { withAlpha: true }),
        ...halfChannels(widthPx, heightPx, (x, y) => [2 * x, -y, x * y], { prefix: 'diffuse.' }),
        ...halfChannels(widthPx, heightPx, (x) => [Math.sin(x), 0.25, 4], { prefix: 'specular.' }),
      ],
    },
  ]);
}

async function openLayered(widthPx = 300, heightPx = 200) {
  writeLayered(join(fixture.dir, 'layers.exr'), widthPx, heightPx);
  const host = fixture.host;
  const folder = (await host.openFolder(fixture.dir))!;
  const [file] = await host.listFiles(folder.id);
  return { host, fileId: file!.id };
}

const rgba = ['A', 'B', 'G', 'R'];
const diffuse = ['diffuse.B', 'diffuse.G', 'diffuse.R'];

it('decodes once for the layer shown, then unpacks another layer from the kept chunks without reading or decompressing', async () => {
  const { host, fileId } = await openLayered();
  const first = await host.decodeImage({ requestId: 'a', fileId, part: 0, channels: rgba, priority: 'preview' });
  expect(first.source).toBe('decode');
  expect(first.planes.map((p) => p.name)).toEqual(rgba);
  expect(host.stats.decodes).toBe(1);

  const second = await host.decodeImage({ requestId: 'b', fileId, part: 0, channels: diffuse, priority: 'preview' });
  expect(second.source).toBe('ram-cache');
  expect(second.planes.map((p) => p.name)).toEqual(diffuse);
  expect(second.timings.bytesRead).toBe(0);
  expect(second.timings.decompressMs).toBe(0);
  // the chunks were kept by one pass in the background, after the preview's planes went out
  expect(host.stats).toMatchObject({ decodes: 1, unpacks: 1, storeFills: 1 });

  // the same planes as a decode of every channel of a fresh file
  const everything = await host.decodeImage({ requestId: 'c', fileId, part: 0, priority: 'preview' });
  expect(everything.source).toBe('ram-cache');
  expect(host.stats).toMatchObject({ decodes: 1, unpacks: 2 });
  await fixture.restart();
  const fresh = await openLayeredAgain();
  const reference = await fixture.host.decodeImage({ requestId: 'd', fileId: fresh, part: 0, priority: 'preview' });
  expect(reference.planes.map((p) => p.name)).toEqual(everything.planes.map((p) => p.name));
  everything.planes.forEach((p, i) => expect(Buffer.from(p.data).equals(Buffer.from(reference.planes[i]!.data))).toBe(true));
});

async function openLayeredAgain(): Promise<string> {
  const folder = (await fixture.host.openFolder(fixture.dir))!;
  return (await fixture.host.listFiles(folder.id))[0]!.id;
}

it('shares one decode between requests for two layers of the same image made at once', async () => {
  const { host, fileId } = await openLayered();
  const [a, b] = await Promise.all([
    host.decodeImage({ requestId: 'a', fileId, part: 0, channels: rgba, priority: 'preview' }),
    host.decodeImage({ requestId: 'b', fileId, part: 0, channels: diffuse, priority: 'preview' }),
  ]);
  expect(a.planes.map((p) => p.name)).toEqual(rgba);
  expect(b.planes.map((p) => p.name)).toEqual(diffuse);
  expect(host.stats).toMatchObject({ decodes: 1, storeFills: 1 });
});

it('a leased preview keeps the chunks only once its planes are sent, unless another layer is asked for sooner', async () => {
  const { host, fileId } = await openLayered();
  const leased = await host.decodeImageLease({ requestId: 'a', fileId, part: 0, channels: rgba, priority: 'preview' });
  await new Promise((r) => setTimeout(r, 50));
  expect(host.stats.storeFills).toBe(0);
  // the layer switch does not wait for the send: it starts the pass itself, and unpacks from what it kept
  const other = await host.decodeImage({ requestId: 'b', fileId, part: 0, channels: diffuse, priority: 'preview' });
  expect(other.source).toBe('ram-cache');
  leased.release();
  expect(host.stats).toMatchObject({ decodes: 1, unpacks: 1, storeFills: 1 });
});

it('a prefetch keeps the chunks in its own pass', async () => {
  const { host, fileId } = await openLayered();
  await host.decodeImage({ requestId: 'a', fileId, part: 0, channels: rgba, priority: 'prefetch' });
  const other = await host.decodeImage({ requestId: 'b', fileId, part: 0, channels: diffuse, priority: 'preview' });
  expect(other.source).toBe('ram-cache');
  expect(host.stats).toMatchObject({ decodes: 1, unpacks: 1, storeFills: 0 });
});

it('reuses the memory of a leased image once it is released and has left the RAM cache, never that of one handed out', async () => {
  writeLayered(join(fixture.dir, 'one.exr'), 1024, 1024);
  writeLayered(join(fixture.dir, 'two.exr'), 1024, 1024);
  // 4 half planes of 1024x1024 are 8 MB: the cache holds one image's RGBA, not two
  const host = await fixture.restartWith({ ramBudgetBytes: 12 << 20 });
  const folder = (await host.openFolder(fixture.dir))!;
  const [one, two] = await host.listFiles(folder.id);
  const leased = await host.decodeImageLease({ requestId: 'a', fileId: one!.id, part: 0, channels: rgba, priority: 'preview' });
  leased.release();
  // two.exr pushes one.exr out of the cache; its planes and chunk store go back to the plane memory
  await host.decodeImage({ requestId: 'b', fileId: two!.id, part: 0, channels: rgba, priority: 'preview' });
  expect(host.stats.planeMemory.keptBytes).toBeGreaterThan(0);
  const before = host.stats.planeMemory.reused;
  // one.exr again: decoded into the memory it had (two.exr's was handed out without a lease, so it is never reused)
  await host.decodeImage({ requestId: 'c', fileId: one!.id, part: 0, channels: rgba, priority: 'preview' });
  expect(host.stats.planeMemory.reused).toBeGreaterThan(before);
});
