// `exrview serve`: prints one line with the address, answers on it, stops cleanly; bad usage and missing folders are refused.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeExrFile } from '../codec/writer.js';
import { decodeTier, describeDecodeTier } from '../codec/index.js';
import { runServe } from './serve.js';
import { UsageError } from './usage.js';
import { FileError } from './failures.js';
import { TevClient, createImage, updateImageV1 } from '../testing/tev/tev-client.js';

const dir = mkdtempSync(join(tmpdir(), 'exrview-serve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('exrview serve', () => {
  it('prints "exrview: serving DIR at URL", answers API calls with the token, and stops on the signal', async () => {
    writeExrFile(join(dir, 'one.exr'), [
      { dataWindow: { xMin: 0, yMin: 0, xMax: 1, yMax: 1 }, channels: [{ name: 'Y', pixelType: 'float', data: new Float32Array(4) }] },
    ]);
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
    const lines: string[] = [];
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    const done = runServe([dir, '--port', '0'], { stopSignal, print: (l) => lines.push(l) });
    await expect.poll(() => lines.find((l) => l.startsWith('exrview: serving')), { timeout: 10_000 }).toBeDefined();
    const line = lines.find((l) => l.startsWith('exrview: serving'))!;
    const match = /^exrview: serving (.+) at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]{32,}))$/.exec(line);
    expect(match, line).not.toBeNull();
    expect(match![1]).toBe(dir);
    const port = Number(match![3]);
    const token = match![4]!;
    const unauthorised = await fetch(`http://127.0.0.1:${port}/api/getInfo`, { method: 'POST', body: '{}' });
    expect(unauthorised.status).toBe(401);
    const info = await fetch(`http://127.0.0.1:${port}/api/getInfo`, {
      method: 'POST',
      headers: { 'X-Exrview-Token': token },
      body: '{"args":[]}',
    });
    const body = (await info.json()) as {
      result: { mode: string; folders: { id: string; displayPath: string }[]; decodeTier: { tier: string; whyNotAbove: string | null } };
    };
    expect(body.result.mode).toBe('browser');
    // the decode tier, printed after the address and given to the page (the diagnostics panel) with its reason
    const tier = decodeTier();
    expect(lines).toContain(`exrview: ${describeDecodeTier(tier)}`);
    expect(body.result.decodeTier).toEqual(tier);
    expect(body.result.folders.map((f) => f.displayPath)).toEqual([dir.split('/').pop()]);
    const list = await fetch(`http://127.0.0.1:${port}/api/listFiles`, {
      method: 'POST',
      headers: { 'X-Exrview-Token': token },
      body: JSON.stringify({ args: [body.result.folders[0]!.id] }),
    });
    expect(((await list.json()) as { result: { name: string }[] }).result.map((f) => f.name)).toEqual(['one.exr']);
    stop();
    expect(await done).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toThrow();
  });

  it("with --tev PORT, takes images over tev's protocol and lists them with the folder's files", async () => {
    process.env.XDG_CACHE_HOME = join(dir, 'cache');
    const lines: string[] = [];
    let stop!: () => void;
    const stopSignal = new Promise<void>((r) => (stop = r));
    const done = runServe([dir, '--tev', '0', '--port', '0'], { stopSignal, print: (l) => lines.push(l) });
    await expect.poll(() => lines.find((l) => l.includes("tev's protocol")), { timeout: 10_000 }).toBeDefined();
    const tevPort = Number(/on 127\.0\.0\.1:(\d+)$/.exec(lines.find((l) => l.includes("tev's protocol"))!)![1]);
    const [, url, port, token] = /(http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))/.exec(
      lines.find((l) => l.startsWith('exrview: serving'))!,
    )!;
    expect(url).toBeDefined();
    const call = async (method: string, args: unknown[]) =>
      (
        (await (
          await fetch(`http://127.0.0.1:${port}/api/${method}`, {
            method: 'POST',
            headers: { 'X-Exrview-Token': token! },
            body: JSON.stringify({ args }),
          })
        ).json()) as { result: unknown }
      ).result;
    const client = await TevClient.connect(tevPort);
    await client.send(createImage('beauty', 2, 1, ['Y']), updateImageV1('beauty', 'Y', { x: 0, y: 0, widthPx: 2, heightPx: 1 }, [0.25, 4]));
    const folders = ((await call('getInfo', [])) as { folders: { id: string }[] }).folders;
    await expect
      .poll(async () =>
        ((await call('listFiles', [folders[0]!.id])) as { name: string; live?: string }[]).filter((f) => f.live).map((f) => f.name),
      )
      .toEqual(['beauty']);
    await client.close();
    stop();
    expect(await done).toBe(0);
  });

  it('refuses a bad port, two folders, and a folder that does not exist', async () => {
    await expect(runServe([dir, '--port', 'http'])).rejects.toThrow(UsageError);
    await expect(runServe([dir, '--port', '70000'])).rejects.toThrow(UsageError);
    await expect(runServe([dir, dir])).rejects.toThrow(UsageError);
    await expect(runServe([dir, '--tev=http'])).rejects.toThrow(/--tev takes a port/);
    await expect(runServe([join(dir, 'missing')])).rejects.toThrow(FileError);
    writeFileSync(join(dir, 'file.txt'), 'x');
    await expect(runServe([join(dir, 'file.txt')])).rejects.toThrow(/not a folder/);
  });
});
