// Browser-mode server security: token, Host and Origin checks, every path traversal form, body limits, concurrency, loopback only.

import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { writeExrFile, type WritePart } from '../codec/writer.js';
import type { FileEntry, HostEvent } from '../contract/host-api.js';
import { createHost, type Host } from '../host/host.js';
import { decodeContainer } from './container.js';
import { startServer, type RunningServer } from './server.js';
import { rawRequest, type RawResponse } from '../testing/server/test-client.js';

/** A 4x4 float image of one value, so pixels tell files apart. */
function exrPart(value: number, attributes: WritePart['attributes'] = {}): WritePart {
  return {
    dataWindow: { xMin: 0, yMin: 0, xMax: 3, yMax: 3 },
    channels: ['R', 'G', 'B'].map((name) => ({ name, pixelType: 'float' as const, data: new Float32Array(16).fill(value) })),
    attributes,
  };
}

const SECRET = `TOP-SECRET-${Math.random().toString(36).slice(2)}`;
let dir: string;
let served: string;
let outside: string;
let server: RunningServer;
let host: Host;
let cookie: string;

function snapshot(folder: string): string {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map(
      (d) =>
        `${d.parentPath}/${d.name}:${d.isFile() ? readFileSync(join(d.parentPath, d.name), 'latin1') : d.isSymbolicLink() ? 'link' : 'dir'}`,
    )
    .sort()
    .join('\n');
}
let servedBefore: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'exrview-server-'));
  served = join(dir, 'served');
  outside = join(dir, 'outside');
  const staticDir = join(dir, 'static');
  for (const d of [served, join(served, 'sub'), outside, staticDir, join(staticDir, 'assets')]) mkdirSync(d);
  // the secret is in a header attribute: a leaked header, listing or export would carry it in plain text
  writeExrFile(join(outside, 'secret.exr'), [exrPart(7, { comments: { type: 'string', value: SECRET } })]);
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeExrFile(join(served, 'a.exr'), [exrPart(1)]);
  writeExrFile(join(served, 'sub', 'b.exr'), [exrPart(2)]);
  symlinkSync(outside, join(served, 'escape'));
  symlinkSync(join(outside, 'secret.exr'), join(served, 'escape.exr'));
  writeFileSync(join(staticDir, 'index.html'), '<!doctype html><title>exrview</title><script type="module" src="/assets/app.js"></script>');
  writeFileSync(join(staticDir, 'assets', 'app.js'), 'console.log("app")');
  writeFileSync(join(staticDir, 'assets', 'app.css'), 'body{}');
  symlinkSync(join(outside, 'secret.txt'), join(staticDir, 'leak.txt'));
  // OCIO configs: one in the served folder whose search path leads out to the secret, one outside, one linked out
  const config = (src: string) =>
    `ocio_profile_version: 2\nsearch_path: ../outside\nroles: {default: lin}\ncolorspaces:\n  - !<ColorSpace> {name: lin}\n` +
    `  - !<ColorSpace> {name: s, to_scene_reference: !<FileTransform> {src: ${src}}}\n`;
  writeFileSync(join(served, 'show.ocio'), config('secret.txt'));
  writeFileSync(join(outside, 'outside.ocio'), config('secret.txt'));
  symlinkSync(join(outside, 'outside.ocio'), join(served, 'linked.ocio'));
  servedBefore = snapshot(served);
  host = createHost({ userDataDir: join(dir, 'user-data'), mode: 'browser', workers: 1, prefetch: false });
  server = await startServer({ host, rootDir: served, staticDir, port: 0, maxBodyBytes: 64 * 1024, maxEventClients: 4 });
  cookie = `exrview_token=${server.token}`;
});

afterAll(async () => {
  await server?.close();
  await host?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (target: string, headers: Record<string, string> = { Cookie: cookie }, host?: string | null) =>
  rawRequest({ port: server.port, target, headers, host });
const call = (method: string, body: unknown, headers: Record<string, string> = {}) =>
  rawRequest({
    port: server.port,
    method: 'POST',
    target: `/api/${method}`,
    headers: { Cookie: cookie, 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const json = (r: RawResponse) => JSON.parse(r.body.toString('utf8')) as { result?: unknown; error?: string };

function expectNoSecret(r: RawResponse): void {
  expect(r.raw.toString('latin1')).not.toContain(SECRET);
}

describe('binding', () => {
  it('listens on 127.0.0.1 only, on the port it chose, and prints a URL with the token', () => {
    expect(server.address.address).toBe('127.0.0.1');
    expect(server.address.family).toBe('IPv4');
    expect(server.port).toBeGreaterThan(0);
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/?token=${server.token}`);
    expect(server.token.length).toBeGreaterThanOrEqual(32);
  });
});

describe('token', () => {
  it.each(['/', '/assets/app.js', '/api/getInfo'])('refuses %s without a token (401)', async (target) => {
    const r = await rawRequest({
      port: server.port,
      method: target.startsWith('/api') ? 'POST' : 'GET',
      target,
      body: target.startsWith('/api') ? '{}' : undefined,
    });
    expect(r.status).toBe(401);
    expect(json(r).error).toMatch(/token/);
  });

  it('refuses a wrong token in the query, the cookie and the header', async () => {
    const wrong = server.token.slice(0, -1) + (server.token.endsWith('A') ? 'B' : 'A');
    expect((await get(`/?token=${wrong}`, {})).status).toBe(401);
    expect((await get('/', { Cookie: `exrview_token=${wrong}` })).status).toBe(401);
    expect((await call('getInfo', {}, { Cookie: '', 'X-Exrview-Token': wrong })).status).toBe(401);
    expect((await get('/', { Cookie: `exrview_token=${server.token}x` })).status).toBe(401);
  });

  it('trades the token in the URL for an HttpOnly SameSite=Strict cookie and a redirect to /', async () => {
    const r = await get(`/?token=${server.token}`, {});
    expect(r.status).toBe(302);
    expect(r.headers.location).toBe('/');
    expect(r.headers['set-cookie']).toBe(`exrview_token=${server.token}; HttpOnly; SameSite=Strict; Path=/`);
  });

  it('serves the page with the cookie, with a strict CSP and the right content type', async () => {
    const r = await get('/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    const csp = r.headers['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect((await get('/assets/app.js')).headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get('/assets/app.css')).headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it('accepts the token header on API calls', async () => {
    const r = await call('getInfo', { args: [] }, { Cookie: '', 'X-Exrview-Token': server.token });
    expect(r.status).toBe(200);
    expect((json(r).result as { mode: string }).mode).toBe('browser');
  });
});

describe('Host and Origin', () => {
  it.each([['evil.example'], ['evil.example:PORT'], ['127.0.0.1:1'], ['127.0.0.2:PORT'], ['[::1]:PORT'], ['0.0.0.0:PORT']])(
    'refuses Host %s with 403 even with the token',
    async (hostHeader) => {
      const r = await get(`/?token=${server.token}`, { Cookie: cookie }, hostHeader.replace('PORT', String(server.port)));
      expect(r.status).toBe(403);
      expect(r.headers['set-cookie']).toBeUndefined();
    },
  );

  it('refuses a request with no Host header', async () => {
    const r = await rawRequest({ port: server.port, target: '/', headers: { Cookie: cookie }, host: null });
    expect([400, 403]).toContain(r.status);
  });

  it('accepts localhost:PORT', async () => {
    expect((await get('/', { Cookie: cookie }, `localhost:${server.port}`)).status).toBe(200);
  });

  it('refuses API calls from another origin', async () => {
    const r = await call('getInfo', { args: [] }, { Origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect((await call('getInfo', { args: [] }, { Origin: `http://127.0.0.1:${server.port}` })).status).toBe(200);
  });

  it('refuses absolute-form request targets', async () => {
    const r = await get(`http://evil.example/?token=${server.token}`);
    expect(r.status).toBe(400);
  });
});

describe('static files: traversal', () => {
  const forms = [
    '/../outside/secret.txt',
    '/../../outside/secret.txt',
    '/assets/../../outside/secret.txt',
    '/%2e%2e/outside/secret.txt',
    '/%2E%2E/%2e%2e/outside/secret.txt',
    '/..%2foutside%2fsecret.txt',
    '/..%2Foutside%2Fsecret.txt',
    '/%252e%252e/outside/secret.txt',
    '/%25252e%25252e/outside/secret.txt',
    '/..%5coutside%5csecret.txt',
    '/..\\outside\\secret.txt',
    '/assets%2f..%2f..%2foutside%2fsecret.txt',
    '/.%2e/outside/secret.txt',
    '/leak.txt',
    '/index.html%00.txt',
    '/%00',
    '/%c0%ae%c0%ae/outside/secret.txt',
    '/%ff',
    '//outside/secret.txt',
    'OUTSIDE_ABS',
  ];
  it.each(forms)('refuses %s with 403/404 and never a byte from outside', async (form) => {
    const target = form === 'OUTSIDE_ABS' ? join(outside, 'secret.txt') : form;
    const r = await get(target);
    expect([400, 403, 404]).toContain(r.status);
    expectNoSecret(r);
  });

  it('answers 404 for a missing file and refuses writes', async () => {
    expect((await get('/nope.js')).status).toBe(404);
    const put = await rawRequest({ port: server.port, method: 'PUT', target: '/index.html', headers: { Cookie: cookie }, body: 'x' });
    expect(put.status).toBe(405);
  });
});

describe('API: folders and files stay inside the served folder', () => {
  let rootId: string;
  let listed: FileEntry[];

  beforeAll(async () => {
    const r = await call('openFolder', { args: [null, { recursive: true }] });
    expect(r.status).toBe(200);
    const folder = json(r).result as { id: string; displayPath: string };
    expect(folder.displayPath).toBe('served');
    rootId = folder.id;
    const list = await call('listFiles', { args: [rootId] });
    expect(list.status).toBe(200);
    listed = json(list).result as FileEntry[];
  });

  it.each([
    ['../outside'],
    ['OUTSIDE_ABS'],
    ['escape'],
    ['sub/../../outside'],
    ['%2e%2e/outside'],
    ['..%2foutside'],
    ['..\\outside'],
    ['sub\u0000'],
    ['/'],
    ['/etc'],
  ])('openFolder(%j) is refused with 403', async (path) => {
    const r = await call('openFolder', { args: [path === 'OUTSIDE_ABS' ? outside : path] });
    expect(r.status).toBe(403);
    expect(json(r).error).toMatch(/outside|does not exist|not allowed/);
    expectNoSecret(r);
  });

  it('opens a subfolder, shown by its name only', async () => {
    const r = await call('openFolder', { args: ['sub'] });
    expect(r.status).toBe(200);
    expect((json(r).result as { displayPath: string }).displayPath).toBe('served/sub');
    expect(r.body.toString()).not.toContain(dir);
    const info = await call('getInfo', { args: [] });
    expect(info.body.toString()).not.toContain(dir);
  });

  it('opens a folder typed as the page shows it ("served/sub"), and a refusal says what to do', async () => {
    const r = await call('openFolder', { args: ['served/sub'] });
    expect(r.status).toBe(200);
    expect((json(r).result as { displayPath: string }).displayPath).toBe('served/sub');
    const refused = await call('openFolder', { args: [outside] });
    expect(refused.status).toBe(403);
    expect(json(refused).error).toMatch(/opens only "served" and the folders in it.*exrview serve/);
    expectNoSecret(refused);
  });

  it('lists only files that really lie in the folder (not a symlink out of it)', () => {
    expect(listed.map((f) => f.relativePath).sort()).toEqual(['a.exr', 'sub/b.exr']);
  });

  it('refuses the ids of files behind symlinks that lead outside, though the host itself lists them', async () => {
    const behindLinks = (await host.listFiles(rootId)).filter((f) => f.relativePath.startsWith('escape'));
    // the host lists linked files (judging them is the transport's job), so this test has something to refuse
    expect(behindLinks.map((f) => f.relativePath)).toContain('escape.exr');
    for (const { id: fileId } of behindLinks) {
      for (const [method, args] of [
        ['getThumbnail', [{ requestId: 't1', fileId, longSidePx: 64, priority: 'thumbnail-visible' }]],
        ['decodeImage', [{ requestId: 'd1', fileId, part: 0, priority: 'preview' }]],
        ['getHeader', [fileId]],
        ['deepSamples', [{ fileId, part: 0, pixel: { xPx: 0, yPx: 0 } }]],
        ['levelStatistics', [{ fileId, part: 0, channels: ['R'] }]],
        ['exportImages', [{ fileIds: [fileId], kind: 'image', format: 'png', overwrite: false, view: VIEW }]],
      ] as const) {
        const r = await call(method, { args });
        expect(r.status, `${method} ${fileId}`).toBe(403);
        expectNoSecret(r);
      }
    }
  });

  it('serves headers and decoded pixels of a file inside the folder, pixels as an 8-aligned binary container', async () => {
    const a = listed.find((f) => f.relativePath === 'a.exr')!;
    const header = await call('getHeader', { args: [a.id] });
    expect(header.status).toBe(200);
    const r = await call('decodeImage', { args: [{ requestId: 'd2', fileId: a.id, part: 0, channels: ['R'], priority: 'preview' }] });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/x-exrview-container');
    const jsonLength = r.body.readUInt32LE(0);
    const head = JSON.parse(r.body.subarray(4, 4 + jsonLength).toString()) as { buffers: [number, number][] };
    expect(head.buffers.every(([offset]) => offset % 8 === 0)).toBe(true);
    const image = decodeContainer(r.body) as { planes: { name: string; data: ArrayBuffer }[] };
    expect(image.planes.map((p) => p.name)).toEqual(['R']);
    expect([...new Float32Array(image.planes[0]!.data)]).toEqual(Array(16).fill(1));
  });

  it('exports as downloads only: an export folder is refused', async () => {
    const a = listed.find((f) => f.relativePath === 'a.exr')!;
    for (const outDir of [served, outside, join(served, 'sub')]) {
      const refused = await call('exportImages', {
        args: [{ fileIds: [a.id], kind: 'thumbnail', format: 'png', outDir, overwrite: true, view: VIEW }],
      });
      expect(refused.status).toBe(403);
      expect(json(refused).error).toMatch(/downloaded/);
    }
  });

  it('reads an OCIO config in the served folder (never a non-LUT file it points at), and no config outside it', async () => {
    const read = await call('readColourConfig', { args: [join(served, 'show.ocio')] });
    expect(read.status).toBe(200);
    const result = json(read).result as { configPath: string; missing: { reason: string }[] };
    expect(result.configPath).toBe('show.ocio');
    expect(result.missing[0]!.reason).toMatch(/not a LUT format exrview reads/);
    expectNoSecret(read);
    for (const args of [[join(outside, 'outside.ocio')], [join(served, 'linked.ocio')], [join(outside, 'secret.txt')], []]) {
      const refused = await call('readColourConfig', { args });
      expect(refused.status, JSON.stringify(args)).toBe(403);
      expectNoSecret(refused);
    }
  });

  it('refuses a folder id it never opened and a file id it never listed', async () => {
    expect((await call('listFiles', { args: ['d999'] })).status).toBe(403);
    expect((await call('closeFolder', { args: ['d999'] })).status).toBe(403);
    expect((await call('getHeader', { args: ['f999'] })).status).toBe(403);
  });

  it('leaves the served folder exactly as it was', () => {
    expect(snapshot(served)).toBe(servedBefore);
  });
});

const VIEW = { exposureEv: 0, offset: 0, gamma: 2.2, displayTransform: 'srgb', layer: '', channelMode: 'rgb' } as const;

describe('malformed and oversized requests', () => {
  it('answers 413 to a body over the limit, announced or not', async () => {
    const big = JSON.stringify({ args: ['x'.repeat(100 * 1024)] });
    const r = await call('getHeader', big);
    expect(r.status).toBe(413);
    expect(json(r).error).toMatch(/limit/);
  });

  it.each([
    ['{"args":[', /not valid JSON/],
    ['[1,2]', /JSON object/],
    ['{"args":"x"}', /must be an array/],
    ['{"args":[1]}', /must be a string/],
    ['{"args":["a","b"]}', /takes 1 argument/],
  ])('answers 400 with a message to %s', async (body, message) => {
    const r = await call('getHeader', body);
    expect(r.status).toBe(400);
    expect(json(r).error).toMatch(message);
  });

  it('checks request objects field by field', async () => {
    const r = await call('getThumbnail', {
      args: [{ requestId: 'x', fileId: 'file:a.exr', longSidePx: 1e9, priority: 'thumbnail-visible' }],
    });
    expect(r.status).toBe(400);
    expect(json(r).error).toMatch(/longSidePx/);
    const extra = await call('decodeImage', { args: [{ requestId: 'x', fileId: 'f', part: 0, priority: 'preview', path: '/etc/passwd' }] });
    expect(extra.status).toBe(400);
    expect(json(extra).error).toMatch(/unknown field "path"/);
    const notBool = await call('getThumbnail', {
      args: [{ requestId: 'x', fileId: 'file:a.exr', longSidePx: 64, priority: 'thumbnail-visible', embeddedPreview: 'yes' }],
    });
    expect(notBool.status).toBe(400);
    expect(json(notBool).error).toMatch(/embeddedPreview/);
  });

  it('answers 404 to an unknown method, 405 to GET on a method, 426 to a plain GET of the event stream', async () => {
    expect((await call('constructor', '{}')).status).toBe(404);
    expect((await call('__proto__', '{}')).status).toBe(404);
    expect((await call('onEvent', '{}')).status).toBe(404);
    expect((await get('/api/getInfo')).status).toBe(405);
    expect((await get('/api/events')).status).toBe(426);
  });

  it('answers 431 to oversized headers', async () => {
    const r = await get('/', { Cookie: cookie, 'X-Big': 'y'.repeat(20 * 1024) });
    expect([400, 431]).toContain(r.status);
  });
});

describe('many clients', () => {
  it('answers 50 parallel requests, all correctly', async () => {
    const opened = json(await call('openFolder', { args: [] })).result as { id: string };
    const files = json(await call('listFiles', { args: [opened.id] })).result as FileEntry[];
    const a = files.find((f) => f.relativePath === 'a.exr')!;
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        i % 2
          ? call('getInfo', { args: [] })
          : call('getThumbnail', { args: [{ requestId: `p${i}`, fileId: a.id, longSidePx: 32, priority: 'thumbnail-hidden' }] }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
    for (const [i, r] of results.entries()) {
      if (i % 2 === 0) expect((decodeContainer(r.body) as { rgbaHalf: ArrayBuffer }).rgbaHalf.byteLength).toBeGreaterThan(0);
      else expect((json(r).result as { mode: string }).mode).toBe('browser');
    }
    expect(performance.now() - started).toBeLessThan(20_000);
  });
});

describe('event stream', () => {
  const open = (headers: Record<string, string>) =>
    new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/events`, { headers });
      ws.once('open', () => resolve(ws));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
      ws.once('error', reject);
    });

  it('refuses an upgrade without the token, from another origin, under a foreign Host or on another path', async () => {
    await expect(open({})).rejects.toThrow(/401/);
    await expect(open({ Cookie: `exrview_token=${server.token}0` })).rejects.toThrow(/401/);
    await expect(open({ Cookie: cookie, Origin: 'https://evil.example' })).rejects.toThrow(/403/);
    await expect(open({ Cookie: cookie, Host: 'evil.example' })).rejects.toThrow(/403/);
    const other = new WebSocket(`ws://127.0.0.1:${server.port}/api/other`, { headers: { Cookie: cookie } });
    await expect(
      new Promise(
        (resolve, reject) => (
          other.once('open', resolve),
          other.once('unexpected-response', (_q, r) => reject(new Error(`status ${r.statusCode}`)))
        ),
      ),
    ).rejects.toThrow(/404/);
  });

  it('tells a page with the cookie about a new file, and nothing about one whose link leads outside', async () => {
    const ws = await open({ Cookie: cookie, Origin: `http://127.0.0.1:${server.port}` });
    const received: HostEvent[] = [];
    ws.on('message', (data) => received.push(JSON.parse(String(data)) as HostEvent));
    symlinkSync(join(outside, 'secret.exr'), join(served, 'sub', 'later-escape.exr'));
    writeExrFile(join(served, 'sub', 'later.exr'), [exrPart(3)]);
    const added = () => received.flatMap((e) => (e.type === 'files-added' || e.type === 'files-changed' ? e.files.map((f) => f.name) : []));
    await expect.poll(added, { timeout: 10_000 }).toContain('later.exr');
    // give the link the same time to show up, then check it never did
    await new Promise((r) => setTimeout(r, 300));
    expect(added()).not.toContain('later-escape.exr');
    expect(JSON.stringify(received)).not.toContain(SECRET);
    ws.close();
  });
});
