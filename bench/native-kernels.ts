// Decompression stage alone, native kernels against the TypeScript codecs, one thread: `npx tsx bench/native-kernels.ts DIR [--rounds N]`.
//
// Every chunk of every file is read into memory first, then decompressed through the codec dispatch
// (compression/index.ts) in two child processes, one with EXRVIEW_NATIVE=0, rounds alternating so
// machine noise hits both alike. Per file: the best round's wall and CPU time (on a shared machine
// CPU time is the steadier figure), and a SHA-1 of the output that must be the same both ways.
// Prints one JSON object on its last line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { uncompressedBytes, chunkPlace } from '../codec/blocks.js';
import { decompressInto, usesNativeKernel } from '../codec/compression/index.js';
import { nativeStatus } from '../codec/compression/native.js';
import { ExrReader, openFileSource, type BlockLayout, type Compression } from '../codec/index.js';

interface Chunk {
  compression: Compression;
  data: Uint8Array;
  block: BlockLayout;
  expectedBytes: number;
}

interface FileFigures {
  file: string;
  compression: Compression;
  native: boolean;
  chunks: number;
  megapixels: number;
  bestWallMs: number;
  bestCpuMs: number;
  sha1: string;
}

function readChunks(path: string): { chunks: Chunk[]; pixels: number } {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const chunks: Chunk[] = [];
    let pixels = 0;
    for (const part of reader.parts) {
      if (part.isDeep) continue;
      pixels += part.widthPx * part.heightPx;
      const count = part.isTiled ? part.levels[0]!.tilesX * part.levels[0]!.tilesY : part.chunkCount;
      for (let index = 0; index < count; index++) {
        const block = chunkPlace(part, index).block;
        chunks.push({
          compression: part.compression,
          data: reader.readChunk(part.index, index).data.slice(),
          block,
          expectedBytes: uncompressedBytes(block),
        });
      }
    }
    return { chunks, pixels };
  } finally {
    source.close();
  }
}

/** One child: decompresses each file's chunks `rounds` times, prints the figures as JSON. */
function child(files: string[], rounds: number): void {
  const figures: FileFigures[] = [];
  for (const file of files) {
    const { chunks, pixels } = readChunks(file);
    // one output buffer for every chunk, as the reader reuses one (decompressTransient)
    const out = new Uint8Array(Math.max(1, ...chunks.map((c) => c.expectedBytes)));
    const hash = createHash('sha1');
    const once = (hashing = false) => {
      for (const c of chunks) {
        const dst = out.subarray(0, c.expectedBytes);
        decompressInto(c.compression, c.data, c.block, dst);
        if (hashing) hash.update(dst);
      }
    };
    once(true);
    let bestWallMs = Infinity;
    let bestCpuMs = Infinity;
    for (let r = 0; r < rounds; r++) {
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      once();
      const wallMs = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      bestWallMs = Math.min(bestWallMs, wallMs);
      bestCpuMs = Math.min(bestCpuMs, (cpu.user + cpu.system) / 1000);
    }
    const compression = chunks[0]?.compression ?? 'none';
    figures.push({
      file: file.split('/').pop()!,
      compression,
      native: usesNativeKernel(compression),
      chunks: chunks.length,
      megapixels: pixels / 1e6,
      bestWallMs,
      bestCpuMs,
      sha1: hash.digest('hex'),
    });
  }
  console.log(JSON.stringify({ native: nativeStatus, figures }));
}

function runChild(nativeOn: boolean, files: string[], rounds: number): { native: typeof nativeStatus; figures: FileFigures[] } {
  const script = fileURLToPath(import.meta.url);
  // the other side is the TypeScript codecs, not the WebAssembly tier below native
  const env = { ...process.env, EXRVIEW_NATIVE: nativeOn ? '1' : '0', EXRVIEW_WASM: nativeOn ? '1' : '0' };
  const r = spawnSync(process.execPath, [...process.execArgv, script, '--child', String(rounds), ...files], {
    encoding: 'utf8',
    env,
    maxBuffer: 64 << 20,
  });
  if (r.status !== 0) throw new Error(`bench child failed: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!);
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function main(): void {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    child(args.slice(2), Number(args[1]));
    return;
  }
  const dir = args.find((a) => !a.startsWith('--'));
  const roundsArg = args.indexOf('--rounds');
  const rounds = roundsArg >= 0 ? Number(args[roundsArg + 1]) : 3;
  const passesArg = args.indexOf('--passes');
  const passes = passesArg >= 0 ? Number(args[passesArg + 1]) : 2;
  if (!dir) {
    console.error('usage: npx tsx bench/native-kernels.ts DIR [--rounds N] [--passes N]');
    process.exit(2);
  }
  const files = readdirSync(dir)
    .filter((n) => n.endsWith('.exr'))
    .sort()
    .map((n) => join(dir, n));
  const best = new Map<string, { ts: FileFigures; native: FileFigures }>();
  let status: typeof nativeStatus | null = null;
  for (let pass = 0; pass < passes; pass++) {
    // alternate which side runs first
    const order = pass % 2 === 0 ? [false, true] : [true, false];
    for (const on of order) {
      const result = runChild(on, files, rounds);
      if (on) status = result.native;
      for (const f of result.figures) {
        const entry = best.get(f.file) ?? {
          ts: { ...f, bestWallMs: Infinity, bestCpuMs: Infinity },
          native: { ...f, bestWallMs: Infinity, bestCpuMs: Infinity },
        };
        const side = on ? entry.native : entry.ts;
        Object.assign(side, {
          native: f.native,
          sha1: f.sha1,
          bestWallMs: Math.min(side.bestWallMs, f.bestWallMs),
          bestCpuMs: Math.min(side.bestCpuMs, f.bestCpuMs),
        });
        best.set(f.file, entry);
      }
    }
  }
  const perCompression = new Map<
    string,
    { files: number; megapixels: number; tsCpuMs: number; nativeCpuMs: number; tsWallMs: number; nativeWallMs: number }
  >();
  const mismatches: string[] = [];
  const perFile = [...best.entries()].map(([file, { ts, native }]) => {
    if (ts.sha1 !== native.sha1) mismatches.push(file);
    const sum = perCompression.get(ts.compression) ?? { files: 0, megapixels: 0, tsCpuMs: 0, nativeCpuMs: 0, tsWallMs: 0, nativeWallMs: 0 };
    sum.files++;
    sum.megapixels += ts.megapixels;
    sum.tsCpuMs += ts.bestCpuMs;
    sum.nativeCpuMs += native.bestCpuMs;
    sum.tsWallMs += ts.bestWallMs;
    sum.nativeWallMs += native.bestWallMs;
    perCompression.set(ts.compression, sum);
    return {
      file,
      compression: ts.compression,
      nativeKernel: native.native,
      tsMs: round1(ts.bestWallMs),
      nativeMs: round1(native.bestWallMs),
      tsCpuMs: round1(ts.bestCpuMs),
      nativeCpuMs: round1(native.bestCpuMs),
    };
  });
  const byCompression = Object.fromEntries(
    [...perCompression.entries()].map(([compression, s]) => [
      compression,
      {
        files: s.files,
        tsMs: round1(s.tsWallMs),
        nativeMs: round1(s.nativeWallMs),
        tsCpuMs: round1(s.tsCpuMs),
        nativeCpuMs: round1(s.nativeCpuMs),
        speedup: round1(s.tsWallMs / s.nativeWallMs),
        cpuSpeedup: round1(s.tsCpuMs / s.nativeCpuMs),
        nativeMpxPerS: round1(s.megapixels / (s.nativeWallMs / 1000)),
      },
    ]),
  );
  for (const [compression, s] of Object.entries(byCompression)) {
    console.log(
      `${compression.padEnd(6)} ${String(s.files).padStart(2)} files: TypeScript ${s.tsCpuMs} ms CPU (${s.tsMs} wall), native ${s.nativeCpuMs} ms CPU (${s.nativeMs} wall): x${s.cpuSpeedup} CPU`,
    );
  }
  if (mismatches.length) console.log(`OUTPUT DIFFERS on ${mismatches.join(', ')}`);
  console.log(JSON.stringify({ native: status, rounds, passes, byCompression, perFile, mismatches }));
  if (mismatches.length) process.exitCode = 1;
}

main();
