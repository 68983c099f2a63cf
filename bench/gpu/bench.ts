// The GPU bench proper: upload paths, assemble + MIP + tone-map GPU time per workgroup shape, GPU vs CPU thumbnails, crossover.
import { availableParallelism, cpus } from 'node:os';
import { createUploader, type Uploader, type UploadSource } from '../../shaders/upload.js';
import { buildCalibration, type CostSample } from '../../host/thumbnails/gpu/calibration.js';
import { GpuTimer, adapterKey, median, type DawnDevice } from './dawn.js';
import { makeHalfPlanes, halfToFloatPlanes, type Planes } from './images.js';
import {
  DummyPlanes,
  GpuImageWork,
  ShaderKit,
  WORKGROUP_SHAPES,
  destroyScratch,
  gpuThumbnail,
  previewTargetBindGroup,
  thumbnailScratch,
} from './gpu-work.js';
import { CpuThumbnailer } from './cpu-thumbnail.js';
import { displayCoreSource } from '../../shaders/pipelines.js';
import { PALETTE_BYTES, UniformBlock, packDisplay, packPalette } from '../../shaders/layouts.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';

export interface BenchOptions {
  quick: boolean;
  entry: URL;
  log: (msg: string) => void;
}

const r3 = (x: number) => Math.round(x * 1000) / 1000;
const gbps = (bytes: number, ms: number) => r3(bytes / ms / 1e6);

function interleaved(p: Planes<Uint16Array | Float32Array>): Uint16Array | Float32Array {
  const n = p.width * p.height;
  const out = p.r instanceof Uint16Array ? new Uint16Array(n * 4) : new Float32Array(n * 4);
  const src = [p.r, p.g, p.b, p.a];
  for (let i = 0; i < n; i++) for (let c = 0; c < 4; c++) out[i * 4 + c] = src[c]![i]!;
  return out;
}

interface PathResult {
  path: string;
  cpuCopiesPerByte: number;
  gpuCopiesPerByte: number;
  /** One image, ring warm: from the call to the GPU having finished the copy. */
  wallMs: number;
  wallGBps: number;
  /** CPU time of the call (copy into mapped memory, encode, submit). */
  callMs: number;
  cpuCopyMs: number;
  cpuCopyGBps: number;
  waitMs: number;
  /** Several images back to back, one wait at the end: what a folder of images sees. */
  steadyMsPerImage: number;
  steadyGBps: number;
  submitsPerImage: number;
}

async function timeUploadPath(
  device: GPUDevice,
  bytes: number,
  runs: number,
  streak: number,
  once: () => Promise<{ callMs: number; cpuCopyMs: number; waitMs: number; submits: number }>,
): Promise<Omit<PathResult, 'path' | 'cpuCopiesPerByte' | 'gpuCopiesPerByte'>> {
  await once();
  await once();
  await device.queue.onSubmittedWorkDone();
  const wall: number[] = [];
  const call: number[] = [];
  const copy: number[] = [];
  const wait: number[] = [];
  let submits = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const s = await once();
    await device.queue.onSubmittedWorkDone();
    wall.push(performance.now() - t0);
    call.push(s.callMs);
    copy.push(s.cpuCopyMs);
    wait.push(s.waitMs);
    submits = s.submits;
  }
  const steady: number[] = [];
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    for (let i = 0; i < streak; i++) await once();
    await device.queue.onSubmittedWorkDone();
    steady.push((performance.now() - t0) / streak);
  }
  const wallMs = median(wall);
  const steadyMs = median(steady);
  return {
    wallMs: r3(wallMs),
    wallGBps: gbps(bytes, wallMs),
    callMs: r3(median(call)),
    cpuCopyMs: r3(median(copy)),
    cpuCopyGBps: median(copy) > 0 ? gbps(bytes, median(copy)) : 0,
    waitMs: r3(median(wait)),
    steadyMsPerImage: r3(steadyMs),
    steadyGBps: gbps(bytes, steadyMs),
    submitsPerImage: submits,
  };
}

export async function benchUploads(dawn: DawnDevice, opts: BenchOptions): Promise<unknown[]> {
  const { device } = dawn;
  const sizes: [number, number][] = opts.quick
    ? [[3840, 2160]]
    : [
        [3840, 2160],
        [7680, 4320],
      ];
  const out: unknown[] = [];
  for (const [width, height] of sizes) {
    const half = makeHalfPlanes(width, height, 7);
    for (const type of ['half', 'float'] as const) {
      if (opts.quick && type === 'float') continue;
      const p = type === 'half' ? half : halfToFloatPlanes(half);
      const format = type === 'half' ? 'rgba16float' : 'rgba32float';
      const planeFormat = type === 'half' ? 'r16float' : 'r32float';
      const bytes = width * height * 4 * (type === 'half' ? 2 : 4);
      const rgba = interleaved(p);
      // the ring holds two images: one being copied by the GPU while the next is written
      const uploader: Uploader = createUploader(device, {
        ringBytes: Math.max(256 << 20, 2 * bytes + (64 << 20)),
        slabBytes: 32 << 20,
        label: 'bench',
      });
      const texture = device.createTexture({
        size: [width, height],
        format,
        usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING,
      });
      const planeTex = [0, 1, 2, 3].map(() =>
        device.createTexture({
          size: [width, height],
          format: planeFormat,
          usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING,
        }),
      );
      const big = bytes > 300e6; // 8K float: 530 MB an image, keep the run inside the device machine's 10 minutes
      const runs = opts.quick || big ? 3 : 7;
      const streak = opts.quick || big ? 3 : 6;
      const results: PathResult[] = [];
      const ring =
        (path: string, cpuCopies: number, fn: () => Promise<{ callMs: number; cpuCopyMs: number; waitMs: number; submits: number }>) =>
        async () => {
          opts.log(`upload ${width}x${height} ${type} ${path}`);
          results.push({
            path,
            cpuCopiesPerByte: cpuCopies,
            gpuCopiesPerByte: 1,
            ...(await timeUploadPath(device, bytes, runs, streak, fn)),
          });
        };
      const planesSrc: UploadSource = { kind: 'planes', r: p.r, g: p.g, b: p.b, a: p.a };
      await ring('ring: planes interleaved on the CPU into mapped memory → rgba texture', 1, () =>
        uploader.upload(texture, planesSrc, { width, height, format }),
      )();
      await ring('ring: interleaved RGBA memcpy into mapped memory → rgba texture', 1, () =>
        uploader.upload(texture, { kind: 'texels', data: rgba }, { width, height, format }),
      )();
      await ring('ring: 4 planes memcpy into mapped memory → 4 single-channel textures (the engine path), one submission', 1, () =>
        uploader.uploadMany(
          planeTex.map((t, c) => ({
            texture: t,
            format: planeFormat,
            width,
            height,
            source: { kind: 'texels' as const, data: [p.r, p.g, p.b, p.a][c]! },
          })),
        ),
      )();
      // the DMA floor: staging already holds the bytes (a decoder writing into mapped memory); nothing copied on the CPU
      await ring('ring: writer (decoder writes into mapped memory; here it writes nothing) → transfer only', 0, () =>
        uploader.upload(texture, { kind: 'writer', write: () => {} }, { width, height, format }),
      )();
      // baselines, through Dawn's own staging (one copy inside Dawn, C++ memcpy)
      opts.log(`upload ${width}x${height} ${type} writeTexture`);
      results.push({
        path: 'baseline: queue.writeTexture of interleaved RGBA',
        cpuCopiesPerByte: 1,
        gpuCopiesPerByte: 1,
        ...(await timeUploadPath(device, bytes, runs, streak, async () => {
          const t0 = performance.now();
          device.queue.writeTexture(
            { texture },
            rgba as unknown as Uint16Array<ArrayBuffer>,
            { bytesPerRow: width * (bytes / width / height), rowsPerImage: height },
            [width, height],
          );
          const ms = performance.now() - t0;
          return { callMs: ms, cpuCopyMs: ms, waitMs: 0, submits: 1 };
        })),
      });
      out.push({ width, height, type, format, bytes, ringBytes: uploader.slabCount * uploader.slabBytes, paths: results });
      texture.destroy();
      for (const t of planeTex) t.destroy();
      uploader.destroy();
    }
  }
  return out;
}

export async function benchCompute(dawn: DawnDevice, opts: BenchOptions): Promise<unknown[]> {
  const { device } = dawn;
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  const uploader = createUploader(device, { ringBytes: 320 << 20, label: 'compute' });
  // quick (software rasteriser): a small image, or one tone-map of 4K takes most of a minute
  const sizes: [number, number][] = opts.quick
    ? [[960, 540]]
    : [
        [3840, 2160],
        [7680, 4320],
      ];
  const out: unknown[] = [];
  for (const [width, height] of sizes) {
    const p = makeHalfPlanes(width, height, 3);
    const work = new GpuImageWork(kit, dummies, width, height, 'r16float');
    await work.uploadPlanes(uploader, p);
    const target = device.createTexture({ size: [width, height], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
    const timer = dawn.timestamps ? new GpuTimer(device, 3) : null;
    // clocks idle low (345 MHz SM seen): run the whole workload a while, unmeasured, before the first shape
    for (let i = 0; i < (opts.quick ? 1 : 40); i++) {
      const enc = device.createCommandEncoder();
      const u = work.encodeAssembleAndMips(enc);
      work.encodeToneMap(enc, target);
      device.queue.submit([enc.finish()]);
      await device.queue.onSubmittedWorkDone();
      u.destroy();
    }
    const shapes: unknown[] = [];
    for (const shape of WORKGROUP_SHAPES) {
      opts.log(`compute ${width}x${height} mip ${shape[0]}x${shape[1]}`);
      const gpu = { assemble: [] as number[], mips: [] as number[], tonemap: [] as number[], total: [] as number[] };
      const wall: number[] = [];
      const runs = opts.quick ? 2 : 15;
      for (let i = -2; i < runs; i++) {
        const enc = device.createCommandEncoder();
        const uniform = work.encodeAssembleAndMips(enc, { ...(timer ? { timer, slot: 0 } : {}), shape });
        work.encodeToneMap(enc, target, timer ? timer.writes(2) : undefined);
        if (timer) timer.resolve(enc, 3);
        const t0 = performance.now();
        device.queue.submit([enc.finish()]);
        await device.queue.onSubmittedWorkDone();
        const w = performance.now() - t0;
        uniform.destroy();
        if (i < 0) continue;
        wall.push(w);
        if (timer) {
          const [a, m, t] = await timer.read(3);
          gpu.assemble.push(a!);
          gpu.mips.push(m!);
          gpu.tonemap.push(t!);
          gpu.total.push(a! + m! + t!);
        }
      }
      shapes.push({
        workgroup: `${shape[0]}x${shape[1]}`,
        gpuMs: timer
          ? {
              assemble: r3(median(gpu.assemble)),
              mipChain: r3(median(gpu.mips)),
              toneMap: r3(median(gpu.tonemap)),
              mipPlusToneMap: r3(median(gpu.mips) + median(gpu.tonemap)),
              total: r3(median(gpu.total)),
            }
          : null,
        wallMsAroundSubmit: r3(median(wall)),
      });
    }
    // where the tone-map's time goes: the same pass with a shader that only copies, and the same toneMapPixel in a compute pass
    const split: Record<string, number | string> = {};
    if (timer) {
      for (const v of toneMapVariants(kit, work, target)) {
        const ms: number[] = [];
        for (let i = -3; i < (opts.quick ? 2 : 15); i++) {
          const enc = device.createCommandEncoder();
          v.encode(enc, timer.writes(0));
          timer.resolve(enc, 1);
          device.queue.submit([enc.finish()]);
          const [t] = await timer.read(1);
          if (i >= 0) ms.push(t!);
        }
        split[v.name] = r3(median(ms));
      }
    }
    // bytes each stage must move at least (rgba32float MIP chain): the floor against device bandwidth
    let chain = 0;
    for (let w = width, h = height, l = 0; l < work.mip.mipLevelCount; l++, w = Math.max(1, w >> 1), h = Math.max(1, h >> 1))
      chain += w * h * 16;
    out.push({
      width,
      height,
      mipLevels: work.mip.mipLevelCount,
      minBytes: { assemble: width * height * (8 + 16), mipChain: 2 * chain - width * height * 16, toneMap: width * height * (16 + 4) },
      shapes,
      toneMapSplitGpuMs: split,
    });
    timer?.destroy();
    target.destroy();
    work.destroy();
  }
  uploader.destroy();
  return out;
}

export async function benchThumbnails(dawn: DawnDevice, opts: BenchOptions): Promise<{ sizes: unknown[]; calibration: unknown }> {
  const { device } = dawn;
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  const uploader = createUploader(device, { ringBytes: 320 << 20, label: 'thumbs' });
  const cpu = new CpuThumbnailer(opts.entry);
  const sizes: [number, number][] = opts.quick
    ? [
        [320, 180],
        [640, 360],
        [960, 540],
      ]
    : [
        [640, 360],
        [1280, 720],
        [1920, 1080],
        [3840, 2160],
        [7680, 4320],
      ];
  const longSidePx = 256;
  const runs = opts.quick ? 3 : 7;
  const rows: unknown[] = [];
  const gpuSamples: CostSample[] = [];
  const cpuSamples: CostSample[] = [];
  const gpuReusedSamples: CostSample[] = [];
  for (const [width, height] of sizes) {
    opts.log(`thumbnail ${width}x${height}`);
    const p = makeHalfPlanes(width, height, width);
    const g: number[] = [];
    const gReused: number[] = [];
    const c: number[] = [];
    const scratch = thumbnailScratch(kit, dummies, width, height, longSidePx);
    let gOut: Awaited<ReturnType<typeof gpuThumbnail>> | null = null;
    let cOut: Awaited<ReturnType<CpuThumbnailer['thumbnail']>> | null = null;
    for (let i = -1; i < runs; i++) {
      let t0 = performance.now();
      gOut = await gpuThumbnail(kit, dummies, uploader, p, longSidePx);
      const gm = performance.now() - t0;
      t0 = performance.now();
      await gpuThumbnail(kit, dummies, uploader, p, longSidePx, scratch);
      const gr = performance.now() - t0;
      t0 = performance.now();
      cOut = await cpu.thumbnail(p, longSidePx);
      const cm = performance.now() - t0;
      if (i >= 0) {
        g.push(gm);
        gReused.push(gr);
        c.push(cm);
      }
    }
    // the two thumbnails should show the same picture (MIP + bilinear vs exact box filter differ a little)
    let diff = 0;
    let maxDiff = 0;
    const same = gOut!.width === cOut!.width && gOut!.height === cOut!.height;
    if (same) {
      for (let i = 0; i < gOut!.rgba.length; i++) {
        if ((i & 3) === 3) continue;
        const d = Math.abs(gOut!.rgba[i]! - cOut!.rgba[i]!);
        diff += d;
        maxDiff = Math.max(maxDiff, d);
      }
      diff /= (gOut!.rgba.length / 4) * 3;
    }
    destroyScratch(scratch);
    gpuSamples.push({ pixels: width * height, ms: median(g) });
    gpuReusedSamples.push({ pixels: width * height, ms: median(gReused) });
    cpuSamples.push({ pixels: width * height, ms: median(c) });
    rows.push({
      width,
      height,
      thumb: `${gOut!.width}x${gOut!.height}`,
      gpuMs: r3(median(g)),
      gpuReusedResourcesMs: r3(median(gReused)),
      gpuUploadCpuCopyMs: r3(gOut!.upload.cpuCopyMs),
      cpuMs: r3(median(c)),
      faster: Math.min(median(g), median(gReused)) < median(c) ? 'gpu' : 'cpu',
      agreement: same ? { meanAbsDiff8bit: r3(diff), maxAbsDiff8bit: maxDiff } : 'sizes differ',
    });
  }
  await cpu.close();
  uploader.destroy();
  const key = adapterKey(dawn.adapterInfo);
  // two calibrations: GPU resources made per image (what a naive thumbnailer does), and kept per size (what it should do)
  const calibration = buildCalibration({ adapter: key, cpuThreads: cpu.threads, longSidePx, gpu: gpuSamples, cpu: cpuSamples });
  const calibrationReusedResources = buildCalibration({
    adapter: key,
    cpuThreads: cpu.threads,
    longSidePx,
    gpu: gpuReusedSamples,
    cpu: cpuSamples,
  });
  return { sizes: rows, calibration, calibrationReusedResources } as { sizes: unknown[]; calibration: unknown };
}

export function hostInfo(): unknown {
  return { cpuModel: cpus()[0]?.model ?? '', cpuThreads: availableParallelism(), node: process.version };
}

/** Tone-map variants: the preview render pass, the renderer's compute pass, and to split the render pass's cost a copy-only fragment pass and a bare toneMapPixel compute pass. */
function toneMapVariants(
  kit: ShaderKit,
  work: GpuImageWork,
  target: GPUTexture,
): { name: string; encode: (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites) => void }[] {
  const d = kit.device;
  const vs = `@vertex fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}`;
  const copyModule = d.createShaderModule({
    code: `@group(0) @binding(0) var image: texture_2d<f32>;
${vs}
@fragment fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f { return textureLoad(image, vec2i(pos.xy), 0); }`,
  });
  const copyPipe = d.createRenderPipeline({
    layout: 'auto',
    vertex: { module: copyModule, entryPoint: 'vs' },
    fragment: { module: copyModule, entryPoint: 'fs', targets: [{ format: target.format }] },
  });
  const copyGroup = d.createBindGroup({
    layout: copyPipe.getBindGroupLayout(0),
    entries: [{ binding: 0, resource: work.mip.createView({ baseMipLevel: 0, mipLevelCount: 1 }) }],
  });
  const storage = d.createTexture({ size: [target.width, target.height], format: 'rgba8unorm', usage: GPUTextureUsage.STORAGE_BINDING });
  const storageGroup = previewTargetBindGroup(kit, storage);
  const computeModule = d.createShaderModule({
    code: `${displayCoreSource()}
@group(0) @binding(0) var<uniform> disp: Display;
@group(0) @binding(1) var image: texture_2d<f32>;
@group(0) @binding(2) var<uniform> palette: Palette;
@group(0) @binding(3) var dst: texture_storage_2d<rgba8unorm, write>;
@compute @workgroup_size(16, 16) fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(dst);
  if (id.x >= size.x || id.y >= size.y) { return; }
  let raw = textureLoad(image, vec2i(id.xy), 0);
  textureStore(dst, vec2i(id.xy), vec4f(toneMapPixel(raw, vec2f(id.xy), disp), 1.0));
}`,
  });
  const computePipe = d.createComputePipeline({ layout: 'auto', compute: { module: computeModule, entryPoint: 'main' } });
  const dispBlock = new UniformBlock(64);
  packDisplay(dispBlock, 0, DEFAULT_DISPLAY);
  const dispBuf = d.createBuffer({ size: 64, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  d.queue.writeBuffer(dispBuf, 0, dispBlock.bytes);
  const palBlock = new UniformBlock(PALETTE_BYTES);
  packPalette(palBlock);
  const palBuf = d.createBuffer({ size: PALETTE_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
  d.queue.writeBuffer(palBuf, 0, palBlock.bytes);
  const computeGroup = d.createBindGroup({
    layout: computePipe.getBindGroupLayout(0),
    entries: [
      { binding: 0, resource: { buffer: dispBuf } },
      { binding: 1, resource: work.mip.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
      { binding: 2, resource: { buffer: palBuf } },
      { binding: 3, resource: storage.createView() },
    ],
  });
  // the LUT bindings of lut.wgsl (group 2; no LUT loaded, as the default view runs)
  const lutGroup = d.createBindGroup({
    layout: computePipe.getBindGroupLayout(2),
    entries: kit.lutEntries().filter((e) => e.binding <= 2),
  });
  const emptyGroup = d.createBindGroup({ layout: computePipe.getBindGroupLayout(1), entries: [] });
  return [
    { name: 'previewPass', encode: (e, ts) => work.encodeToneMap(e, target, ts) },
    {
      name: 'fragmentCopyOnly',
      encode: (e, ts) => {
        const pass = e.beginRenderPass({
          colorAttachments: [{ view: target.createView(), loadOp: 'clear', storeOp: 'store' }],
          timestampWrites: ts,
        });
        pass.setPipeline(copyPipe);
        pass.setBindGroup(0, copyGroup);
        pass.draw(3);
        pass.end();
      },
    },
    {
      // the renderer's own compute tone-map (shaders/target-compute.wgsl through ShaderKit), as the engine runs it
      name: 'previewComputePass',
      encode: (e, ts) => work.encodeToneMapCompute(e, storage, storageGroup, ts),
    },
    {
      name: 'computeToneMapPixel16x16',
      encode: (e, ts) => {
        const pass = e.beginComputePass({ timestampWrites: ts });
        pass.setPipeline(computePipe);
        pass.setBindGroup(0, computeGroup);
        pass.setBindGroup(1, emptyGroup);
        pass.setBindGroup(2, lutGroup);
        pass.dispatchWorkgroups(Math.ceil(target.width / 16), Math.ceil(target.height / 16));
        pass.end();
      },
    },
  ];
}
