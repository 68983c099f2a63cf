// The desktop app's switch for tev's protocol: the setting turns a real listener on and off over one set of live
// images; a port in use leaves it off with the reason, and switching again tries again.
import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { TevClient, createImage } from '../../testing/tev/tev-client.js';
import { TevSwitch } from './tev-switch.js';

const switches: TevSwitch[] = [];
const blockers: Server[] = [];
afterEach(async () => {
  for (const s of switches.splice(0)) await s.close();
  for (const b of blockers.splice(0)) await new Promise((r) => b.close(r));
});

const newSwitch = (): TevSwitch => {
  const s = new TevSwitch({ log: () => {}, settingsFile: '/home/me/.config/exrview/settings.json' });
  switches.push(s);
  return s;
};

/** A free loopback port, found by listening on 0 and letting it go. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen({ host: '127.0.0.1', port: 0 }, r));
  const port = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
  return port;
}

describe('TevSwitch', () => {
  it('listens while the setting is on, taking images into the images the host lists; off closes them', async () => {
    const tev = newSwitch();
    expect(tev.state).toEqual({ listening: false, port: null, error: null });
    const port = await freePort();
    expect(await tev.set({ enabled: true, port })).toEqual({ listening: true, port, error: null });
    const client = await TevClient.connect(port);
    await client.send(createImage('from-renderer', 4, 4, ['R', 'G', 'B']));
    await expect.poll(() => tev.images.get('from-renderer')?.widthPx).toBe(4);
    // the same setting again changes nothing (the connection stays)
    await tev.set({ enabled: true, port });
    expect(client.closed).toBe(false);

    expect(await tev.set({ enabled: false, port })).toEqual({ listening: false, port: null, error: null });
    expect(await client.closedByPeer(2000)).toBe(true);
    expect(tev.images.list()).toEqual([]);
    await expect(TevClient.connect(port)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('moves to a new port when the setting does', async () => {
    const tev = newSwitch();
    const [a, b] = [await freePort(), await freePort()];
    await tev.set({ enabled: true, port: a });
    expect((await tev.set({ enabled: true, port: b })).port).toBe(b);
    await expect(TevClient.connect(a)).rejects.toThrow(/ECONNREFUSED/);
    await (await TevClient.connect(b)).close();
  });

  it('stays off with the reason when the port is taken, and tries again when switched again', async () => {
    const port = await freePort();
    const blocker = createServer();
    blockers.push(blocker);
    await new Promise<void>((r) => blocker.listen({ host: '127.0.0.1', port }, r));
    const tev = newSwitch();
    const state = await tev.set({ enabled: true, port });
    expect(state.listening).toBe(false);
    expect(state.error).toBe(
      `port ${port} for tev's protocol is in use (is tev running?): quit it, or set another port as "tevListener.port" in ` +
        '/home/me/.config/exrview/settings.json',
    );
    await new Promise((r) => blocker.close(r));
    blockers.length = 0;
    expect(await tev.set({ enabled: true, port })).toEqual({ listening: true, port, error: null });
  });
});
