// Browser-mode fixture for the e2e specs: build once, start `exrview serve DIR` on a free port, read the URL it prints; float planes for their test images.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

export function buildProject(): void {
  const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`build failed: ${build.stderr}`);
}

export interface Served {
  /** The printed URL, access token included. */
  url: string;
  stop(): void;
}

/** `env`: variables the server runs with besides this process's (`OCIO`, say). */
export async function serveFolder(dir: string, env: Record<string, string> = {}): Promise<Served> {
  const server: ChildProcess = spawn(process.execPath, ['bin/exrview.mjs', 'serve', dir, '--port', '0'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const t = setTimeout(() => reject(new Error(`serve printed no address: ${out}`)), 30_000);
    server.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
    server.stderr!.on('data', (d: Buffer) => {
      out += d.toString();
    });
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { url, stop: () => server.kill('SIGTERM') };
}

/** A float plane of widthPx × heightPx samples, rows top to bottom, each f(x, y). */
export function floatPlane(widthPx: number, heightPx: number, f: (x: number, y: number) => number): Float32Array {
  const p = new Float32Array(widthPx * heightPx);
  for (let y = 0; y < heightPx; y++) for (let x = 0; x < widthPx; x++) p[y * widthPx + x] = f(x, y);
  return p;
}
