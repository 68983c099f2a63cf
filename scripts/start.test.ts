// `npm start` without an Electron binary: one line saying so, browser mode with its address, a clean stop on SIGTERM and SIGINT.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const built = existsSync(join(root, 'dist', 'cli.mjs'));
const dir = mkdtempSync(join(tmpdir(), 'exrview-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(signal: NodeJS.Signals): Promise<{ lines: string[]; code: number | null; stopMs: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs'), dir], {
      env: { ...process.env, EXRVIEW_NO_ELECTRON: '1', EXRVIEW_USER_DATA: join(dir, 'user'), XDG_CACHE_HOME: join(dir, 'cache') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let stopAt = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no address within 20 s; output: ${out}`));
    }, 20_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      if (!stopAt && /serving .* at http/.test(out)) {
        stopAt = performance.now();
        child.kill(signal);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ lines: out.trim().split('\n'), code, stopMs: performance.now() - stopAt });
    });
  });
}

describe.skipIf(!built)('npm start without Electron (needs dist/cli.mjs: run `npm run build`)', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('says why in one line, prints the address, and stops on %s with exit 0', async (signal) => {
    const { lines, code, stopMs } = await start(signal);
    expect(lines.filter((l) => /no Electron binary/.test(l))).toHaveLength(1);
    expect(
      lines.some((l) =>
        new RegExp(`^exrview: serving ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} at http://127\\.0\\.0\\.1:\\d+/\\?token=`).test(l),
      ),
    ).toBe(true);
    expect(code).toBe(0);
    expect(stopMs).toBeLessThan(5000);
  });
});
