// Channel expressions on the GPU (Dawn) against the CPU reference, in a child process (a native abort fails the test
// instead of killing the runner): HDR planes with NaN, ±Inf, negatives and zeros, in float, half and uint, through the
// same encode the viewer runs, a subsampled plane and more planes than the device binds among them. Each case is built
// twice and the textures the builds create are counted: a build must create none (issue 40). Usage: node
// expr-gpu-child.mjs OUT.json; writes each case's worst difference.
import '../../bench/gpu/install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { writeFileSync } from 'node:fs';
import { openDawnDevice } from '../../host/thumbnails/gpu/dawn.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import { DummyPlanes, type PlaneTexture } from '../../shaders/passes.js';
import { compileExpression, evaluateExpression } from '../../shaders/expressions/index.js';
import { encodeExpression, planeReads, releaseExpressionScratch } from '../../shaders/expressions/gpu.js';
import { floatToHalf, halfToFloat } from '../../shaders/tonemap-cpu.js';
import { EXPRESSION_CASES, EXTRA_PLANES, PLANE_READ_CASES, valueDistance } from './cases.js';

export interface GpuCase {
  text: string;
  tolerance: string;
  /** Components whose GPU value is outside the case's tolerance of the CPU's. */
  mismatches: number;
  /** The largest distance seen (ULPs, or relative for the transcendental cases), and where. */
  worst: number;
  at: string;
  /** Planes the case reads, and how many of them were packed into scratch (beyond the device's sampled-texture limit). */
  planes: number;
  packed: number;
  /** Textures created by the first and by the second build of the case. */
  texturesCreated: [number, number];
}

const W = 64,
  H = 48;

/** Deterministic HDR values: log-uniform ±2^±20, zeros, NaN, ±Inf, huge; no subnormals (a GPU may flush them). */
function hdr(n: number, seed: number): Float32Array {
  let s = seed >>> 0;
  const rnd = (): number => ((s = (s * 1664525 + 1013904223) >>> 0), s / 2 ** 32);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const k = rnd();
    const sign = rnd() < 0.25 ? -1 : 1;
    out[i] =
      k < 0.03
        ? NaN
        : k < 0.05
          ? Infinity
          : k < 0.07
            ? -Infinity
            : k < 0.1
              ? 0
              : k < 0.12
                ? sign * 3e38 * rnd()
                : k < 0.15
                  ? sign * Math.round(rnd() * 8)
                  : sign * 2 ** (rnd() * 40 - 20);
  }
  return out;
}

async function main(): Promise<void> {
  const outPath = process.argv[2]!;
  const { device, adapter } = await openDawnDevice();
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  const n = W * H;
  // float planes, a half one (values rounded to half first) and a uint one
  const names = ['diffuse.R', 'diffuse.G', 'diffuse.B', 'spec.R', 'spec.G', 'spec.B', 'depth.Z', 'mask.Y', 'id.count', 'sub.Y'];
  names.push(...EXTRA_PLANES);
  // sub.Y is sampled every 2 pixels in x and y: its texture is (W/2)×(H/2), read at (x/2, y/2)
  const subsampled = (name: string): boolean => name === 'sub.Y';
  const values = new Map<string, Float32Array>();
  const textures = new Map<string, PlaneTexture>();
  names.forEach((name, k) => {
    const s = subsampled(name) ? 2 : 1;
    const [w, h] = [W / s, H / s];
    let v = hdr(w * h, 17 + k * 31);
    const half = name === 'mask.Y',
      uint = name === 'id.count';
    if (half) v = v.map((x) => halfToFloat(floatToHalf(x)));
    if (uint) v = v.map((_, i) => (i * 7919) % 1000);
    values.set(
      name,
      Float32Array.from({ length: n }, (_, i) => v[Math.floor(Math.floor(i / W) / s) * w + Math.floor((i % W) / s)]!),
    );
    const format: GPUTextureFormat = half ? 'r16float' : uint ? 'r32uint' : 'r32float';
    const texture = device.createTexture({ size: [w, h], format, usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST });
    const data = half ? Uint16Array.from(v, floatToHalf) : uint ? Uint32Array.from(v) : Float32Array.from(v);
    device.queue.writeTexture({ texture }, data, { bytesPerRow: w * (half ? 2 : 4) }, [w, h]);
    textures.set(name, { texture, kind: uint ? 'uint' : 'float', xSampling: s, ySampling: s });
  });
  // counts the textures made while a build is encoded
  let counting = false,
    created = 0;
  const createTexture = device.createTexture.bind(device);
  device.createTexture = (descriptor: GPUTextureDescriptor): GPUTexture => {
    if (counting) created++;
    return createTexture(descriptor);
  };
  const limit = device.limits.maxSampledTexturesPerShaderStage;
  const cases: GpuCase[] = [];
  for (const { text, tolerance } of [...EXPRESSION_CASES, ...PLANE_READ_CASES]) {
    const compiled = compileExpression(text, names);
    if (!compiled.ok) throw new Error(`${text}: ${compiled.error.message}`);
    const program = compiled.program;
    const dst = device.createTexture({
      size: [W, H],
      format: 'rgba32float',
      usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC | GPUTextureUsage.TEXTURE_BINDING,
    });
    const encoder = device.createCommandEncoder();
    const texturesCreated: [number, number] = [0, 0];
    const made = [0, 1].map((build) => {
      created = 0;
      counting = true;
      const m = encodeExpression(
        kit,
        encoder,
        program,
        program.planes.map((p) => textures.get(p)!),
        { originX: 0, originY: 0, widthPx: W, heightPx: H },
        dst,
        dummies,
      );
      counting = false;
      texturesCreated[build] = created;
      return m;
    });
    const rowBytes = Math.ceil((W * 16) / 256) * 256;
    const buffer = device.createBuffer({ size: rowBytes * H, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
    encoder.copyTextureToBuffer({ texture: dst }, { buffer, bytesPerRow: rowBytes }, [W, H]);
    device.queue.submit([encoder.finish()]);
    made.forEach((m) => m.destroy());
    await buffer.mapAsync(GPUMapMode.READ);
    const rows = new Float32Array(buffer.getMappedRange().slice(0));
    buffer.unmap();
    const gpu = new Float32Array(n * 4);
    for (let y = 0; y < H; y++) gpu.set(rows.subarray((y * rowBytes) / 4, (y * rowBytes) / 4 + W * 4), y * W * 4);
    const cpu = evaluateExpression(
      program,
      program.planes.map((p) => values.get(p)!),
      n,
    );
    let mismatches = 0,
      worst = 0,
      at = '';
    for (let i = 0; i < n * 4; i++) {
      const d = valueDistance(cpu[i]!, gpu[i]!, tolerance);
      if (d.outside) mismatches++;
      if (d.distance > worst || (d.outside && !at)) {
        worst = Math.max(worst, d.distance);
        const px = Math.floor(i / 4);
        at = `pixel ${px}: inputs ${program.planes.map((p) => `${p}=${values.get(p)![px]}`).join(' ')}; cpu ${cpu[i]} gpu ${gpu[i]}`;
      }
    }
    const planes = program.planes.length;
    const packed =
      planes -
      planeReads(
        program.planes.map((p) => textures.get(p)!),
        limit,
      ).filter((r) => r.from === 'plane').length;
    cases.push({ text, tolerance, mismatches, worst, at, planes, packed, texturesCreated });
    dst.destroy();
    buffer.destroy();
  }
  writeFileSync(outPath, JSON.stringify({ adapter: adapter.key, pixels: n, maxSampledTextures: limit, cases }));
  releaseExpressionScratch(device);
  device.destroy();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
