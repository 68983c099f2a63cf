// The real Electron app under Playwright: the window's page has HostApi and no Node, navigation and new windows are
// blocked, the CSP holds, and IPC refuses paths outside opened folders (the static settings are checked by electronegativity).
// Skipped where the Electron binary is missing (npm's electron package then throws on require).
import { test, expect, _electron as electron, type ElectronApplication, type Page } from '@playwright/test';
import { existsSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function electronBinary(): { path: string | null; why: string } {
  try {
    const path = createRequire(import.meta.url)('electron') as string;
    return existsSync(path) ? { path, why: '' } : { path: null, why: `the Electron binary ${path} is missing` };
  } catch {
    return { path: null, why: 'the Electron binary is not installed (the electron package could not download it here)' };
  }
}

const binary = electronBinary();
const built = existsSync(join(root, 'dist', 'electron', 'main.cjs')) && existsSync(join(root, 'dist', 'renderer', 'index.html'));

test.describe('Electron app', () => {
  test.skip(!binary.path, binary.why);
  test.skip(!built, 'the app is not built (dist/electron/main.cjs, dist/renderer/index.html): run `npm run build`');

  let app: ElectronApplication;
  let page: Page;

  test.beforeAll(async () => {
    const userData = mkdtempSync(join(tmpdir(), 'exrview-e2e-electron-'));
    app = await electron.launch({
      executablePath: binary.path!,
      args: [root, join(root, 'assets', 'samples')],
      env: { ...process.env, EXRVIEW_USER_DATA: userData, ELECTRON_ENABLE_LOGGING: '1' },
    });
    page = await app.firstWindow();
    await page.waitForFunction(() => 'exrview' in window);
  });
  test.afterAll(async () => app?.close());

  test('the page has HostApi and no Node', async () => {
    const probe = await page.evaluate(() => ({
      require: typeof (window as unknown as { require?: unknown }).require,
      process: typeof (window as unknown as { process?: unknown }).process,
      module: typeof (window as unknown as { module?: unknown }).module,
      methods: Object.keys((window as unknown as { exrview: object }).exrview).sort(),
      url: location.href,
    }));
    expect(probe.require).toBe('undefined');
    expect(probe.process).toBe('undefined');
    expect(probe.module).toBe('undefined');
    expect(probe.methods).toEqual([
      'cancel',
      'closeFolder',
      'decodeImage',
      'exportImages',
      'getHeader',
      'getInfo',
      'getThumbnail',
      'listFiles',
      'onEvent',
      'openFolder',
      'setVisible',
    ]);
    expect(probe.url).toBe('app://exrview/index.html');
  });

  test('the CSP forbids eval and inline script', async () => {
    const result = await page.evaluate(() => {
      try {
        return String(eval('1 + 1'));
      } catch {
        return 'blocked';
      }
    });
    expect(result).toBe('blocked');
  });

  test('navigation away and new windows are blocked', async () => {
    await page.evaluate(() => {
      window.open('https://example.com/');
      location.href = 'https://example.com/';
    });
    await page.waitForTimeout(500);
    expect(app.windows()).toHaveLength(1);
    expect(page.url()).toBe('app://exrview/index.html');
  });

  test('IPC refuses a folder the user did not open', async () => {
    const message = await page.evaluate(async () => {
      try {
        await (window as unknown as { exrview: { openFolder(p: string): Promise<unknown> } }).exrview.openFolder('/');
        return 'opened';
      } catch (error) {
        return (error as Error).message;
      }
    });
    expect(message).toMatch(/not in a folder you opened/);
  });

  test('the folder on the command line is open', async () => {
    const info = await page.evaluate(() =>
      (window as unknown as { exrview: { getInfo(): Promise<{ mode: string; folders: { displayPath: string }[] }> } }).exrview.getInfo(),
    );
    expect(info.mode).toBe('electron');
    expect(info.folders.map((f) => f.displayPath)).toContain(join(root, 'assets', 'samples'));
  });
});
