// The listener against a tev client written from the protocol: images created, updated in tiles and closed; bad
// packets, clients that stop mid-packet and a thousand connections leave it up with its memory bounded.
import { afterEach, describe, expect, it } from 'vitest';
import { LiveImages } from './live-images.js';
import { startTevListener, type TevListener } from './listener.js';
import { DEFAULT_TEV_LIMITS } from './packet.js';
import {
  TevClient,
  closeImage,
  createImage,
  tilesOf,
  updateImageV1,
  updateImageV2,
  updateImageV3,
  vectorGraphics,
} from '../../testing/tev/tev-client.js';

let listener: TevListener | null = null;
afterEach(async () => {
  await listener?.close();
  listener = null;
});

async function start(options: Partial<Parameters<typeof startTevListener>[0]> = {}) {
  const images = new LiveImages();
  const logged: string[] = [];
  listener = await startTevListener({ images, port: 0, log: (l) => logged.push(l), ...options });
  return { images, logged, port: listener.port };
}

/** A test image: channel c of pixel (x, y) is x + 100 y + 10000 c. */
const value = (x: number, y: number, c: number): number => x + 100 * y + 10_000 * c;

describe('tev listener', () => {
  it('creates an image, fills it tile by tile with every update version, and closes it', async () => {
    const { images, port } = await start();
    const client = await TevClient.connect(port);
    const [w, h] = [37, 23];
    const channels = ['R', 'G', 'B', 'A'];
    await client.send(createImage('render.exr', w, h, channels));
    const tiles = tilesOf(w, h, 8);
    const packets = tiles.map((t, i) => {
      const at = (x: number, y: number, c: number) => value(t.x + x, t.y + y, c);
      const n = t.widthPx * t.heightPx;
      if (i % 3 === 0) {
        // v3, interleaved RGBA
        const data = new Float32Array(n * 4);
        for (let p = 0; p < n; p++) for (let c = 0; c < 4; c++) data[p * 4 + c] = at(p % t.widthPx, Math.floor(p / t.widthPx), c);
        return [
          updateImageV3(
            'render.exr',
            channels.map((name, c) => ({ name, offset: c, stride: 4 })),
            t,
            data,
          ),
        ];
      }
      if (i % 3 === 1) {
        // v2, one plane after another
        const data = new Float32Array(n * 4);
        for (let c = 0; c < 4; c++) for (let p = 0; p < n; p++) data[c * n + p] = at(p % t.widthPx, Math.floor(p / t.widthPx), c);
        return [updateImageV2('render.exr', channels, t, data)];
      }
      // v1, a channel at a time
      return channels.map((name, c) =>
        updateImageV1(
          'render.exr',
          name,
          t,
          Float32Array.from({ length: n }, (_, p) => at(p % t.widthPx, Math.floor(p / t.widthPx), c)),
        ),
      );
    });
    await client.send(...packets.flat(), vectorGraphics('render.exr', [{ type: 15, values: [5, 5, 3] }]));
    await expect.poll(() => images.get('render.exr')?.vectorCommands.length, { timeout: 5000 }).toBe(1);
    const image = images.get('render.exr')!;
    for (let c = 0; c < 4; c++)
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(image.planes[c]![y * w + x], `${x},${y},${c}`).toBe(value(x, y, c));
    await client.send(closeImage('render.exr'));
    await expect.poll(() => images.get('render.exr'), { timeout: 5000 }).toBeUndefined();
    expect(images.sizeBytes).toBe(0);
    await client.close();
  });

  it('closes the connection that sends a bad packet, with the reason logged, and changes nothing else', async () => {
    const { images, logged, port } = await start();
    const good = await TevClient.connect(port);
    await good.send(createImage('a', 4, 4, ['Y']));
    await expect.poll(() => images.get('a')).toBeDefined();
    const before = images.get('a')!.version;
    const bad = await TevClient.connect(port);
    await bad.send(updateImageV1('a', 'Y', { x: 0, y: 0, widthPx: 4, heightPx: 4 }, new Float32Array(3)));
    expect(await bad.closedByPeer(5000)).toBe(true);
    expect(logged.some((l) => /bad packet \(truncated\)/.test(l))).toBe(true);
    expect(images.get('a')!.version).toBe(before);
    // the other client carries on
    await good.send(updateImageV1('a', 'Y', { x: 0, y: 0, widthPx: 1, heightPx: 1 }, [7]));
    await expect.poll(() => images.get('a')!.planes[0]![0]).toBe(7);
    expect(good.closed).toBe(false);
    await good.close();
  });

  it('refuses a packet whose length passes the limit as soon as its length arrives', async () => {
    const { logged, port } = await start({ limits: { ...DEFAULT_TEV_LIMITS, maxPacketBytes: 1 << 20 } });
    const client = await TevClient.connect(port);
    await client.send(Uint8Array.of(0, 0, 0, 0x40));
    expect(await client.closedByPeer(5000)).toBe(true);
    expect(logged.join('\n')).toMatch(/packet-too-large/);
  });

  it('stays up through a thousand connections at once and clients that stop mid-packet, holding bounded memory', async () => {
    const { images, logged, port } = await start({ maxConnections: 64, maxHeldBytes: 8 << 20 });
    const stuck: TevClient[] = [];
    // clients that send the start of a 1 MiB update and stop there
    for (let i = 0; i < 20; i++) {
      const c = await TevClient.connect(port);
      const packet = updateImageV1('none', 'Y', { x: 0, y: 0, widthPx: 512, heightPx: 512 }, new Float32Array(512 * 512));
      await c.send(packet.subarray(0, 300_000));
      stuck.push(c);
    }
    await expect.poll(() => listener!.heldBytes, { timeout: 5000 }).toBe(20 * 300_000);
    // a client that would take the held bytes past the budget is closed; the held bytes stay under it
    const greedy = await TevClient.connect(port);
    const start100MiB = new Uint8Array(3 << 20);
    new DataView(start100MiB.buffer).setUint32(0, 100 << 20, true);
    await greedy.send(start100MiB).catch(() => {});
    expect(await greedy.closedByPeer(5000)).toBe(true);
    expect(logged.join('\n')).toMatch(/unfinished packets hold more than/);
    expect(listener!.heldBytes).toBe(20 * 300_000);
    const attempts = await Promise.allSettled(Array.from({ length: 1000 }, () => TevClient.connect(port)));
    const opened = attempts.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(listener!.connections).toBeLessThanOrEqual(64);
    expect(listener!.stats.refused).toBeGreaterThan(0);
    expect(listener!.heldBytes).toBe(20 * 300_000);
    for (const c of [...opened, ...stuck]) c.destroy();
    await expect.poll(() => listener!.connections, { timeout: 10_000 }).toBe(0);
    expect(listener!.heldBytes).toBe(0);
    // and it still takes a client
    const after = await TevClient.connect(port);
    await after.send(createImage('ok', 2, 2, ['Y']));
    await expect.poll(() => images.get('ok')).toBeDefined();
    await after.close();
  });

  it("refuses a create past the live images' byte budget, keeping the images it has", async () => {
    const images = new LiveImages({ maxBytes: 1000 });
    expect(images.create({ name: 'a', widthPx: 10, heightPx: 10, channelNames: ['Y'] }, null).ok).toBe(true);
    const refused = images.create({ name: 'b', widthPx: 10, heightPx: 10, channelNames: ['R', 'G'] }, null);
    expect(refused.ok).toBe(false);
    expect(images.list().map((i) => i.name)).toEqual(['a']);
    expect(images.sizeBytes).toBe(400);
  });
});
