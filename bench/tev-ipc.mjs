#!/usr/bin/env node
// Bench of tev's protocol in browser mode (Chromium, WebGPU): `exrview serve --tev` takes a live image; (1) latency from
// an UpdateImage packet sent to its pixels on screen (the page's CPU copy holding the new value, then two frames), per
// image size; (2) update throughput: MB/s of tile packets taken by the listener (the socket drained) and until the last
// tile's pixels are on screen. The client is written here from tev's protocol (see testing/tev/tev-client.ts).
// Usage: node bench/tev-ipc.mjs [--runs N] [--mb MB] [--tile PX]   (build first: node scripts/build.mjs). JSON on the last line.
import { chromium } from 'playwright';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHROMIUM_ARGS as args, CHROMIUM_PATH } from '../scripts/chromium.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const runs = option('--runs', 10);
const throughputMb = option('--mb', 256);
/** The throughput run's tile side (px): 256 (1 MiB RGBA float tiles) by default. */
const throughputTilePx = option('--tile', 256);
const executablePath = CHROMIUM_PATH;
if (!existsSync(executablePath)) {
  console.log(JSON.stringify({ skipped: `no Chromium at ${executablePath}` }));
  process.exit(0);
}
if (!existsSync(join(root, 'dist', 'cli.mjs'))) {
  console.error('tev-ipc: the project is not built: run node scripts/build.mjs first');
  process.exit(2);
}

// ---- packets, as tev's IpcPacket writes them: uint32 LE length (the whole packet), type byte, fields ----
const str = (s) => Buffer.concat([Buffer.from(s, 'utf8'), Buffer.of(0)]);
const i32 = (v) => ((b) => (b.writeInt32LE(v), b))(Buffer.alloc(4));
const i64 = (v) => ((b) => (b.writeBigInt64LE(BigInt(v)), b))(Buffer.alloc(8));
const packet = (type, ...fields) => {
  const body = Buffer.concat([Buffer.of(type), ...fields]);
  return Buffer.concat([i32(body.length + 4), body]);
};
const createImage = (name, w, h, channels) =>
  packet(4, Buffer.of(1), str(name), i32(w), i32(h), i32(channels.length), ...channels.map(str));
/** UpdateImage v3, interleaved (offset c, stride n). */
const updateInterleaved = (name, channels, x, y, w, h, floats) =>
  packet(
    6,
    Buffer.of(0),
    str(name),
    i32(channels.length),
    ...channels.map(str),
    i32(x),
    i32(y),
    i32(w),
    i32(h),
    ...channels.map((_, c) => i64(c)),
    ...channels.map(() => i64(channels.length)),
    Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength),
  );
const closeImage = (name) => packet(2, str(name));

function tevClient(port) {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.setNoDelay(true);
      resolve({
        /** Resolves once the kernel took the bytes: the listener has read all but a socket buffer's worth. */
        send: (bytes) => new Promise((ok, fail) => socket.write(bytes, (e) => (e ? fail(e) : ok()))),
        end: () => socket.end(),
      });
    });
    socket.once('error', reject);
  });
}

async function serve() {
  const dir = mkdtempSync(join(tmpdir(), 'exrview-tev-bench-'));
  const child = spawn(process.execPath, [join(root, 'bin/exrview.mjs'), 'serve', dir, '--port', '0', '--tev', '0'], {
    env: { ...process.env, XDG_CACHE_HOME: join(dir, '.cache'), EXRVIEW_USER_DATA: join(dir, '.user') },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  const found = await new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`serve printed no addresses: ${out}`)), 60_000);
    child.stdout.on('data', (d) => {
      out += d;
      const page = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
      const tev = /tev's protocol on 127\.0\.0\.1:(\d+)/.exec(out);
      if (page && tev) {
        clearTimeout(t);
        resolve({ url: page[0], tevPort: Number(tev[1]) });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
  });
  return { ...found, stop: () => (child.kill('SIGTERM'), rmSync(dir, { recursive: true, force: true })) };
}

/** In the page: each time the preview's CPU copy holds a new R value at pixel 0, the time two frames later (epoch ms). */
async function watchShown(page) {
  await page.evaluate(() => {
    const app = window.exrviewApp;
    window.tevShown = new Map();
    let last = null;
    app.store.subscribe((s) => {
      const decoded = s.image.decoded;
      const r = decoded?.planes.find((p) => p.name === 'R');
      if (!r || decoded === last) return;
      last = decoded;
      const v = new Float32Array(r.data, 0, 1)[0];
      requestAnimationFrame(() => requestAnimationFrame(() => window.tevShown.set(v, performance.timeOrigin + performance.now())));
    });
  });
}

const shownAt = (page, value, timeoutMs = 60_000) =>
  page.waitForFunction((v) => window.tevShown.get(v) ?? null, value, { timeout: timeoutMs, polling: 5 }).then((h) => h.jsonValue());

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (f) => s[Math.min(s.length - 1, Math.floor(f * s.length))];
  return { n: s.length, medianMs: +q(0.5).toFixed(1), p90Ms: +q(0.9).toFixed(1), minMs: +s[0].toFixed(1), maxMs: +s.at(-1).toFixed(1) };
};

const server = await serve();
const browser = await chromium.launch({ executablePath, args, headless: true });
const result = { machine: { cores: availableParallelism(), loadavg: loadavg().map((l) => +l.toFixed(2)) }, latency: {}, throughput: {} };
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.url);
  await page.waitForFunction(() => 'exrviewApp' in window, null, { timeout: 120_000 });
  await watchShown(page);
  const client = await tevClient(server.tevPort);
  const channels = ['R', 'G', 'B', 'A'];
  let marker = 0;

  for (const size of [256, 1024]) {
    const name = `live-${size}.exr`;
    await client.send(createImage(name, size, size, channels));
    await page.getByRole('option', { name }).click({ timeout: 60_000 });
    // a 64×64 tile at the corner, its R the marker the page waits for
    const tile = new Float32Array(64 * 64 * 4);
    const samples = [];
    for (let i = 0; i < runs + 1; i++) {
      const value = Math.fround(0.001 * ++marker);
      for (let p = 0; p < tile.length; p += 4) tile.set([value, 0.5, 0.25, 1], p);
      const bytes = updateInterleaved(name, channels, 0, 0, 64, 64, tile);
      const sent = performance.timeOrigin + performance.now();
      await client.send(bytes);
      const shown = await shownAt(page, value);
      if (i > 0) samples.push(shown - sent); // the first one warms up the path
      await new Promise((r) => setTimeout(r, 100)); // past the listener's coalescing window: each update timed alone
    }
    result.latency[`${size}x${size}_rgba_tile64`] = stats(samples);
  }

  // throughput: tilePx² RGBA tiles (256²: 1 MiB each) over a 2048×2048 image until `throughputMb` MB are sent
  const size = 2048,
    tilePx = throughputTilePx;
  const name = `live-${size}.exr`;
  await client.send(createImage(name, size, size, channels));
  await page.getByRole('option', { name }).click({ timeout: 60_000 });
  const tile = new Float32Array(tilePx * tilePx * 4).fill(0.5);
  const tiles = Math.ceil((throughputMb * 2 ** 20) / tile.byteLength);
  let bytesSent = 0;
  const start = performance.timeOrigin + performance.now();
  for (let i = 0; i < tiles; i++) {
    const x = (i * tilePx) % size,
      y = (Math.floor((i * tilePx) / size) * tilePx) % size;
    if (i === tiles - 1) {
      const value = Math.fround(0.001 * ++marker);
      for (let p = 0; p < tile.length; p += 4) tile[p] = value;
    }
    const bytes = updateInterleaved(name, channels, i === tiles - 1 ? 0 : x, i === tiles - 1 ? 0 : y, tilePx, tilePx, tile);
    bytesSent += bytes.length;
    await client.send(bytes);
  }
  const drained = performance.timeOrigin + performance.now();
  const shown = await shownAt(page, Math.fround(0.001 * marker), 120_000);
  const mb = bytesSent / 2 ** 20;
  result.throughput = {
    image: `${size}x${size} RGBA float`,
    tile: `${tilePx}x${tilePx}`,
    mbSent: +mb.toFixed(1),
    listenerMBps: +(mb / ((drained - start) / 1000)).toFixed(1),
    toScreenMBps: +(mb / ((shown - start) / 1000)).toFixed(1),
    lastTileToScreenMs: +(shown - drained).toFixed(1),
  };
  for (const s of [256, 1024, 2048]) await client.send(closeImage(`live-${s}.exr`));
  client.end();
} finally {
  await browser.close();
  server.stop();
}
console.log(JSON.stringify(result));
