// Browser-mode transport mechanics that need a host to be slow or to speak on demand: cancellation, event filtering, limits.
// The real host cannot be made to hold a request or emit a given event at will, so these use the small test host.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { FileEntry, HostEvent } from '../contract/host-api.js';
import { decodeContainer, encodeContainer } from './container.js';
import { startServer, type RunningServer } from './server.js';
import { rawRequest } from '../testing/server/test-client.js';
import { createTestHost, type TestHost } from '../testing/server/test-host.js';

const SECRET = `TOP-SECRET-${Math.random().toString(36).slice(2)}`;
let dir: string;
let server: RunningServer;
let host: TestHost;
let cookie: string;
let rootId: string;

const call = (method: string, args: unknown[], timeoutMs?: number) =>
  rawRequest({
    port: server.port,
    method: 'POST',
    target: `/api/${method}`,
    headers: { Cookie: cookie },
    body: JSON.stringify({ args }),
    timeoutMs,
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exrview-mech-'));
  const served = join(dir, 'served');
  mkdirSync(served);
  mkdirSync(join(dir, 'static'));
  writeFileSync(join(dir, 'static', 'index.html'), '<!doctype html>');
  writeFileSync(join(dir, 'secret.exr'), SECRET);
  writeFileSync(join(served, 'a.exr'), 'EXR-A-bytes');
  symlinkSync(join(dir, 'secret.exr'), join(served, 'escape.exr'));
  host = createTestHost({ decodeDelayMs: 3000 });
  server = await startServer({ host, rootDir: served, staticDir: join(dir, 'static'), maxEventClients: 3 });
  cookie = `exrview_token=${server.token}`;
  rootId = (JSON.parse((await call('openFolder', [])).body.toString()) as { result: { id: string } }).result.id;
  await call('listFiles', [rootId]);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('container', () => {
  it('round-trips nested buffers and typed arrays byte for byte, each 8-aligned', () => {
    const value = {
      a: new Uint8Array([1, 2, 3]).buffer,
      list: [{ b: new Float32Array([1.5, -2]) }, { c: new ArrayBuffer(0) }],
      n: 'x'.repeat(1000),
    };
    const body = encodeContainer(value);
    const back = decodeContainer(body) as { a: ArrayBuffer; list: [{ b: ArrayBuffer }, { c: ArrayBuffer }]; n: string };
    expect([...new Uint8Array(back.a)]).toEqual([1, 2, 3]);
    expect([...new Float32Array(back.list[0].b)]).toEqual([1.5, -2]);
    expect(back.list[1].c.byteLength).toBe(0);
    expect(back.n).toBe(value.n);
    const head = JSON.parse(body.subarray(4, 4 + body.readUInt32LE(0)).toString()) as { buffers: [number, number][] };
    expect(head.buffers.map(([offset]) => offset % 8)).toEqual([0, 0, 0]);
  });
});

describe('a careless host behind the transport', () => {
  it('never gets asked for a file behind a link that leads outside', async () => {
    const listed = JSON.parse((await call('listFiles', [rootId])).body.toString()) as { result: FileEntry[] };
    expect(listed.result.map((f) => f.name)).toEqual(['a.exr']);
    const before = host.calls.length;
    const r = await call('getThumbnail', [{ requestId: 't', fileId: 'file:escape.exr', longSidePx: 8, priority: 'thumbnail-visible' }]);
    expect(r.status).toBe(403);
    expect(r.raw.toString('latin1')).not.toContain(SECRET);
    expect(host.calls.slice(before)).toEqual([]);
  });

  it('returns the file bytes it gives for a listed file', async () => {
    const r = await call('getThumbnail', [{ requestId: 't', fileId: 'file:a.exr', longSidePx: 8, priority: 'thumbnail-visible' }]);
    expect(Buffer.from((decodeContainer(r.body) as { rgbaHalf: ArrayBuffer }).rgbaHalf).toString()).toBe('EXR-A-bytes');
  });
});

describe('cancellation', () => {
  it('cancels the host work when the client goes away', async () => {
    await call('decodeImage', [{ requestId: 'gone-1', fileId: 'file:a.exr', part: 0, priority: 'preview' }], 200).catch(() => null);
    await expect.poll(() => host.cancelled, { timeout: 2000 }).toContain('gone-1');
  });

  it('answers cancel with 204 at once and the cancelled call with 499 and a message starting "cancelled"', async () => {
    const decodes = host.calls.filter((c) => c === 'decodeImage').length;
    const pending = call('decodeImage', [{ requestId: 'c-2', fileId: 'file:a.exr', part: 0, priority: 'preview' }]);
    await expect.poll(() => host.calls.filter((c) => c === 'decodeImage').length, { timeout: 2000 }).toBe(decodes + 1);
    const cancel = await call('cancel', ['c-2']);
    expect(cancel.status).toBe(204);
    const r = await pending;
    expect(r.status).toBe(499);
    expect((JSON.parse(r.body.toString()) as { error: string }).error).toMatch(/^cancelled/);
  });

  it('does not cancel a call that completed', async () => {
    const r = await call('getHeader', ['file:a.exr']);
    expect(r.status).toBe(200);
    expect(host.cancelled).not.toContain('file:a.exr');
  });
});

describe('events', () => {
  const open = () =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/events`, { headers: { Cookie: cookie } });
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
      ws.once('error', reject);
    });

  it('passes events of the served folders and drops those of others and files behind outward links', async () => {
    const ws = await open();
    const received: HostEvent[] = [];
    ws.on('message', (data) => received.push(JSON.parse(String(data)) as HostEvent));
    const entry = (name: string): FileEntry => ({
      id: `file:${name}`,
      folderId: rootId,
      relativePath: name,
      name,
      sizeBytes: 1,
      mtimeMs: 0,
      status: 'ok',
    });
    host.emit({ type: 'folder-error', folderId: 'folder-999', message: 'not ours' });
    host.emit({ type: 'files-added', folderId: rootId, files: [entry('escape.exr'), entry('a.exr')] });
    host.emit({ type: 'files-added', folderId: rootId, files: [entry('escape.exr')] });
    host.emit({ type: 'thumbnail-progress', done: 1, total: 2 });
    await expect.poll(() => received.length, { timeout: 2000 }).toBe(2);
    await new Promise((r) => setTimeout(r, 100));
    expect(received).toEqual([
      { type: 'files-added', folderId: rootId, files: [entry('a.exr')] },
      { type: 'thumbnail-progress', done: 1, total: 2 },
    ]);
    ws.close();
  });

  it('closes a client that sends anything', async () => {
    const ws = await open();
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    ws.send('hello');
    expect(await closed).toBe(1003);
  });

  it('refuses event connections over the limit with 503', async () => {
    await new Promise((r) => setTimeout(r, 100));
    const sockets = await Promise.all(Array.from({ length: 3 }, open));
    await expect(open()).rejects.toThrow(/503/);
    sockets.forEach((ws) => ws.close());
  });
});

describe('connections the parser gives up on', () => {
  /** Opens a connection, sends nothing for `idleMs`, then sends `request`: the first line of what comes back. */
  const idleThen = (port: number, idleMs: number, request: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let got = '';
      socket.on('data', (c: Buffer) => {
        got += c.toString('latin1');
      });
      socket.on('error', (error) => (got ? resolve(got.split('\r\n')[0]!) : reject(error)));
      socket.on('close', () => resolve(got.split('\r\n')[0]!));
      setTimeout(() => {
        if (!socket.destroyed) socket.write(request);
      }, idleMs);
    });

  it('a connection left idle past the headers timeout (a browser preconnects) is answered 408, which browsers send again, not 400', async () => {
    const short = await startServer({
      host: createTestHost({}),
      rootDir: join(dir, 'served'),
      staticDir: null,
      timeouts: { headersMs: 200, requestMs: 400, checkEveryMs: 50 },
    });
    try {
      const answer = await idleThen(
        short.port,
        600,
        `POST /api/getInfo HTTP/1.1\r\nHost: 127.0.0.1:${short.port}\r\nCookie: exrview_token=${short.token}\r\nContent-Length: 11\r\n\r\n{"args":[]}`,
      );
      expect(answer).toBe('HTTP/1.1 408 Request Timeout');
      // a malformed request is still 400; a prompt one is answered
      expect(await idleThen(short.port, 0, 'NOT HTTP AT ALL\r\n\r\n')).toBe('HTTP/1.1 400 Bad Request');
      expect(
        (
          await rawRequest({
            port: short.port,
            method: 'POST',
            target: '/api/getInfo',
            headers: { Cookie: `exrview_token=${short.token}` },
            body: '{"args":[]}',
          })
        ).status,
      ).toBe(200);
    } finally {
      await short.close();
    }
  });
});
