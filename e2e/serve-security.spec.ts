// Browser mode in a real Chromium: the token moves from the URL to an HttpOnly cookie, the CSP blocks inline script and
// eval, another site (even on 127.0.0.1, which is same-site) cannot act through the API, and a rebound DNS name gets 403.
import { test, expect, chromium } from '@playwright/test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../playwright.config.js';

// Loaded by URL: e2e/'s lint rule keeps the `electron` package out with a pattern that also matches this repository's
// electron/ folder; this spec needs the server and host modules themselves, not the package.
type ServerModule = typeof import('../server/server.js');
type HostModule = typeof import('../host/host.js');
const load = async <T>(path: string): Promise<T> => (await import(new URL(path, import.meta.url).href)) as T;

let server: Awaited<ReturnType<ServerModule['startServer']>>;
let host: ReturnType<HostModule['createHost']>;
let evil: Server;
let evilUrl = '';

test.beforeAll(async () => {
  const { startServer } = await load<ServerModule>('../server/server.ts');
  const { createHost } = await load<HostModule>('../host/host.ts');
  const dir = mkdtempSync(join(tmpdir(), 'exrview-e2e-serve-'));
  const served = join(dir, 'served');
  const page = join(dir, 'page');
  mkdirSync(join(served, 'sub'), { recursive: true });
  mkdirSync(page);
  // a stand-in page (the real bundle's behaviour is the renderer's tests' business): one inline script, one file script
  writeFileSync(join(page, 'index.html'), '<!doctype html><script>window.inlineRan = true</script><script src="/app.js"></script>');
  writeFileSync(join(page, 'app.js'), 'window.appRan = true; try { eval("1"); window.evalRan = true } catch { window.evalRan = false }');
  host = createHost({ userDataDir: join(dir, 'user-data'), mode: 'browser', workers: 1 });
  server = await startServer({ host, rootDir: served, staticDir: page });
  // another site on the same machine, trying to use the API with the user's cookie
  evil = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(`<!doctype html><script>
      fetch('http://127.0.0.1:${server.port}/api/openFolder', { method: 'POST', credentials: 'include', mode: 'no-cors',
        headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ args: ['sub'] }) }).finally(() => { window.done = true });
    </script>`);
  });
  await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
  const address = evil.address();
  evilUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`;
});

test.afterAll(async () => {
  await server?.close();
  await host?.close();
  await new Promise((r) => evil?.close(r));
});

test('the token leaves the address bar for an HttpOnly SameSite=Strict cookie', async ({ page, context }) => {
  await page.goto(server.url);
  expect(page.url()).toBe(`http://127.0.0.1:${server.port}/`);
  const cookie = (await context.cookies()).find((c) => c.name === 'exrview_token');
  expect(cookie).toMatchObject({ value: server.token, httpOnly: true, sameSite: 'Strict' });
  expect(await page.evaluate(() => document.cookie)).not.toContain(server.token);
  const status = await page.evaluate(async () => (await fetch('/api/getInfo', { method: 'POST', body: '{"args":[]}' })).status);
  expect(status).toBe(200);
});

test('the CSP runs our script files but no inline script and no eval; the page has no Node', async ({ page }) => {
  await page.goto(server.url);
  await page.waitForFunction(() => (window as unknown as { appRan?: boolean }).appRan === true);
  const state = await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    return { inlineRan: w.inlineRan ?? false, evalRan: w.evalRan, require: typeof w.require, process: typeof w.process };
  });
  expect(state).toEqual({ inlineRan: false, evalRan: false, require: 'undefined', process: 'undefined' });
});

test('another site cannot open folders through the API, even with the cookie in the browser', async ({ page }) => {
  await page.goto(server.url);
  await page.goto(evilUrl);
  await page.waitForFunction(() => (window as unknown as { done?: boolean }).done === true);
  await page.goto(`http://127.0.0.1:${server.port}/`);
  const folders = await page.evaluate(async () => {
    const r = await fetch('/api/getInfo', { method: 'POST', body: '{"args":[]}' });
    return ((await r.json()) as { result: { folders: { displayPath: string }[] } }).result.folders.map((f) => f.displayPath);
  });
  expect(folders).toEqual(['served']);
});

test('a DNS name rebound to 127.0.0.1 gets 403, token or not', async () => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP rebound.test 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const response = await page.goto(`http://rebound.test:${server.port}/?token=${server.token}`);
    expect(response?.status()).toBe(403);
  } finally {
    await browser.close();
  }
});
