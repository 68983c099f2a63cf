// The Cryptomatte view pass (shaders/cryptomatte/view.wgsl, as renderer/gpu/cryptomatte-view.ts binds it) on Dawn against
// the CPU reference (view-cpu.ts), in a child process. Usage: node view-gpu-child.mjs DIR OUT.json; writes the cases.

import { writeFileSync } from 'node:fs';
import { ExrReader, openFileSource } from '../../codec/index.js';
import { loadDawn, openDawnDevice } from '../../host/thumbnails/gpu/dawn.js';
import { idOfName, type CryptoId } from '../../shaders/cryptomatte/hash.js';
import { findCryptomattes } from '../../shaders/cryptomatte/layers.js';
import { interleaveGroup, matteCpu, type RankGroupPlanes } from '../../shaders/cryptomatte/matte-cpu.js';
import { createMatteTarget, MattePass, uploadRankGroups } from '../../shaders/cryptomatte/matte-gpu.js';
import { cryptomatteViewCpu, type ViewModeCode } from '../../shaders/cryptomatte/view-cpu.js';
import viewSrc from '../../shaders/cryptomatte/view.wgsl';
import { writeCryptomatteFixture } from './fixtures.js';
import { readTextureFloats } from '../gpu-readback.js';

export interface ViewCase {
  layer: string;
  mode: ViewModeCode;
  picks: number;
  /** Components (RGB of every pixel) whose GPU value equals the CPU's in every bit. */
  exact: number;
  components: number;
  /** The largest difference in ULPs of the CPU's value (the overlay: of it or the beauty's, the larger), and absolute. */
  maxUlps: number;
  maxAbs: number;
  /** Pixels the view colours (any component above 0): the comparison covers something. */
  coloured: number;
}

const ulpOf = (v: number): number => {
  const a = Math.abs(v);
  if (a < 2 ** -126) return 2 ** -149;
  return 2 ** (Math.floor(Math.log2(a)) - 23);
};

/** Rank groups of random IDs (some 0, some shared) and coverages that include NaN, ±Inf, negatives and values above 1. */
function brokenGroups(pixels: number): Float32Array<ArrayBuffer>[] {
  let seed = 12345;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const specials = [NaN, Infinity, -Infinity, -0.5, 1.5, 0, 1e-30];
  return [0, 1].map(() => {
    const rgba = new Float32Array(pixels * 4);
    const bits = new Uint32Array(rgba.buffer);
    for (let i = 0; i < pixels; i++) {
      for (const c of [0, 2]) bits[i * 4 + c] = next() % 7 === 0 ? 0 : next() % 5 === 0 ? 0x3f800000 : next();
      for (const c of [1, 3]) rgba[i * 4 + c] = next() % 4 === 0 ? specials[next() % specials.length]! : (next() % 1000) / 999;
    }
    return rgba;
  });
}

async function main(): Promise<void> {
  const [dir, outPath] = process.argv.slice(2);
  await loadDawn();
  const { device, adapter } = await openDawnDevice();
  const fixture = writeCryptomatteFixture(dir!, 67, 45);
  const source = openFileSource(fixture.file);
  const reader = ExrReader.open(source);
  const part = reader.parts[0]!;
  const strings = new Map(part.attributes.flatMap((a) => (a.value.type === 'string' ? [[a.name, a.value.value] as const] : [])));
  const scan = findCryptomattes(strings, part.channels);
  const image = reader.decode();
  source.close();
  const { widthPx, heightPx } = image;
  const pixels = widthPx * heightPx;
  // an HDR beauty with negatives: the overlay and isolate modes pass it through
  const beauty = Float32Array.from({ length: pixels * 4 }, (_, i) => (i % 4 === 3 ? 1 : Math.sin(i * 0.37) * 3));

  const compute = GPUShaderStage.COMPUTE;
  const layout = device.createBindGroupLayout({
    entries: [
      { binding: 0, visibility: compute, buffer: { type: 'uniform', minBindingSize: 16 } },
      { binding: 1, visibility: compute, texture: { sampleType: 'unfilterable-float', viewDimension: '2d-array' } },
      { binding: 2, visibility: compute, texture: { sampleType: 'unfilterable-float' } },
      { binding: 3, visibility: compute, texture: { sampleType: 'unfilterable-float' } },
      { binding: 4, visibility: compute, buffer: { type: 'read-only-storage' } },
      { binding: 5, visibility: compute, storageTexture: { access: 'write-only', format: 'rgba32float' } },
    ],
  });
  const pipeline = device.createComputePipeline({
    layout: device.createPipelineLayout({ bindGroupLayouts: [layout] }),
    compute: { module: device.createShaderModule({ code: viewSrc }), entryPoint: 'main', constants: { WG_X: 8, WG_Y: 8 } },
  });
  const params = device.createBuffer({ size: 16, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  const beautyTexture = device.createTexture({
    size: [widthPx, heightPx],
    format: 'rgba32float',
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  device.queue.writeTexture({ texture: beautyTexture }, beauty, { bytesPerRow: widthPx * 16 }, [widthPx, heightPx]);
  const out = device.createTexture({
    size: [widthPx, heightPx],
    format: 'rgba32float',
    usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_SRC,
  });
  const matte = new MattePass(device);

  const layers = Object.values(fixture.layers).map((truth) => {
    const layer = scan.layers.find((l) => l.name === truth.name)!;
    const planes = layer.groups.map(
      (names) => names.map((n) => image.channels.find((c) => c.name === n)!.data as Float32Array) as unknown as RankGroupPlanes,
    );
    return { name: truth.name, groups: planes.map((g) => interleaveGroup(g, pixels)), names: truth.names };
  });
  const broken = brokenGroups(pixels);
  const brokenIds = [0, 1].map((g) => new Uint32Array(broken[g]!.buffer)[4 * 5]!);
  layers.push({ name: 'broken (NaN, Inf, negative coverage)', groups: broken, names: [] });

  const cases: ViewCase[] = [];
  for (const layer of layers) {
    const ranks = uploadRankGroups(device, layer.groups, widthPx, heightPx);
    const matteTarget = createMatteTarget(device, widthPx, heightPx);
    const twoPicks: CryptoId[] = layer.names.length ? layer.names.slice(0, 2).map(idOfName) : brokenIds;
    const settings: [ViewModeCode, CryptoId[]][] = [
      [0, []],
      [1, twoPicks],
      [2, twoPicks],
      [3, twoPicks],
    ];
    for (const [mode, picks] of settings) {
      const picked = device.createBuffer({ size: Math.max(1, picks.length) * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
      if (picks.length) device.queue.writeBuffer(picked, 0, Uint32Array.from(picks));
      device.queue.writeBuffer(params, 0, new Uint32Array([mode, picks.length, 0, 0]));
      const encoder = device.createCommandEncoder();
      matte.encode(encoder, ranks, picks, matteTarget);
      const group = device.createBindGroup({
        layout,
        entries: [
          { binding: 0, resource: { buffer: params } },
          { binding: 1, resource: ranks.createView({ dimension: '2d-array' }) },
          { binding: 2, resource: matteTarget.createView() },
          { binding: 3, resource: beautyTexture.createView() },
          { binding: 4, resource: { buffer: picked } },
          { binding: 5, resource: out.createView() },
        ],
      });
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, group);
      pass.dispatchWorkgroups(Math.ceil(widthPx / 8), Math.ceil(heightPx / 8));
      pass.end();
      device.queue.submit([encoder.finish()]);
      const gpu = await readTextureFloats(device, out, 4);
      picked.destroy();
      const planes = layer.groups.map((g) => [0, 1, 2, 3].map((c) => Float32Array.from({ length: pixels }, (_, i) => g[i * 4 + c]!)));
      // the planes from the interleaved groups, as bits (a NaN keeps its payload)
      planes.forEach((p, g) =>
        p.forEach((plane, c) =>
          new Uint32Array(plane.buffer).set(
            Uint32Array.from({ length: pixels }, (_, i) => new Uint32Array(layer.groups[g]!.buffer)[i * 4 + c]!),
          ),
        ),
      );
      const cpuMatte = matteCpu(planes as unknown as RankGroupPlanes[], picks, pixels);
      const cpu = cryptomatteViewCpu({ groups: layer.groups, matte: cpuMatte, beauty, picked: picks, mode, pixelCount: pixels });
      let exact = 0,
        maxUlps = 0,
        maxAbs = 0,
        coloured = 0;
      const gpuBits = new Uint32Array(gpu.buffer);
      const cpuBits = new Uint32Array(cpu.buffer);
      for (let i = 0; i < pixels; i++) {
        if (cpu[i * 4]! > 0 || cpu[i * 4 + 1]! > 0 || cpu[i * 4 + 2]! > 0) coloured++;
        for (let c = 0; c < 3; c++) {
          const k = i * 4 + c;
          if (gpuBits[k] === cpuBits[k]) {
            exact++;
            continue;
          }
          const d = Math.abs(gpu[k]! - cpu[k]!);
          maxAbs = Math.max(maxAbs, Number.isNaN(d) ? Infinity : d);
          // the overlay mixes the beauty with the colours: where they cancel, an error is of the beauty's size
          const scale = mode === 1 ? Math.max(Math.abs(cpu[k]!), Math.abs(beauty[k]!)) : cpu[k]!;
          maxUlps = Math.max(maxUlps, Number.isNaN(d) ? Infinity : d / ulpOf(scale));
        }
      }
      cases.push({ layer: layer.name, mode, picks: picks.length, exact, components: pixels * 3, maxUlps, maxAbs, coloured });
    }
    ranks.destroy();
    matteTarget.destroy();
  }
  matte.destroy();
  writeFileSync(outPath!, JSON.stringify({ adapter: adapter.key, pixels, cases }));
  device.destroy();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
