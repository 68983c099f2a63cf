// GradingTone and GradingHueCurve as WGSL: the CPU code's float32 steps with its knots as literals, curves unrolled per segment.
import { evalCurve, type FittedCurve } from '../ops/grading-bspline.js';
import { fitHueCurve } from '../ops/grading-hue-spline.js';
import { HUE_CURVE_KINDS } from '../ops/grading-hue-curve.js';
import { prepareTone, type Knots } from '../ops/grading-tone-prepare.js';
import { HUE_CURVE_NAMES, type GradingHueCurveOp, type GradingStyle, type GradingToneOp, type HueCurveName } from '../ops/op.js';

type Lit = (v: number) => string;
const f = Math.fround;

const COMPONENTS = ['x', 'y', 'z'] as const;
const arr6 = (v: number[], lit: Lit): string => `array<f32, 6>(${v.map(lit).join(', ')})`;
const vec = (v: number[], lit: Lit): string => `vec${v.length}f(${v.map(lit).join(', ')})`;

/** One zone run on the channel `ch` (0–2) or, for the master (3), on all three. */
function onChannels(ch: number, call: (component: string, master: boolean) => string): string[] {
  const comps = ch === 3 ? COMPONENTS : [COMPONENTS[ch]!];
  return comps.map((comp) => `v.${comp} = ${call(`v.${comp}`, ch === 3)};`);
}

export function gradingToneWgsl(op: GradingToneOp, lit: Lit): string {
  const p = prepareTone(op);
  if (p.bypass) return '';
  const inv = op.direction === 'inverse';
  const order = inv ? [3, 0, 1, 2] : [0, 1, 2, 3];
  const mids = order.flatMap((ch) => {
    const k = p.mids[ch];
    return k
      ? onChannels(ch, (t, master) => `ocioGtMids(${t}, ${arr6(k.x, lit)}, ${arr6(k.y, lit)}, ${arr6(k.m, lit)}, ${inv}, ${master})`)
      : [];
  });
  const highlightShadow = (isShadow: boolean): string[] =>
    order.flatMap((ch) => {
      let value = f((isShadow ? op.shadows : op.highlights).rgbm[ch]!);
      if (!isShadow) value = f(2 - value);
      if (value === 1) return [];
      const k: Knots = (isShadow ? p.shadows : p.highlights)[ch]!;
      const curveInverse = value < 1 === inv;
      return onChannels(ch, (t) => `ocioGtFauxCubic(${t}, ${vec(k.x, lit)}, ${vec(k.y, lit)}, ${vec(k.m, lit)}, ${curveInverse})`);
    });
  const whiteBlack = (isBlack: boolean): string[] =>
    order.flatMap((ch) => {
      const value = f((isBlack ? op.blacks : op.whites).rgbm[ch]!);
      const test = isBlack ? f(2 - value) : value;
      if (test === 1) return [];
      const k = (isBlack ? p.blacks : p.whites)[ch]!;
      const knots = vec([...k.x, ...k.y], lit);
      const slopes = vec([...k.m, k.gain], lit);
      return onChannels(ch, (t) => `ocioGtWhiteBlack(${t}, ${knots}, ${slopes}, ${test < 1 ? -1 : 1}.0, ${isBlack}, ${inv})`);
    });
  const contrast = p.sContrast
    ? COMPONENTS.map((comp) => {
        const { top, bottom, contrast: k } = p.sContrast!;
        const ends = [top, bottom].map((e) => `${vec([e.x[1]!, e.x[2]!, e.y[1]!, e.y[2]!], lit)}, ${vec(e.m, lit)}`);
        return `v.${comp} = ocioGtContrast(v.${comp}, ${ends[0]}, ${ends[1]}, ${vec([k, p.pivot], lit)}, ${inv});`;
      })
    : [];
  const stages = inv
    ? [contrast, whiteBlack(true), highlightShadow(true), whiteBlack(false), highlightShadow(false), mids]
    : [mids, highlightShadow(false), whiteBlack(false), highlightShadow(true), whiteBlack(true), contrast];
  const linear = op.style === 'linear';
  const body = [
    `var v = ${linear ? 'ocioSseLinToLog(c.xyz)' : 'c.xyz'};`,
    ...stages.flat(),
    `c = vec4f(min(${linear ? 'ocioSseLogToLin(v)' : 'v'}, vec3f(65504.0)), c.w);`,
  ];
  return `{\n    ${body.join('\n    ')}\n  }`;
}

/** `out = curve(x)` (or `identity` for an identity curve) as an if-chain over the curve's segments. */
export function curveAt(c: FittedCurve | null, x: string, identity: string, out: string, lit: Lit): string {
  if (!c) return `${out} = ${identity};`;
  const n = c.knots.length;
  const end = c.knots[n - 1]!;
  const seg = (i: number): string =>
    `{ let ct = cx - ${lit(c.knots[i]!)}; ${out} = (${lit(c.a[i]!)} * ct + ${lit(c.b[i]!)}) * ct + ${lit(c.c[i]!)}; }`;
  const parts = [
    `if (cx <= ${lit(c.knots[0]!)}) { ${out} = (cx - ${lit(c.knots[0]!)}) * ${lit(c.b[0]!)} + ${lit(c.c[0]!)}; }`,
    // the line past the last knot: its value and slope there, as evalCurve computes them
    `else if (cx >= ${lit(end)}) { ${out} = (cx - ${lit(end)}) * ${lit(endSlope(c))} + ${lit(evalCurve(c, end))}; }`,
  ];
  for (let i = 0; i < c.a.length - 1; i++) parts.push(`else if (cx < ${lit(c.knots[i + 1]!)}) ${seg(i)}`);
  parts.push(`else ${seg(c.a.length - 1)}`);
  return `{ let cx = ${x}; ${parts.join(' ')} }`;
}

function endSlope(c: FittedCurve): number {
  const last = c.a.length - 1;
  const t = f(c.knots[c.knots.length - 1]! - c.knots[c.knots.length - 2]!);
  return f(f(f(2 * c.a[last]!) * t) + c.b[last]!);
}

/** `out` = the inverse of a monotone curve at y (OCIO's evalCurveRev), or of the hue-hue / hue-fx curve (evalCurveRevHue). */
export function curveInverseAt(c: FittedCurve | null, y: string, out: string, lit: Lit, hue: 'none' | 'hueHue' | 'hueFx'): string {
  if (!c) return `${out} = ${y};`;
  const n = c.knots.length;
  const last = c.a.length - 1;
  const start = c.knots[0]!,
    end = c.knots[n - 1]!;
  const fx = hue === 'hueFx';
  const endY = f(evalCurve(c, end) + (fx ? end : 0));
  const startY = fx ? f(c.c[0]! + start) : c.c[0]!;
  const segY = (i: number): number => (fx ? f(c.c[i]! + c.knots[i]!) : c.c[i]!);
  const solve = (i: number): string =>
    `${out} = ocioQuadInv(cy, ${lit(c.a[i]!)}, ${lit(fx ? f(c.b[i]! + 1) : c.b[i]!)}, ${lit(segY(i))}, ${lit(c.knots[i]!)});`;
  const chain: string[] = [];
  for (let i = 0; i < last; i++) chain.push(`${i ? 'else ' : ''}if (cy < ${lit(segY(i + 1))}) { ${solve(i)} }`);
  chain.push(last ? `else { ${solve(last)} }` : solve(last));
  if (hue !== 'none') {
    const [lo, hi] = [lit(startY), lit(endY)];
    const wrap = `if (cy < ${lo}) { cy = cy + ceil(${lo} - cy); } else if (cy > ${hi}) { cy = cy - ceil(cy - ${hi}); }`;
    return `{ var cy = ${y}; ${wrap} ${chain.join(' ')} }`;
  }
  const b0 = c.b[0]!;
  const slope = endSlope(c);
  const low = Math.abs(b0) < f(1e-5) ? lit(start) : `(cy - ${lit(c.c[0]!)}) / ${lit(b0)} + ${lit(start)}`;
  const high = Math.abs(slope) < f(1e-5) ? lit(end) : `(cy - ${lit(endY)}) / ${lit(slope)} + ${lit(end)}`;
  const ends = `if (cy <= ${lit(c.c[0]!)}) { ${out} = ${low}; } else if (cy >= ${lit(endY)}) { ${out} = ${high}; }`;
  return `{ let cy = ${y}; ${ends} else { ${chain.join(' ')} } }`;
}

const STYLE_INDEX: Record<GradingStyle, number> = { linear: 0, log: 1, video: 2 };

export function gradingHueCurveWgsl(op: GradingHueCurveOp, lit: Lit): string {
  const k = Object.fromEntries(HUE_CURVE_NAMES.map((name) => [name, fitHueCurve(op.curves[name], HUE_CURVE_KINDS[name])])) as Record<
    HueCurveName,
    FittedCurve | null
  >;
  if (HUE_CURVE_NAMES.every((name) => k[name] === null)) return '';
  const linear = op.style === 'linear';
  const style = STYLE_INDEX[op.style];
  const lumToLog = linear ? ['y = ocioGtLinToLog(vec3f(y)).x;'] : [];
  const lumToLin = linear ? ['y = ocioGtLogToLin(vec3f(y)).x;'] : [];
  const lines = [
    `let hsy = ${op.bypassHsy ? 'c.xyz' : `ocioRgbToHsy(c.xyz, ${style})`};`,
    'var h = hsy.x; var s = hsy.y; var y = hsy.z;',
    'var hueSat: f32; var hueLum: f32; var satLum: f32; var lumSat: f32;',
  ];
  if (op.direction === 'forward') {
    lines.push(
      ...lumToLog,
      curveAt(k.hueSat, 'h', '1.0', 'hueSat', lit),
      curveAt(k.hueLum, 'h', '1.0', 'hueLum', lit),
      'hueSat = max(hueSat, 0.0); hueLum = max(hueLum, 0.0);',
      curveAt(k.hueHue, 'h', 'h', 'h', lit),
      curveAt(k.satSat, 's', 's', 's', lit),
      's = max(s, 0.0);',
      curveAt(k.lumSat, 'y', '1.0', 'lumSat', lit),
      's = s * (max(lumSat, 0.0) * hueSat);',
      curveAt(k.satLum, 's', '1.0', 'satLum', lit),
      'satLum = max(satLum, 0.0);',
      curveAt(k.lumLum, 'y', 'y', 'y', lit),
      ...lumToLin,
      'hueLum = 1.0 - (1.0 - hueLum) * min(s, 1.0);',
      linear ? 'y = y * hueLum * satLum;' : 'y = y + (hueLum + satLum - 2.0) * 0.1;',
      'h = h - floor(h);',
      `{ var fx: f32; ${curveAt(k.hueFx, 'h', '0.0', 'fx', lit)} h = h + fx; }`,
    );
  } else {
    lines.push(
      curveInverseAt(k.hueFx, 'h', 'h', lit, 'hueFx'),
      curveInverseAt(k.hueHue, 'h', 'h', lit, 'hueHue'),
      'h = h - floor(h);',
      curveAt(k.hueSat, 'h', '1.0', 'hueSat', lit),
      curveAt(k.hueLum, 'h', '1.0', 'hueLum', lit),
      'hueSat = max(hueSat, 0.0); hueLum = max(hueLum, 0.0);',
      's = max(s, 0.0);',
      curveAt(k.satLum, 's', '1.0', 'satLum', lit),
      'satLum = max(satLum, 0.0);',
      'hueLum = 1.0 - (1.0 - hueLum) * min(s, 1.0);',
      linear ? 'y = y / max(0.01, hueLum * satLum);' : 'y = y - (hueLum + satLum - 2.0) * 0.1;',
      ...lumToLog,
      curveInverseAt(k.lumLum, 'y', 'y', lit, 'none'),
      curveAt(k.lumSat, 'y', '1.0', 'lumSat', lit),
      ...lumToLin,
      's = s / max(0.01, max(lumSat, 0.0) * hueSat);',
      curveInverseAt(k.satSat, 's', 's', lit, 'none'),
      's = max(s, 0.0);',
    );
  }
  const out = op.bypassHsy ? 'vec3f(h, s, y)' : `ocioHsyToRgb(vec3f(h, s, y), ${style})`;
  return `{\n    ${[...lines, `c = vec4f(${out}, c.w);`].join('\n    ')}\n  }`;
}
