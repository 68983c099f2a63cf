// GPU time of the OpenColorIO view transform (issue 38) in Node + Dawn: the 4K preview (compute, as the engine runs it
// where the canvas takes storage writes, and the render pass used elsewhere) through each view of
// studio-test.ocio, the ACES 2.0 output transforms of OCIO's built-in CG config (SDR Rec.709, SDR P3, HDR PQ 1000 nits),
// and a processor baked whole into a 65³ LUT (what an op kind without WGSL costs), beside the plain tone-map pass. Bundled and run by bench/ocio-gpu.mjs; prints one JSON object last.
import './install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { readFileSync } from 'node:fs';
import { ShaderKit } from '../../shaders/pipelines.js';
import { DummyPlanes, previewTargetBindGroup } from '../../shaders/passes.js';
import { createUploader } from '../../shaders/upload.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { ProcessorBuilder, openConfig, parseConfig } from '../../shaders/colour/index.js';
import { buildGpuProcessor, type GpuProcessor } from '../../shaders/colour/gpu/index.js';
import { adapterKey, openDawnDevice, timePasses } from './dawn.js';
import { makeHalfPlanes } from './images.js';
import { GpuImageWork } from './gpu-work.js';

const CONFIG = 'testing/colour/configs/studio-test.ocio';

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const dawn = await openDawnDevice();
  const { device } = dawn;
  const builder = new ProcessorBuilder(parseConfig(readFileSync(CONFIG, 'utf8'), CONFIG), { readText: (p) => readFileSync(p, 'utf8') });
  const readText = (p: string): string => readFileSync(p, 'utf8');
  const cg = await openConfig('ocio://cg-config-latest', { readText, readBytes: (p) => readFileSync(p) });
  const aces2 = new ProcessorBuilder(cg.config, cg.files);
  const aces2Views: [string, string][] = [
    ['sRGB - Display', 'ACES 2.0 - SDR 100 nits (Rec.709)'],
    ['Display P3 - Display', 'ACES 2.0 - SDR 100 nits (P3 D65)'],
    ['Rec.2100-PQ - Display', 'ACES 2.0 - HDR 1000 nits (P3 D65)'],
  ];
  const processors: [string, () => GpuProcessor][] = [
    ...['Film', 'Un-tone-mapped', 'Log'].map((view): [string, () => GpuProcessor] => [
      view,
      () => buildGpuProcessor(builder.displayView('Linear Rec.709', 'sRGB - Display', view)),
    ]),
    ...aces2Views.map(([display, view]): [string, () => GpuProcessor] => [
      `${view} from ACEScg (${display})`,
      () => buildGpuProcessor(aces2.displayView('ACEScg', display, view)),
    ]),
    [
      'Film baked whole (65³ on a log shaper)',
      () => buildGpuProcessor(builder.displayView('Linear Rec.709', 'sRGB - Display', 'Film'), { bakeAll: true }),
    ],
  ];
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  const uploader = createUploader(device, { ringBytes: 320 << 20, label: 'ocio bench' });
  const [w, h] = quick ? [960, 540] : [3840, 2160];
  const runs = quick ? 5 : 30;
  const work = new GpuImageWork(kit, dummies, w, h, 'r16float');
  await work.uploadPlanes(uploader, makeHalfPlanes(w, h, 5));
  const enc0 = device.createCommandEncoder();
  const staging = work.encodeAssembleAndMips(enc0);
  device.queue.submit([enc0.finish()]);
  await device.queue.onSubmittedWorkDone();
  staging.destroy();
  const target = device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
  // the engine's path wherever the canvas takes storage writes (renderer/gpu/gpu-session.ts chooseToneMapPath)
  const storage = device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.STORAGE_BINDING });
  const storageGroup = previewTargetBindGroup(kit, storage);
  const passes = {
    compute: (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites | undefined, d: DisplayParams) =>
      work.encodeToneMapCompute(e, storage, storageGroup, ts, d),
    renderPass: (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites | undefined, d: DisplayParams) =>
      work.encodeToneMap(e, target, ts, d),
  };
  const out: Record<string, unknown> = { adapter: adapterKey(dawn.adapterInfo), timestamps: dawn.timestamps, imagePx: [w, h], runs };
  // warm the clocks (an idle GPU's clocks sit low) on the plain pass
  for (let i = 0; i < (quick ? 1 : 40); i++) {
    const e = device.createCommandEncoder();
    work.encodeToneMap(e, target, undefined, DEFAULT_DISPLAY);
    device.queue.submit([e.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
  for (const [path, encode] of Object.entries(passes)) {
    kit.setOcio(null);
    const plain = await timePasses(dawn, runs, (e, ts) => encode(e, ts, DEFAULT_DISPLAY));
    out[`${path}.plain`] = plain;
    for (const [name, make] of processors) {
      const t0 = performance.now();
      const p = make();
      const buildMs = performance.now() - t0;
      kit.setOcio(p);
      const display: DisplayParams = { ...DEFAULT_DISPLAY, ocio: { ops: p.gpuOps, key: p.key } };
      const t = await timePasses(dawn, runs, (e, ts) => encode(e, ts, display));
      const base = plain.gpuMedianMs ?? plain.wallMedianMs;
      out[`${path}.ocio.${name}`] = { ...t, buildMs, bakedOps: p.bakedOpCount, overPlain: (t.gpuMedianMs ?? t.wallMedianMs) / base };
    }
  }
  kit.setOcio(null);
  work.destroy();
  target.destroy();
  storage.destroy();
  dummies.destroy();
  uploader.destroy();
  kit.dispose();
  console.log(JSON.stringify(out));
  process.exit(0);
}

void main();
