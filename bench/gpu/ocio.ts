// GPU time of the OpenColorIO view transform (issue 38) in Node + Dawn: the 4K preview (compute, as the engine runs it
// where the canvas takes storage writes, and the render pass used elsewhere) through each view of
// studio-test.ocio, the ACES 2.0 output transforms of OCIO's built-in CG config (SDR Rec.709, SDR P3, HDR PQ 1000 nits),
// and a processor baked whole into a 65³ LUT (what an op kind without WGSL costs), beside the plain tone-map pass; then the
// GPU against the CPU reference on this adapter (ocio-accuracy.ts). Bundled and run by bench/ocio-gpu.mjs; prints one JSON object last.
import './install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { readFileSync } from 'node:fs';
import { ShaderKit, type WorkgroupShape } from '../../shaders/pipelines.js';
import { DummyPlanes, previewTargetBindGroup } from '../../shaders/passes.js';
import { createUploader } from '../../shaders/upload.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { ProcessorBuilder, openConfig, parseConfig } from '../../shaders/colour/index.js';
import { buildGpuProcessor, type GpuProcessor } from '../../shaders/colour/gpu/index.js';
import { adapterKey, openDawnDevice, timePasses } from './dawn.js';
import { makeHalfPlanes } from './images.js';
import { GpuImageWork } from './gpu-work.js';
import { cubeInput, gpuAccuracy, hdrInput, type Accuracy } from './ocio-accuracy.js';
import type { Op } from '../../shaders/colour/ops/op.js';

const CONFIG = 'testing/colour/configs/studio-test.ocio';
const GRADING_CONFIG = 'testing/colour/configs/grading-tone-hue-test.ocio';

/** GradingTone and GradingHueCurve in each style, both ways: the ops of grading-tone-hue-test.ocio's spaces. */
function gradingCases(): [string, Op][] {
  const readText = (p: string): string => readFileSync(p, 'utf8');
  const b = new ProcessorBuilder(parseConfig(readText(GRADING_CONFIG), GRADING_CONFIG), { readText });
  return b.config.colourSpaces
    .filter((cs) => cs.name !== 'ref')
    .flatMap((cs) => [...b.colourSpace(cs.name, 'ref'), ...b.colourSpace('ref', cs.name)].map((op): [string, Op] => [cs.name, op]))
    .map(([cs, op]): [string, Op] => [`${cs}: ${op.type} ${'direction' in op ? op.direction : ''}`, op]);
}

function aces2ExperimentBase(aces2: ProcessorBuilder): GpuProcessor {
  return buildGpuProcessor(aces2.displayView('ACEScg', 'sRGB - Display', 'ACES 2.0 - SDR 100 nits (Rec.709)'));
}

/** Workgroup shapes of the compute pass timed by `--shapes`. */
const WORKGROUP_SHAPES: WorkgroupShape[] = [
  [16, 16],
  [8, 8],
  [16, 8],
  [32, 8],
  [8, 16],
  [32, 4],
  [64, 1],
];

/** Text cuts of the generated WGSL, each timed alone (`--experiments`). */
const ACES2_EXPERIMENTS: Record<string, [string, string][]> = {
  'as built': [],
  'no tone scale': [['let tone = aces2ToneFwd(aab.x, p);', 'let tone = vec4f(100.0 * aab.x, 1.0, aab.x, 0.1);']],
  'no chroma compression': [['aces2ChromaFwd(M, tone, mNorm, reachM, p)', 'M']],
  'no gamut compression': [['aces2FromJMh(aces2GamutFwd(toned, reachM, hg, p),', 'aces2FromJMh(toned,']],
  'no cusp interval choice': [['let past = select(0, 1, h > e1.w) + select(0, 1, h > e2.w);', 'let past = 0;']],
  'no focus gain': [['let gain = aces2FocusGain(J, hg.threshold, p);', 'let gain = 100.0;']],
  'no hull lines': [
    ['let lowerN = hg.cuspM * exp2(', 'let lowerN = hg.cuspM * (jCusp + log2Source) * 0.01; let unusedLower = ('],
    ['let upperN = hg.cuspM * exp2(', 'let upperN = hg.cuspM * 1.1 * (p.limitJMax - jCusp); let unusedUpper = ('],
  ],
  'no solves': [
    ['let jSource = source.x * cusp.y * r1;', 'let jSource = J;'],
    ['let jCusp = cusp.x * source.y * r1;', 'let jCusp = hg.cuspJ;'],
  ],
  'no atan2': [
    [
      'let h = aces2WrapHalfTurns(select(aces2Atan2(aab.z, aab.y), 0.0, neutral) * ACES2_DEGREES_PER_RADIAN);',
      'let h = aces2WrapHalfTurns(180.0 * select(aab.z / aab.y, 0.0, neutral));',
    ],
  ],
  'no output CAM': [
    [
      'return aces2FromJMh(aces2GamutFwd(toned, reachM, hg, p), cosH, sinH, p.outCam);',
      'return clamp(0.01 * aces2GamutFwd(toned, reachM, hg, p) + 0.001 * (cosH + sinH), vec3f(0.0), vec3f(1.0));',
    ],
  ],
  'input CAM without its pows': [
    [
      'let cone = vec3f(aces2CopySign(aces2ConeFwd(abs(m.x)), m.x), aces2CopySign(aces2ConeFwd(abs(m.y)), m.y),\n' +
        '    aces2CopySign(aces2ConeFwd(abs(m.z)), m.z));\n  return cone * p.toAab;',
      'let cone = m / (abs(m) + 27.13);\n  return cone * p.toAab;',
    ],
  ],
};

/** WGSL cuts timed on the HDR PQ view's processor (`--experiments`). */
const HDR_EXPERIMENTS: Record<string, [string, string][]> = {
  'HDR as built': [],
  'HDR, no PQ': [['ocioLinearToPq(c.xyz)', 'c.xyz']],
  'HDR, the built-in atan2': [['select(aces2Atan2(aab.z, aab.y)', 'select(atan2(aab.z, aab.y)']],
};

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
  if (process.argv.includes('--shapes')) {
    // the compute pass's workgroup shape, the same for the plain pass and the views (the engine uses TONEMAP_WORKGROUP)
    for (const shape of WORKGROUP_SHAPES) {
      const compute = (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites | undefined, d: DisplayParams): void =>
        work.encodeToneMapCompute(e, storage, storageGroup, ts, d, shape);
      kit.setOcio(null);
      const plain = (await timePasses(dawn, runs, (e, ts) => compute(e, ts, DEFAULT_DISPLAY))).gpuMedianMs!;
      const row: Record<string, number> = { plain };
      for (const [name, make] of processors.filter(([n]) => n.startsWith('ACES 2.0'))) {
        const p = make();
        kit.setOcio(p);
        const display: DisplayParams = { ...DEFAULT_DISPLAY, ocio: { ops: p.gpuOps, key: p.key } };
        const ms = (await timePasses(dawn, runs, (e, ts) => compute(e, ts, display))).gpuMedianMs!;
        row[name] = ms;
        row[`${name} over plain`] = ms / plain;
      }
      out[`shape ${shape[0]}x${shape[1]}`] = row;
    }
    console.log(JSON.stringify(out));
    process.exit(0);
  }
  if (process.argv.includes('--experiments')) {
    // where the ACES 2.0 time goes on the engine's compute path: the SDR view's WGSL with one part cut (wrong values)
    const base = aces2ExperimentBase(aces2);
    kit.setOcio(null);
    out.plain = (await timePasses(dawn, runs, (e, ts) => passes.compute(e, ts, DEFAULT_DISPLAY))).gpuMedianMs;
    for (const [name, cuts] of Object.entries(ACES2_EXPERIMENTS)) {
      let wgsl = base.wgsl;
      for (const [from, to] of cuts) {
        if (!wgsl.includes(from)) throw new Error(`experiment ${name}: ${from} is not in the WGSL`);
        wgsl = wgsl.replace(from, to);
      }
      const p: GpuProcessor = { ...base, wgsl, key: `${base.key} ${name}` };
      kit.setOcio(p);
      const display: DisplayParams = { ...DEFAULT_DISPLAY, ocio: { ops: p.gpuOps, key: p.key } };
      out[name] = (await timePasses(dawn, runs, (e, ts) => passes.compute(e, ts, display))).gpuMedianMs;
    }
    const hdr = buildGpuProcessor(aces2.displayView('ACEScg', 'Rec.2100-PQ - Display', 'ACES 2.0 - HDR 1000 nits (P3 D65)'));
    for (const [name, cuts] of Object.entries(HDR_EXPERIMENTS)) {
      let wgsl = hdr.wgsl;
      for (const [from, to] of cuts) {
        if (!wgsl.includes(from)) throw new Error(`experiment ${name}: ${from} is not in the WGSL`);
        wgsl = wgsl.replace(from, to);
      }
      const p: GpuProcessor = { ...hdr, wgsl, key: `${hdr.key} ${name}` };
      kit.setOcio(p);
      const display: DisplayParams = { ...DEFAULT_DISPLAY, ocio: { ops: p.gpuOps, key: p.key } };
      out[name] = (await timePasses(dawn, runs, (e, ts) => passes.compute(e, ts, display))).gpuMedianMs;
    }
    console.log(JSON.stringify(out));
    process.exit(0);
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
  if (process.argv.includes('--timing-only')) {
    console.log(JSON.stringify(out));
    process.exit(0);
  }
  // the GPU against the CPU reference on this adapter: each ACES 2.0 view both ways, and the grading ops
  const accuracy: Record<string, Accuracy> = {};
  const input = hdrInput(quick ? 4096 : 65536, 11);
  for (const [display, view] of aces2Views) {
    const ops = aces2.displayView('ACEScg', display, view);
    accuracy[`${view} from ACEScg`] = await gpuAccuracy(device, ops, input);
    // display back to scene inside the display's cube, as the e2e checks it (outside, a few ulps move the scene value far)
    const transform = ops.find((op) => op.type === 'fixedFunction')!;
    const inCube = cubeInput(input.length / 4, 23, (0.97 * transform.params[0]!) / 100);
    accuracy[`${view} inverse, in the cube`] = await gpuAccuracy(device, [{ ...transform, direction: 'inverse' }], inCube);
  }
  for (const [name, op] of gradingCases()) accuracy[name] = await gpuAccuracy(device, [op], input);
  out.accuracy = accuracy;
  out.worstAces2 = Math.max(
    ...Object.entries(accuracy)
      .filter(([k]) => k.startsWith('ACES'))
      .map(([, a]) => a.maxErr),
  );
  // GradingHueCurve is judged against each pixel's largest channel (ocio-accuracy.ts pixelScale), the others per channel
  out.worstGrading = Math.max(
    ...Object.entries(accuracy)
      .filter(([k]) => !k.startsWith('ACES'))
      .map(([k, a]) => (k.includes('gradingHueCurve') ? a.pixelErr : a.maxErr)),
  );
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
