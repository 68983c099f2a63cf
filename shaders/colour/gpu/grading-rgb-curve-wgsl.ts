// GradingRGBCurve as WGSL: each channel's B-spline then the master's (inverse: the master's inverse first), knots as literals.
import { fitCurve } from '../ops/grading-bspline.js';
import type { GradingRgbCurveOp } from '../ops/op.js';
import { curveAt, curveInverseAt } from './grading-wgsl.js';

type Lit = (v: number) => string;

/** The op as a WGSL block on `c`, or '' where every curve is the identity (OCIO's local bypass, lin-to-log shaper included). */
export function gradingRgbCurveWgsl(op: GradingRgbCurveOp, lit: Lit): string {
  const [red, green, blue, master] = [op.red, op.green, op.blue, op.master].map(fitCurve);
  if (!red && !green && !blue && !master) return '';
  const shaped = op.style === 'linear' && !op.bypassLinToLog;
  const lines = [`var v = ${shaped ? 'ocioSseLinToLog(c.xyz)' : 'c.xyz'};`];
  for (const [t, curve] of [
    ['v.x', red],
    ['v.y', green],
    ['v.z', blue],
  ] as const) {
    const steps =
      op.direction === 'forward'
        ? [curve && curveAt(curve, t, t, t, lit), master && curveAt(master, t, t, t, lit)]
        : [master && curveInverseAt(master, t, t, lit, 'none'), curve && curveInverseAt(curve, t, t, lit, 'none')];
    for (const step of steps) if (step) lines.push(step);
  }
  lines.push(`c = vec4f(${shaped ? 'ocioSseLogToLin(v)' : 'v'}, c.w);`);
  return `{\n    ${lines.join('\n    ')}\n  }`;
}
