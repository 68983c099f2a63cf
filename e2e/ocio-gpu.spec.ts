// OpenColorIO on the GPU against the CPU reference (applyOps) in headless Chromium (WebGPU on SwiftShader): each op
// kind in each of its styles and directions, the baked fallback and the op kinds it bakes, and every processor of the
// studio test config, on random HDR input; and the preview pass with a processor set against toneMapPixel.
import { test, expect, type Page } from '@playwright/test';
import { serveHarness } from './harness-server.js';
import { randomHdr } from './hdr-input.js';
import { applyOps } from '../shaders/colour/processor.js';
import type { Lut1DOp, Lut3DOp, Op } from '../shaders/colour/ops/op.js';
import { buildGpuProcessor } from '../shaders/colour/gpu/processor-wgsl.js';
import { halfLutOf } from '../shaders/colour/ops/lut1d-half.js';
import { hashOps } from '../shaders/colour/gpu/hash-ops.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../shaders/display-params.js';
import { toneMapPixel } from '../shaders/tonemap-cpu.js';
import { CONFIG_DIR, loadBuilder, processorsOf } from '../testing/colour/oracle.js';
import { toWire, type WireOp } from '../testing/colour/ocio-wire.js';
import { openConfig } from '../shaders/colour/open-config.js';
import { ProcessorBuilder } from '../shaders/colour/processor.js';
import { readFileSync } from 'node:fs';

let url = '';
let close: () => Promise<void> = async () => {};
test.beforeAll(async () => {
  const served = await serveHarness('testing/colour/ocio-gpu-harness.ts');
  url = served.url;
  close = served.close;
});
test.afterAll(async () => close());

async function open(page: Page): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => 'ocioHarness' in window);
}

/** The bound: f32 WGSL (pow, log2, exp2 on SwiftShader) against applyOps, absolute to 1 and relative above. */
const TOL = 2e-3;
const PIXELS = 4096;

/** Finite HDR RGBA: log-uniform ±2^±12, negatives, zeros and values up to half-float's largest (NaN/Inf are not OCIO's GPU contract). */
const INPUT = randomHdr(PIXELS, 11, 65504).map((v) => (Number.isFinite(v) ? v : 0.5));

/** Ops judged against each pixel's largest channel: their f32 channel mixing makes a channel's error that channel's scale. */
const PIXEL_JUDGED: ReadonlySet<Op['type']> = new Set(['gradingHueCurve']);

function difference(expected: Float32Array, actual: number[], input = INPUT, byPixel = false): { maxErr: number; worst: string } {
  let maxErr = 0,
    worst = '';
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i]!,
      a = actual[i]!;
    const px = i - (i % 4);
    const scale = byPixel ? Math.max(1, ...[0, 1, 2].map((c) => Math.abs(expected[px + c]!)).filter(Number.isFinite)) : 1;
    // past f32's range both sides overflow alike (a log camera inverse of 64 in log space): ±Inf and NaN must agree
    const err = Number.isFinite(e)
      ? Math.abs(a - e) / Math.max(scale, Math.abs(e))
      : a === e || (Number.isNaN(a) && Number.isNaN(e))
        ? 0
        : Infinity;
    if (err > maxErr || Number.isNaN(err)) {
      maxErr = Number.isNaN(err) ? Infinity : err;
      worst = `in ${input.slice(px, px + 4).join(',')} cpu ${Array.from(expected.slice(px, px + 4)).join(',')} gpu ${actual.slice(px, px + 4).join(',')}`;
    }
  }
  return { maxErr, worst };
}

async function gpuApply(page: Page, ops: readonly Op[], bakeAll = false, input = INPUT): Promise<{ out: number[]; baked: number }> {
  return page.evaluate(
    ([wire, input, bake]) => window.ocioHarness.applyOnGpu(wire as WireOp[], input as number[], { bakeAll: bake as boolean }),
    [toWire(ops), input, bakeAll] as const,
  );
}

async function expectMatch(page: Page, name: string, ops: readonly Op[], input = INPUT): Promise<void> {
  const expected = Float32Array.from(input);
  applyOps(ops, expected);
  const { out } = await gpuApply(page, ops, false, input);
  const { maxErr, worst } = difference(
    expected,
    out,
    input,
    ops.some((op) => PIXEL_JUDGED.has(op.type)),
  );
  expect(maxErr, `${name}: worst ${worst}`).toBeLessThan(TOL);
}

function smoothTable1d(n: number, inverse: boolean): Lut1DOp {
  const values = new Float32Array(n * 3);
  for (let k = 0; k < n; k++) {
    const t = k / (n - 1);
    values.set([t ** 0.45, t * t * 0.9 + 0.05, 1 - 0.8 * t], k * 3);
  }
  return { type: 'lut1d', direction: inverse ? 'inverse' : 'forward', length: n, values, interpolation: 'linear', source: `t${n}` };
}

function grade3d(n: number, interpolation: Lut3DOp['interpolation']): Lut3DOp {
  const values = new Float32Array(n * n * n * 3);
  for (let r = 0; r < n; r++)
    for (let g = 0; g < n; g++)
      for (let b = 0; b < n; b++) {
        const [x, y, z] = [r / (n - 1), g / (n - 1), b / (n - 1)];
        values.set([0.8 * x + 0.2 * y * z, Math.sqrt(y) * 0.9 + 0.1 * x, z * z + 0.1 * Math.sin(3 * x)], ((r * n + g) * n + b) * 3);
      }
  return { type: 'lut3d', direction: 'forward', size: n, values, interpolation, source: `g${n}${interpolation}` };
}

const DIRS = ['forward', 'inverse'] as const;
const SIGNED_LOG_HALF = halfLutOf((x) => Math.sign(x) * Math.log2(1 + Math.abs(x)), 'e2e signed log');
const cameraParams = [0.247189, 0.385537, 5.555556, 0.052272, 0.010591];

/**
 * The Grading ops in each style and direction: the ops of a test config's spaces, both ways (grading-test.ocio: GradingPrimary and
 * GradingRGBCurve; grading-tone-hue-test.ocio: GradingTone and GradingHueCurve).
 */
function gradingCases(config: string): [string, Op][] {
  const builder = loadBuilder(`${CONFIG_DIR}/${config}`);
  return builder.config.colourSpaces
    .filter((cs) => cs.name !== 'ref')
    .flatMap((cs) => [...builder.colourSpace(cs.name, 'ref'), ...builder.colourSpace('ref', cs.name)])
    .map((op): [string, Op] => [`${op.type} ${'style' in op ? op.style : ''} ${'direction' in op ? op.direction : ''}`, op]);
}

/** One op of every kind in every style and direction the generator writes analytically. */
const OP_CASES: [string, Op][] = [
  [
    'matrix',
    { type: 'matrix', m: [1.6, -0.5, -0.07, 0, -0.12, 1.13, -0.008, 0, -0.018, -0.1, 1.1, 0, 0, 0, 0, 1], offset: [0.01, 0, -0.02, 0] },
  ],
  ['matrix diagonal', { type: 'matrix', m: [2, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1], offset: [0, 0.1, 0, 0] }],
  ['range clamped', { type: 'range', minIn: 0, maxIn: 1, minOut: 0.1, maxOut: 0.9 }],
  ['range lower only', { type: 'range', minIn: -0.5, minOut: -0.25 }],
  ...DIRS.flatMap((direction): [string, Op][] => [
    ...(['basic', 'basicMirror', 'basicPassThru'] as const).map((style): [string, Op] => [
      `gamma ${style} ${direction}`,
      { type: 'gamma', style, direction, gamma: [2.2, 2.4, 1.8, 1], offset: [0, 0, 0, 0] },
    ]),
    ...(['moncurve', 'moncurveMirror'] as const).map((style): [string, Op] => [
      `gamma ${style} ${direction}`,
      { type: 'gamma', style, direction, gamma: [2.4, 2.2, 2.6, 1], offset: [0.055, 0.099, 0.03, 0] },
    ]),
    [`log2 ${direction}`, { type: 'log', direction, base: 2, camera: false, params: [0, 1, 2].map(() => [1, 0, 1, 0]) }],
    [`log10 ${direction}`, { type: 'log', direction, base: 10, camera: false, params: [0, 1, 2].map(() => [1, 0, 1, 0]) }],
    [
      `log affine ${direction}`,
      { type: 'log', direction, base: 2, camera: false, params: [0.0625, 0.06, 0.065].map((s) => [s, 0.55, 1, 0.0078125]) },
    ],
    [`log camera ${direction}`, { type: 'log', direction, base: 10, camera: true, params: [0, 1, 2].map(() => [...cameraParams]) }],
    [
      `log camera with linear slope ${direction}`,
      { type: 'log', direction, base: 2, camera: true, params: [0, 1, 2].map(() => [0.07, 0.4, 1, 0, 0.01, 2.5]) },
    ],
    ...[true, false].map((clamp): [string, Op] => [
      `cdl ${clamp ? 'clamped' : 'no clamp'} ${direction}`,
      { type: 'cdl', direction, clamp, slope: [1.1, 1, 0.9], offset: [0.01, 0, -0.01], power: [1.05, 1, 0.95], saturation: 1.1 },
    ]),
    ...(['linear', 'video', 'log'] as const).flatMap((style) =>
      [1, 1.3].map((contrast): [string, Op] => [
        `exposure-contrast ${style} contrast ${contrast} ${direction}`,
        {
          type: 'exposureContrast',
          direction,
          style,
          exposure: 0.7,
          contrast,
          gamma: 1,
          pivot: 0.18,
          logExposureStep: 0.088,
          logMidGray: 0.435,
        },
      ]),
    ),
    [`lut1d 4096 ${direction}`, smoothTable1d(4096, direction === 'inverse')],
    [`lut1d 5000 (two rows) ${direction}`, smoothTable1d(5000, direction === 'inverse')],
  ]),
  ['lut1d nearest', { ...smoothTable1d(64, false), interpolation: 'nearest' }],
  ...DIRS.map((direction): [string, Op] => [
    `lut1d hueAdjust ${direction}`,
    { ...smoothTable1d(256, direction === 'inverse'), hueAdjust: true },
  ]),
  ['lut3d linear', grade3d(17, 'linear')],
  ['lut3d tetrahedral', grade3d(33, 'tetrahedral')],
  ['lut3d nearest', grade3d(9, 'nearest')],
  ['lut1dHalf forward', SIGNED_LOG_HALF],
  ...gradingCases('grading-test.ocio'),
  ...gradingCases('grading-tone-hue-test.ocio'),
];

/** Uniform on -0.1 to 1.2, the encoded range of log and video grades (alpha 1). */
function encodedRange(n: number, seed: number): number[] {
  return randomHdr(n, seed, 1).map((v, i) =>
    i % 4 === 3 ? 1 : Math.fround(-0.1 + 1.3 * (Number.isFinite(v) && v > 0 ? Math.min(1, (Math.log2(v) + 12) / 24) : 0.5)),
  );
}
const ENCODED = encodedRange(PIXELS, 29);

test('every op kind, style and direction matches applyOps on random HDR input', async ({ page }) => {
  await open(page);
  for (const [name, op] of OP_CASES) await expectMatch(page, name, [op]);
  for (const [name, op] of OP_CASES)
    if (op.type === 'gradingPrimary' || op.type === 'gradingRgbCurve') await expectMatch(page, `${name} on -0.1 to 1.2`, [op], ENCODED);
  // two 3D tables of different sizes in one texture, and 1D tables after them
  await expectMatch(page, 'two 3D LUTs and a 1D LUT', [grade3d(17, 'tetrahedral'), grade3d(9, 'linear'), smoothTable1d(256, false)]);
});

test('an op kind the generator does not know is baked, and the GPU runs the bake as the CPU does', async ({ page }) => {
  await open(page);
  const ops: Op[] = [
    { type: 'gamma', style: 'moncurve', direction: 'inverse', gamma: [2.4, 2.4, 2.4, 1], offset: [0.055, 0.055, 0.055, 0] },
  ];
  const { out, baked } = await gpuApply(page, ops, true);
  expect(baked).toBe(1);
  const expected = Float32Array.from(INPUT);
  applyOps(buildGpuProcessor(ops, { bakeAll: true }).gpuOps, expected);
  const { maxErr, worst } = difference(expected, out);
  expect(maxErr, worst).toBeLessThan(TOL);
});

/** Op kinds the generator bakes: the inverse of a 3D LUT (on the unit cube), of a half-domain 1D LUT, and fixed functions. */
const BAKED_CASES: [string, Op][] = [
  ['lut3d inverse', { ...grade3d(17, 'tetrahedral'), direction: 'inverse' }],
  ['lut1dHalf inverse', { ...SIGNED_LOG_HALF, direction: 'inverse' }],
  ...['RGB_TO_HSV', 'XYZ_TO_xyY', 'XYZ_TO_uvY', 'XYZ_TO_LUV', 'LIN_TO_PQ'].flatMap((style) =>
    DIRS.map((direction): [string, Op] => [`fixedFunction ${style} ${direction}`, { type: 'fixedFunction', style, direction, params: [] }]),
  ),
];

test('op kinds the generator bakes run on the GPU as their bake does on the CPU', async ({ page }) => {
  await open(page);
  for (const [name, op] of BAKED_CASES) {
    const { out, baked } = await gpuApply(page, [op]);
    expect(baked, name).toBe(1);
    const expected = Float32Array.from(INPUT);
    applyOps(buildGpuProcessor([op]).gpuOps, expected);
    const { maxErr, worst } = difference(expected, out);
    expect(maxErr, `${name}: worst ${worst}`).toBeLessThan(TOL);
  }
});

// every view of every display from every colour space (what the viewer runs) and every conversion to and from scene
// linear, each distinct op list once: SwiftShader compiles a pipeline per processor, so all 210 would take too long
test('every view and scene-linear conversion of studio-test.ocio matches applyOps on random HDR input', async ({ page }) => {
  test.setTimeout(600_000);
  await open(page);
  const builder = loadBuilder(`${CONFIG_DIR}/studio-test.ocio`);
  const seen = new Set<string>();
  for (const args of processorsOf(builder)) {
    if (args[0] === 'cs' && !args.includes('Linear Rec.709')) continue;
    const ops = args[0] === 'cs' ? builder.colourSpace(args[1]!, args[2]!) : builder.displayView(args[1]!, args[2]!, args[3]!);
    const key = hashOps(ops);
    if (seen.has(key)) continue;
    seen.add(key);
    await expectMatch(page, args.join(' / '), ops);
  }
  expect(seen.size).toBeGreaterThan(90);
});

/** Uniform [0, 1) per input value, from randomHdr's log-uniform values (their log2 spans 24 stops). */
const randomUnit = randomHdr(PIXELS, 23, 1).map((v) => (Number.isFinite(v) && v > 0 ? Math.max(0, (Math.log2(v) + 12) / 24) : 0.5));

/** The default ACES 2.0 views of the latest CG config: SDR Rec.709, SDR P3 and HDR PQ 1000 nits. */
const ACES2_VIEWS = [
  ['sRGB - Display', 'ACES 2.0 - SDR 100 nits (Rec.709)'],
  ['Display P3 - Display', 'ACES 2.0 - SDR 100 nits (P3 D65)'],
  ['Rec.2100-PQ - Display', 'ACES 2.0 - HDR 1000 nits (P3 D65)'],
] as const;

test('the ACES 2.0 output transform runs analytically and matches applyOps through the views of cg-config-latest', async ({ page }) => {
  test.setTimeout(300_000);
  await open(page);
  const opened = await openConfig('ocio://cg-config-latest', {
    readText: (path) => readFileSync(path, 'utf8'),
    readBytes: (path) => readFileSync(path),
  });
  const builder = new ProcessorBuilder(opened.config, opened.files);
  for (const [display, view] of ACES2_VIEWS) {
    for (const source of ['ACEScg', 'ACES2065-1']) {
      const ops = builder.displayView(source, display, view);
      const aces = ops.filter((op) => op.type === 'fixedFunction');
      expect(aces.map((op) => op.style)).toEqual(['ACES_OutputTransform20']);
      // the output transform is WGSL, and a PQ view's encode the ST-2084 curve: nothing is baked
      expect(buildGpuProcessor(ops).gpuOps.some((op) => op.type === 'fixedFunction')).toBe(true);
      await expectMatch(page, `${source} / ${display} / ${view}`, ops);
    }
    // display back to scene on display-linear values inside the display's cube: outside it and at its faces the
    // inverse is so steep that a few ulps of input (f32 rounding anywhere) move the scene value past the bound
    const transform = builder.displayView('ACES2065-1', display, view).find((op) => op.type === 'fixedFunction')!;
    const peak = transform.params[0]! / 100;
    const inCube = INPUT.map((v, i) => (i % 4 === 3 ? v : Math.fround(0.97 * peak * (randomUnit[i] ?? 0))));
    await expectMatch(page, `inverse output transform ${view}`, [{ ...transform, direction: 'inverse' }], inCube);
  }
});

test('the preview pass with a view transform set matches toneMapPixel with the same processor', async ({ page }) => {
  await open(page);
  const builder = loadBuilder(`${CONFIG_DIR}/studio-test.ocio`);
  const w = 64,
    h = 64;
  for (const [view, params] of [
    ['Film', { exposureEv: 0 }],
    ['Log', { exposureEv: 1.5, gamma: 2.2 }],
  ] as const) {
    const ops = builder.displayView('Linear Rec.709', 'sRGB - Display', view);
    const gpu = await page.evaluate(
      ([wire, input, ww, hh, p]) =>
        window.ocioHarness.previewThrough(wire as WireOp[], input as number[], ww as number, hh as number, p as never),
      [toWire(ops), INPUT.slice(0, w * h * 4), w, h, params] as const,
    );
    const p: DisplayParams = { ...DEFAULT_DISPLAY, ...params, ocio: { ops, key: '' } };
    let maxErr = 0;
    for (let i = 0; i < w * h; i++) {
      const ref = toneMapPixel(INPUT[i * 4]!, INPUT[i * 4 + 1]!, INPUT[i * 4 + 2]!, INPUT[i * 4 + 3]!, i % w, Math.floor(i / w), p);
      for (let c = 0; c < 3; c++) maxErr = Math.max(maxErr, Math.abs(ref[c]! - gpu[i * 4 + c]!));
    }
    expect(maxErr, view).toBeLessThan(TOL);
  }
});
