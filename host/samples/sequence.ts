// Frame sequences made by the project's own writer: moving HDR content (a ball over a ground, film grain, a progress
// bar), any size and compression; for the first-start samples, the tests and the playback benchmark.

import { closeSync, existsSync, mkdirSync, openSync, readSync, writeSync, fstatSync } from 'node:fs';
import { basename, join } from 'node:path';
import { floatToHalf, parseRawHeaders, buildParts, type Compression, writeExrFile, type WriteChannel } from '../../codec/index.js';

export interface SequenceSpec {
  dir: string;
  /** 'beauty' gives beauty.1001.exr … */
  name?: string;
  frames?: number;
  firstFrame?: number;
  padding?: number;
  separator?: '.' | '_' | '';
  widthPx?: number;
  heightPx?: number;
  compression?: Compression;
  /** Written as the `framesPerSecond` attribute; null writes none. */
  framesPerSecond?: number | null;
  /** Frame numbers left out (a gap in the sequence). */
  skip?: readonly number[];
  /** Writes only these frames (the others as if written elsewhere: several processes share one sequence). */
  only?: readonly number[];
}

export interface WrittenSequence {
  paths: string[];
  frames: number[];
}

/** The file name of a frame: name, separator, number padded. */
export function frameFileName(spec: Pick<SequenceSpec, 'name' | 'separator' | 'padding'>, frame: number): string {
  return `${spec.name ?? 'beauty'}${spec.separator ?? '.'}${String(frame).padStart(spec.padding ?? 4, '0')}.exr`;
}

/** The first start's sample sequence: 24 frames at 24 fps, PIZ (the tests and bench add ZIP and others). Written when missing. */
export function writeSampleSequence(dir: string): string[] {
  const spec: SequenceSpec = {
    dir,
    name: 'turntable',
    frames: 24,
    firstFrame: 1001,
    widthPx: 480,
    heightPx: 270,
    compression: 'piz',
    framesPerSecond: 24,
  };
  if (existsSync(join(dir, frameFileName(spec, 1024)))) return [];
  return writeSequence(spec).paths.map((p) => basename(p));
}

/** Writes every frame of the sequence (half RGBA). */
export function writeSequence(spec: SequenceSpec): WrittenSequence {
  const count = spec.frames ?? 48;
  const first = spec.firstFrame ?? 1001;
  const widthPx = spec.widthPx ?? 480;
  const heightPx = spec.heightPx ?? 270;
  const skip = new Set(spec.skip ?? []);
  const only = spec.only ? new Set(spec.only) : null;
  mkdirSync(spec.dir, { recursive: true });
  const planes = ['R', 'G', 'B', 'A'].map(() => new Uint16Array(widthPx * heightPx));
  const paths: string[] = [];
  const frames: number[] = [];
  for (let k = 0; k < count; k++) {
    const frame = first + k;
    if (skip.has(frame) || (only && !only.has(frame))) continue;
    renderFrame(planes, widthPx, heightPx, k, count);
    const channels: WriteChannel[] = ['R', 'G', 'B', 'A'].map((name, c) => ({ name, pixelType: 'half', data: planes[c]! }));
    const path = join(spec.dir, frameFileName(spec, frame));
    const fps = spec.framesPerSecond === undefined ? 24 : spec.framesPerSecond;
    writeExrFile(path, [
      {
        dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 },
        compression: spec.compression ?? 'zip',
        channels,
        attributes: {
          comments: { type: 'string', value: `frame ${frame}: a ball crossing over a ground, film grain, progress bar` },
          ...(fps === null ? {} : { framesPerSecond: { type: 'rational', value: rational(fps) } }),
        },
      },
    ]);
    paths.push(path);
    frames.push(frame);
  }
  return { paths, frames };
}

function rational(fps: number): { numerator: number; denominator: number } {
  if (Number.isInteger(fps)) return { numerator: fps, denominator: 1 };
  // 23.976 and 29.97 as NTSC rates are written: 24000/1001, 30000/1001
  const ntsc = Math.round(fps * 1001);
  if (ntsc % 1000 === 0 && Math.abs(ntsc / 1001 - fps) < 1e-3) return { numerator: ntsc, denominator: 1001 };
  return { numerator: Math.round(fps * 1000), denominator: 1000 };
}

/** Frame k of n into half planes R, G, B, A: what moves from frame to frame is the ball, the ground's waves and the bar. */
function renderFrame(planes: Uint16Array[], w: number, h: number, k: number, n: number): void {
  const [R, G, B, A] = planes as [Uint16Array, Uint16Array, Uint16Array, Uint16Array];
  const t = n > 1 ? k / (n - 1) : 0.5;
  const horizon = Math.round(h * 0.62);
  const ballX = w * (0.1 + 0.8 * t);
  const ballY = h * (0.5 - 0.3 * Math.sin(Math.PI * t));
  const radius = Math.max(2, h * 0.09);
  const barY = Math.round(h * 0.96);
  const barX = Math.round((w * (k + 1)) / n);
  const waves = new Float32Array(w);
  for (let x = 0; x < w; x++) waves[x] = 0.5 + 0.5 * Math.sin((x / w) * 24 + k * 0.35);
  let seed = (k + 1) * 2654435761;
  for (let y = 0; y < h; y++) {
    const v = y / h;
    const sky = 0.04 + 0.3 * (1 - v);
    const dy = y - ballY;
    for (let x = 0; x < w; x++) {
      let r: number, g: number, b: number, a: number;
      if (y < horizon) {
        r = sky * 0.55;
        g = sky * 0.75;
        b = sky;
        a = 0;
      } else {
        const s = 0.05 + 0.05 * waves[x]! * (0.5 + v);
        r = s * 1.1;
        g = s;
        b = s * 0.75;
        a = 1;
      }
      const dx = x - ballX;
      const d2 = dx * dx + dy * dy;
      if (d2 < radius * radius) {
        // a lit sphere: diffuse falloff and a highlight far above 1.0
        const nz = Math.sqrt(1 - d2 / (radius * radius));
        const lit = 0.15 + 0.85 * Math.max(0, (-dx * 0.4 - dy * 0.6) / radius + nz * 0.7);
        const spec = Math.pow(Math.max(0, nz * 0.8 - (dx / radius) * 0.3 - (dy / radius) * 0.5), 40) * 40;
        r = 0.9 * lit + spec;
        g = 0.35 * lit + spec;
        b = 0.12 * lit + spec;
        a = 1;
      }
      if (y >= barY && x < barX) {
        r = g = b = 1;
        a = 1;
      }
      // film grain: a few percent of the value, different every frame
      seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x9e3779b9) | 0;
      const grain = 1 + ((seed & 0xffff) / 0xffff - 0.5) * 0.06;
      const i = y * w + x;
      R[i] = floatToHalf(r * grain);
      G[i] = floatToHalf(g * grain);
      B[i] = floatToHalf(b * grain);
      A[i] = floatToHalf(a);
    }
  }
}

/**
 * Damages a frame as a disk or a copy can: garbage over the start of the data of its middle chunk. The header and
 * offsets stay good, so the folder lists the file; decoding it fails (for compressed files).
 */
export function damageMiddleChunk(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    const size = fstatSync(fd).size;
    const prefix = new Uint8Array(Math.min(size, 1 << 20));
    readSync(fd, prefix, 0, prefix.length, 0);
    const raw = parseRawHeaders(prefix, size);
    const part = buildParts(raw, size)[0]!;
    const table = new DataView(prefix.buffer, raw.headerEndByte, part.chunkCount * 8);
    const offset = Number(table.getBigUint64(Math.floor(part.chunkCount / 2) * 8, true));
    const garbage = new Uint8Array(64).map((_, i) => (i * 37 + 0xa5) & 0xff);
    // past the chunk's y and size fields
    writeSync(fd, garbage, 0, garbage.length, offset + 8);
  } finally {
    closeSync(fd);
  }
}
