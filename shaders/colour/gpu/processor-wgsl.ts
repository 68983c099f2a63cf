// A processor's op list as WGSL: `fn ocio_apply(c: vec4f) -> vec4f`, analytic where OCIO is analytic, LUTs read from
// the textures of ocio-luts.wgsl, and any op kind not known here baked into a 3D LUT on a log shaper (bake.ts).
import type { CdlOp, ExposureContrastOp, GammaOp, HalfLut1DOp, LogOp, MatrixOp, Op, RangeOp } from '../ops/op.js';
import { moncurveParams } from '../ops/gamma.js';
import { rangeScaleOffset } from '../ops/range.js';
import { ACES2_WGSL, aces2Wgsl, isAces2Analytic } from './aces2-wgsl.js';
import { bakeOps } from './bake.js';
import { gradingPrimaryWgsl } from './grading-primary-wgsl.js';
import { gradingRgbCurveWgsl } from './grading-rgb-curve-wgsl.js';
import { gradingHueCurveWgsl, gradingToneWgsl } from './grading-wgsl.js';
import { GRADING_WGSL } from './grading-wgsl-lib.js';
import { hashOps } from './hash-ops.js';
import { LutAtlas, type TextureData } from './lut-atlas.js';
import { F32_MAX, lit } from './wgsl-literal.js';

export { lit };

/** The source of the half-domain table the built-in PQ displays encode with (shaders/colour/builtins/displays.ts). */
const PQ_ENCODE_SOURCE = 'builtin:LINEAR_TO_PQ';

/** Everything the GPU needs for one processor: its WGSL, its two LUT textures, and the key pipelines are cached by. */
export interface GpuProcessor {
  key: string;
  wgsl: string;
  lut1d: TextureData;
  lut3d: TextureData;
  /** How many of the processor's ops were baked into 3D LUTs (0 when every op is analytic or a LUT). */
  bakedOpCount: number;
  /** The ops the WGSL runs (baked runs replaced by their shaper and LUT): applyOps on these is the GPU's CPU twin. */
  gpuOps: Op[];
}

/** The WGSL of the identity processor: what the display core is built with when no config is loaded. */
export const OCIO_IDENTITY_WGSL = 'fn ocio_apply(c: vec4f) -> vec4f { return c; }\n';

const KNOWN = new Set<string>([
  'matrix',
  'range',
  'gamma',
  'log',
  'cdl',
  'exposureContrast',
  'lut1d',
  'lut3d',
  'gradingPrimary',
  'gradingRgbCurve',
  'gradingTone',
  'gradingHueCurve',
]);

/** Whether the generator writes `op` as WGSL itself; anything else is baked. An inverse 3D LUT has no analytic form. */
export function isAnalytic(op: Op): boolean {
  if (op.type === 'fixedFunction') return isAces2Analytic(op);
  if (op.type === 'lut1dHalf') return op.direction === 'forward';
  return KNOWN.has(op.type) && !(op.type === 'lut3d' && op.direction === 'inverse');
}

export interface GpuProcessorOptions {
  /** Bake every op (tests measure the fallback with ops whose CPU code is known). */
  bakeAll?: boolean;
}

export function buildGpuProcessor(ops: readonly Op[], options: GpuProcessorOptions = {}): GpuProcessor {
  const lowered: Op[] = [];
  let run: Op[] = [];
  let bakedOpCount = 0;
  const flush = (): void => {
    if (run.length === 0) return;
    bakedOpCount += run.length;
    lowered.push(...bakeOps(run));
    run = [];
  };
  for (const op of ops) {
    if (options.bakeAll || !isAnalytic(op)) {
      // a 3D LUT clamps its input to the unit cube, so a run that starts with one is baked there, without a shaper
      if (op.type === 'lut3d') flush();
      run.push(op);
    } else {
      flush();
      lowered.push(op);
    }
  }
  flush();
  const atlas = new LutAtlas();
  const body = lowered.map((op) => `  ${opWgsl(op, atlas)}`).join('\n');
  const apply = `fn ocio_apply(c0: vec4f) -> vec4f {\n  var c = c0;\n${body}\n  return vec4f(c.xyz, c0.w);\n}\n`;
  const grading = lowered.some((op) => op.type.startsWith('grading'));
  const wgsl = (lowered.some((op) => op.type === 'fixedFunction') ? apply + ACES2_WGSL : apply) + (grading ? GRADING_WGSL : '');
  return {
    key: hashOps(ops, options.bakeAll ? 'baked' : ''),
    wgsl,
    lut1d: atlas.texture1d(),
    lut3d: atlas.texture3d(),
    bakedOpCount,
    gpuOps: lowered,
  };
}

const vec3 = (v: readonly number[]): string => `vec3f(${lit(v[0]!)}, ${lit(v[1]!)}, ${lit(v[2]!)})`;
const vec4 = (v: readonly number[]): string => `vec4f(${lit(v[0]!)}, ${lit(v[1]!)}, ${lit(v[2]!)}, ${lit(v[3]!)})`;
const rgb = (expr: string): string => `c = vec4f(${expr}, c.w);`;

function opWgsl(op: Op, atlas: LutAtlas): string {
  switch (op.type) {
    case 'matrix':
      return matrixWgsl(op);
    case 'range':
      return rangeWgsl(op);
    case 'gamma':
      return gammaWgsl(op);
    case 'log':
      return logWgsl(op);
    case 'cdl':
      return cdlWgsl(op);
    case 'exposureContrast':
      return exposureContrastWgsl(op);
    case 'lut1d': {
      const place = atlas.add1d(op);
      const curved =
        op.direction === 'inverse'
          ? `ocioLut1dInverse(c.xyz, ${place.start}, ${op.length}, ${vec3(place.sign)})`
          : `ocioLut1d(c.xyz, ${place.start}, ${op.length}, ${op.interpolation === 'nearest'})`;
      return rgb(op.hueAdjust ? `ocioHueAdjust(c.xyz, ${curved})` : curved);
    }
    case 'lut3d': {
      const mode = op.interpolation === 'nearest' ? 0 : op.interpolation === 'linear' ? 1 : 2;
      return rgb(`ocioLut3d(c.xyz, ${atlas.add3d(op)}, ${op.size}, ${mode}u)`);
    }
    case 'fixedFunction':
      return rgb(aces2Wgsl(op, atlas, lit));
    case 'lut1dHalf':
      // the built-in displays' PQ table is OCIO's LIN_TO_PQ curve (displays.ts): analytic, cheaper than its load
      if (op.source === PQ_ENCODE_SOURCE) return rgb('ocioLinearToPq(c.xyz)');
      return rgb(`ocioHalfLut(c.xyz, ${atlas.add1dRgba(halfPairs(op))})`);
    case 'gradingPrimary':
      return gradingPrimaryWgsl(op, lit);
    case 'gradingRgbCurve':
      return gradingRgbCurveWgsl(op, lit);
    case 'gradingTone':
      return gradingToneWgsl(op, lit);
    case 'gradingHueCurve':
      return gradingHueCurveWgsl(op, lit);
    default:
      // isAnalytic() sends every other kind to the baker first
      throw new Error(`no WGSL for op ${(op as { type: string }).type}`);
  }
}

/**
 * A half-domain table as texels (entry k, the entry one code up in magnitude, 0, 0), so that `ocioHalfLut` interpolates
 * from one load; entries as OCIO reads them (NaN as 0, infinities as ±FLT_MAX). Past the largest finite half, and for
 * the infinity and NaN codes, the pair is the entry itself.
 */
function halfPairs(op: HalfLut1DOp): Float32Array {
  const readable = (v: number): number => (Number.isNaN(v) ? 0 : Math.max(-F32_MAX, Math.min(F32_MAX, v)));
  const texels = new Float32Array(op.values.length * 4);
  for (let code = 0; code < op.values.length; code++) {
    const mag = code & 0x7fff;
    const up = mag >= 0x7bff ? code : code + 1;
    texels[code * 4] = readable(op.values[code]!);
    texels[code * 4 + 1] = readable(op.values[up]!);
  }
  return texels;
}

function matrixWgsl(op: MatrixOp): string {
  const m = op.m;
  if (m.every((v, k) => k % 5 === 0 || v === 0)) return `c = c * ${vec4([m[0]!, m[5]!, m[10]!, m[15]!])} + ${vec4(op.offset)};`;
  // m is row-major, WGSL's mat4x4f takes columns
  const cols = [0, 1, 2, 3].map((j) => vec4([m[j]!, m[4 + j]!, m[8 + j]!, m[12 + j]!]));
  return `c = mat4x4f(${cols.join(', ')}) * c + ${vec4(op.offset)};`;
}

function rangeWgsl(op: RangeOp): string {
  const { scale, offset } = rangeScaleOffset(op);
  const expr = `c.xyz * ${lit(scale)} + ${lit(offset)}`;
  // select as the CPU's `lower < v ? v : lower`, so a NaN becomes the bound there too
  const steps = [`var v = ${expr};`];
  if (op.minOut !== undefined) steps.push(`v = select(vec3f(${lit(op.minOut)}), v, v > vec3f(${lit(op.minOut)}));`);
  if (op.maxOut !== undefined) steps.push(`v = select(vec3f(${lit(op.maxOut)}), v, v < vec3f(${lit(op.maxOut)}));`);
  return `{ ${steps.join(' ')} c = vec4f(v, c.w); }`;
}

function gammaWgsl(op: GammaOp): string {
  const inverse = op.direction === 'inverse';
  if (op.style === 'moncurve' || op.style === 'moncurveMirror') {
    const p = [0, 1, 2, 3].map((c) => moncurveParams(op.gamma[c]!, op.offset[c]!, inverse));
    const pick = (k: 'gamma' | 'offset' | 'breakPnt' | 'slope' | 'scale'): string => vec4(p.map((q) => q[k]));
    const v = op.style === 'moncurveMirror' ? 'abs(c)' : 'c';
    const curve = inverse
      ? `pow(max(v, vec4f(0.0)), ${pick('gamma')}) * ${pick('scale')} - ${pick('offset')}`
      : `pow(max(v * ${pick('scale')} + ${pick('offset')}, vec4f(0.0)), ${pick('gamma')})`;
    const y = `select(${curve}, v * ${pick('slope')}, v <= ${pick('breakPnt')})`;
    const out = op.style === 'moncurveMirror' ? `select(y, -y, c < vec4f(0.0))` : 'y';
    return `{ let v = ${v}; let y = ${y}; c = ${out}; }`;
  }
  const g = vec4(op.gamma.map((x) => (inverse ? 1 / x : x)));
  if (op.style === 'basic') return `c = ocioPow4(c, ${g});`;
  if (op.style === 'basicMirror') return `c = sign(c) * ocioPow4(abs(c), ${g});`;
  return `c = select(c, ocioPow4(c, ${g}), c > vec4f(0.0));`;
}

function logWgsl(op: LogOp): string {
  const f = Math.fround;
  const forward = op.direction === 'forward';
  const plain = op.params.every((p) => p[0] === 1 && p[1] === 0 && p[2] === 1 && p[3] === 0);
  if (!op.camera && plain && (op.base === 2 || op.base === 10)) {
    const scale = op.base === 2 ? 1 : forward ? f(Math.log10(2)) : f(Math.log2(10));
    return rgb(forward ? `log2(ocioMaxFltMin(c.xyz)) * ${lit(scale)}` : `ocioNanThrough(c.xyz, exp2(c.xyz * ${lit(scale)}))`);
  }
  const log2Base = f(Math.log2(f(op.base)));
  const per = [0, 1, 2].map((ch) => {
    const p = op.params[ch]!;
    const m = f(p[2]!),
      b = f(p[3]!),
      kb = f(p[1]!);
    const klog = f(p[0]! / Math.log2(op.base));
    const kinv = f(log2Base / f(p[0]!));
    if (!op.camera) return { m, b, kb, klog, kinv, linBreak: 0, logBreak: 0, linearSlope: 0, linearOffset: 0 };
    const linearSlope = p.length > 5 ? f(p[5]!) : f((p[0]! * p[2]!) / ((p[2]! * p[4]! + p[3]!) * Math.log(op.base)));
    let logBreak = f(Math.log2(f(p[2]! * p[4]! + p[3]!)));
    logBreak = f(f(logBreak * f(f(p[0]!) / log2Base)) + kb);
    const linBreak = f(p[4]!);
    const linearOffset = f(logBreak - f(linearSlope * linBreak));
    return { m, b, kb, klog: f(p[0]! / log2Base), kinv, linBreak, logBreak, linearSlope, linearOffset };
  });
  const k = (name: keyof (typeof per)[0]): string => vec3(per.map((q) => q[name]));
  const curve = forward
    ? `log2(ocioMaxFltMin(c.xyz * ${k('m')} + ${k('b')})) * ${k('klog')} + ${k('kb')}`
    : `(exp2((c.xyz - ${k('kb')}) * ${k('kinv')}) - ${k('b')}) / ${k('m')}`;
  // the antilog keeps a NaN, as the CPU's pow(2, NaN) does (forward, log2 of the FLT_MIN floor is finite on both)
  const nanThrough = (expr: string): string => (forward ? expr : `ocioNanThrough(c.xyz, ${expr})`);
  if (!op.camera) return rgb(nanThrough(curve));
  const linear = forward ? `c.xyz * ${k('linearSlope')} + ${k('linearOffset')}` : `(c.xyz - ${k('linearOffset')}) / ${k('linearSlope')}`;
  return rgb(nanThrough(`select(${curve}, ${linear}, c.xyz < ${forward ? k('linBreak') : k('logBreak')})`));
}

function cdlWgsl(op: CdlOp): string {
  const inverse = op.direction === 'inverse';
  const reciprocal = (x: number): number => 1 / Math.max(Math.fround(x), Math.fround(1e-2));
  const slope = vec3(op.slope.map((v) => (inverse ? reciprocal(v) : v)));
  const offset = vec3(op.offset.map((v) => (inverse ? -v : v)));
  const power = vec3(op.power.map((v) => (inverse ? reciprocal(v) : v)));
  const saturation = lit(inverse ? reciprocal(op.saturation) : op.saturation);
  const clamp = (v: string): string => (op.clamp ? `ocioClamp01(${v})` : v);
  const powerStep = op.clamp ? `v = ocioPowPos(${clamp('v')}, ${power});` : `v = select(ocioPowPos(v, ${power}), v, v < vec3f(0.0));`;
  const saturationStep = `{ let luma = dot(v, OCIO_LUMA); v = luma + ${saturation} * (v - luma); }`;
  const steps = inverse
    ? [`var v = ${clamp('c.xyz')};`, saturationStep, powerStep, `v = ${clamp(`(v + ${offset}) * ${slope}`)};`]
    : [`var v = c.xyz * ${slope} + ${offset};`, powerStep, saturationStep, `v = ${clamp('v')};`];
  return `{ ${steps.join(' ')} c = vec4f(v, c.w); }`;
}

function exposureContrastWgsl(op: ExposureContrastOp): string {
  const contrast = Math.max(0.001, op.contrast * op.gamma);
  const inverse = op.direction === 'inverse';
  if (op.style === 'log') {
    const pivot = Math.max(0.001, Math.log2(Math.max(0.001, op.pivot) / 0.18) * op.logExposureStep + op.logMidGray);
    const exposure = op.exposure * op.logExposureStep;
    return rgb(
      inverse
        ? `(c.xyz - ${lit(pivot)}) / ${lit(contrast)} + ${lit(pivot - exposure)}`
        : `(c.xyz + ${lit(exposure - pivot)}) * ${lit(contrast)} + ${lit(pivot)}`,
    );
  }
  const power = 0.54644808743169393;
  const video = op.style === 'video';
  const exposure = video ? Math.pow(Math.pow(2, op.exposure), power) : Math.pow(2, op.exposure);
  const pivot = video ? Math.pow(Math.max(0.001, op.pivot), power) : Math.max(0.001, op.pivot);
  if (contrast === 1) return rgb(inverse ? `c.xyz / ${lit(exposure)}` : `c.xyz * ${lit(exposure)}`);
  return rgb(
    inverse
      ? `ocioPowPos(c.xyz / ${lit(pivot)}, vec3f(${lit(1 / contrast)})) * ${lit(pivot / exposure)}`
      : `ocioPowPos(c.xyz * ${lit(exposure / pivot)}, vec3f(${lit(contrast)})) * ${lit(pivot)}`,
  );
}
