// What the folder-load benches share: the generated folder, the codec's writer bundled for Node, the server started in browser mode, its
// resident memory sampled, and the figures rounded.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const mb = (bytes) => Math.round((bytes / 2 ** 20) * 10) / 10;
export const quantile = (xs, q) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))] * 10) / 10;
};

/**
 * N small half images in six compressions, one in five tiled with MIP levels: sides `baseW` + (i·37 mod `spanW`) by
 * `baseH` + (i·53 mod `spanH`), RGBA one in `rgbaEvery` (0: none), a smooth gradient per file and channel.
 */
export function makeFolder(writer, dir, n, { baseW, baseH, spanW, spanH, rgbaEvery }) {
  const compressions = ['zip', 'piz', 'rle', 'zips', 'none', 'pxr24'];
  for (let i = 0; i < n; i++) {
    const w = baseW + ((i * 37) % spanW);
    const h = baseH + ((i * 53) % spanH);
    const names = rgbaEvery && i % rgbaEvery === 0 ? ['R', 'G', 'B', 'A'] : ['R', 'G', 'B'];
    const plane = (c) => {
      const p = new Uint16Array(w * h);
      // half bits of a smooth gradient per file and channel (0x3000..0x3c00: 0.125..1)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) p[y * w + x] = 0x3000 + (((x * 7 + y * 3 + i * 11 + c * 97) % 256) << 4) / 1.33;
      return p;
    };
    const part = {
      dataWindow: { xMin: 0, yMin: 0, xMax: w - 1, yMax: h - 1 },
      compression: compressions[i % compressions.length],
      channels: names.map((name, c) => ({ name, pixelType: 'half', data: plane(c) })),
      ...(i % 5 === 0 ? { tiles: { xSizePx: 32, ySizePx: 32, levelMode: 'mipmapLevels' } } : {}),
    };
    writer.writeExrFile(join(dir, `img-${String(i).padStart(5, '0')}.exr`), [part]);
  }
}

/** The writer, bundled on the fly (the benches run in plain Node, the codec is TypeScript). */
export async function loadWriter(work) {
  const outfile = join(work, 'writer.mjs');
  await build({ entryPoints: [join(root, 'codec/writer.ts')], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  return import(pathToFileURL(outfile).href);
}

/** The server's resident memory (VmRSS of /proc/PID/status), sampled on a timer. */
export function rssSampler(pid, everyMs = 100) {
  const samples = [];
  const t0 = Date.now();
  const read = () => {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) samples.push([Date.now() - t0, Number(m[1]) * 1024]);
    } catch {
      /* the process ended */
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      read();
    },
    peak: () => Math.max(...samples.map((s) => s[1])),
  };
}

/** `exrview serve DIR` on a free port with its own thumbnail cache; resolves with the address it printed. */
export async function startServer(dir, cacheHome) {
  const server = spawn(process.execPath, ['bin/exrview.mjs', 'serve', dir, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    // a fresh thumbnail cache: every thumbnail is made, the worst case
    env: { ...process.env, XDG_CACHE_HOME: cacheHome },
  });
  let out = '';
  const url = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve printed no address: ${out}`)), 60_000);
    server.stdout.on('data', (d) => {
      out += d;
      const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[0]);
      }
    });
    server.stderr.on('data', (d) => (out += d));
    server.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { server, url, output: () => out };
}
