// One config transform (a tagged YAML map) → ops, in either direction; the config-level transforms recurse through `ProcessorBuilder`.

import { builtinTransformOps, fixedFunctionOps } from './builtins/transform.js';
import { ColourConfigError } from './errors.js';
import { gradingHueCurveOp, gradingPrimaryOp, gradingRgbCurveOp, gradingToneOp } from './ops/grading-transforms.js';
import { invertMatrix } from './ops/matrix.js';
import { rangeScaleOffset } from './ops/range.js';
import { flip, type Direction, type GammaStyle, type Op } from './ops/op.js';
import type { TaggedMap } from './yaml-tree.js';

/** What a transform needs from the processor builder: files, and the config-level transforms. */
export interface TransformHost {
  file: string;
  version: number;
  /** The ops of a LUT file named in a FileTransform (resolved through search_path and context variables). */
  fileOps(src: string, interpolation: string, line: number): Op[];
  colourSpaceOps(src: string, dst: string, line: number, dataBypass: boolean): Op[];
  displayViewOps(src: string, display: string, view: string, line: number, looksBypass: boolean): Op[];
  lookOps(src: string, dst: string, looks: string, line: number, skipConversion: boolean): Op[];
}

export function transformOps(host: TransformHost, t: TaggedMap, direction: Direction): Op[] {
  const dir = t.direction === 'inverse' ? flip(direction) : direction;
  const fail = (reason: string): never => {
    throw new ColourConfigError(host.file, t.$line, reason);
  };
  switch (t.$tag) {
    case 'GroupTransform': {
      const children = Array.isArray(t.children) ? (t.children as TaggedMap[]) : [];
      const ops = children.map((child) => transformOps(host, child, dir));
      return (dir === 'forward' ? ops : ops.reverse()).flat();
    }
    case 'MatrixTransform': {
      const m = numberList(t.matrix, 16, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1], fail, 'matrix');
      const offset = numberList(t.offset, 4, [0, 0, 0, 0], fail, 'offset');
      const op = { type: 'matrix' as const, m, offset };
      if (dir === 'forward') return [op];
      return [invertMatrix(op) ?? fail('the matrix is singular, so it has no inverse: fix the matrix or the direction')];
    }
    case 'ExponentTransform': {
      const gamma = rgba(t.value, 1, fail, 'value');
      const style = String(t.style ?? t.negative_style ?? 'clamp');
      const styles: Record<string, GammaStyle> = { clamp: 'basic', mirror: 'basicMirror', pass_thru: 'basicPassThru' };
      if (!styles[style]) fail(`negative_style "${style}" is not clamp, mirror or pass_thru`);
      return [{ type: 'gamma', style: styles[style]!, direction: dir, gamma, offset: [0, 0, 0, 0] }];
    }
    case 'ExponentWithLinearTransform': {
      const gamma = rgba(t.gamma, 1, fail, 'gamma');
      const offset = rgba(t.offset, 0, fail, 'offset');
      const style = String(t.style ?? t.negative_style ?? 'linear');
      if (style !== 'linear' && style !== 'mirror') fail(`negative_style "${style}" is not linear or mirror`);
      return [{ type: 'gamma', style: style === 'mirror' ? 'moncurveMirror' : 'moncurve', direction: dir, gamma, offset }];
    }
    case 'LogTransform': {
      const base = t.base === undefined ? 2 : Number(t.base);
      return [{ type: 'log', direction: dir, base, params: [0, 1, 2].map(() => [1, 0, 1, 0]), camera: false }];
    }
    case 'LogAffineTransform':
    case 'LogCameraTransform': {
      const camera = t.$tag === 'LogCameraTransform';
      const base = t.base === undefined ? 2 : Number(t.base);
      const logSlope = rgb(t.log_side_slope, 1, fail, 'log_side_slope');
      const logOffset = rgb(t.log_side_offset, 0, fail, 'log_side_offset');
      const linSlope = rgb(t.lin_side_slope, 1, fail, 'lin_side_slope');
      const linOffset = rgb(t.lin_side_offset, 0, fail, 'lin_side_offset');
      if (camera && t.lin_side_break === undefined) fail('a LogCameraTransform needs lin_side_break');
      const linBreak = camera ? rgb(t.lin_side_break, 0, fail, 'lin_side_break') : [];
      const linearSlope = t.linear_slope === undefined ? undefined : rgb(t.linear_slope, 1, fail, 'linear_slope');
      const params = [0, 1, 2].map((c) => [
        logSlope[c]!,
        logOffset[c]!,
        linSlope[c]!,
        linOffset[c]!,
        ...(camera ? [linBreak[c]!] : []),
        ...(camera && linearSlope ? [linearSlope[c]!] : []),
      ]);
      return [{ type: 'log', direction: dir, base, params, camera }];
    }
    case 'RangeTransform': {
      const value = (key: string): number | undefined => (t[key] === undefined ? undefined : Number(t[key]));
      const range = {
        type: 'range' as const,
        minIn: value('min_in_value'),
        maxIn: value('max_in_value'),
        minOut: value('min_out_value'),
        maxOut: value('max_out_value'),
      };
      const forward =
        dir === 'forward'
          ? range
          : { type: 'range' as const, minIn: range.minOut, maxIn: range.maxOut, minOut: range.minIn, maxOut: range.maxIn };
      if (
        (forward.minIn === undefined) !== (forward.minOut === undefined) ||
        (forward.maxIn === undefined) !== (forward.maxOut === undefined)
      ) {
        fail('a RangeTransform sets min_in_value with min_out_value and max_in_value with max_out_value: give each pair');
      }
      if (String(t.style ?? 'Clamp').toLowerCase() === 'noclamp') {
        const { scale, offset } = rangeScaleOffset(forward);
        return [{ type: 'matrix', m: [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1], offset: [offset, offset, offset, 0] }];
      }
      return [forward];
    }
    case 'CDLTransform': {
      const slope = rgb(t.slope, 1, fail, 'slope'),
        offset = rgb(t.offset, 0, fail, 'offset'),
        power = rgb(t.power, 1, fail, 'power');
      const saturation = t.sat === undefined ? 1 : Number(t.sat);
      if (host.version < 2) return legacyCdlOps(slope, offset, power, saturation, dir);
      const style = String(t.style ?? 'noclamp').toLowerCase();
      return [
        {
          type: 'cdl',
          direction: dir,
          clamp: style === 'asc' || style === 'v1.2',
          slope,
          offset,
          power,
          saturation,
        },
      ];
    }
    case 'ExposureContrastTransform': {
      const style = String(t.style ?? 'linear').toLowerCase();
      if (style !== 'linear' && style !== 'video' && style !== 'log') fail(`ExposureContrast style "${style}" is not linear, video or log`);
      const num = (key: string, fallback: number): number => (t[key] === undefined ? fallback : Number(t[key]));
      return [
        {
          type: 'exposureContrast',
          direction: dir,
          style: style as 'linear' | 'video' | 'log',
          exposure: num('exposure', 0),
          contrast: num('contrast', 1),
          gamma: num('gamma', 1),
          pivot: num('pivot', 0.18),
          logExposureStep: num('log_exposure_step', 0.088),
          logMidGray: num('log_midway_gray', 0.435),
        },
      ];
    }
    case 'FileTransform': {
      if (typeof t.src !== 'string' || t.src === '') fail('a FileTransform needs `src:` naming a LUT file');
      const ops = host.fileOps(String(t.src), String(t.interpolation ?? 'default').toLowerCase(), t.$line);
      return dir === 'forward' ? ops : invertOps(ops, host.file, t.$line);
    }
    case 'ColorSpaceTransform': {
      const [src, dst] = [String(t.src ?? ''), String(t.dst ?? '')];
      const bypass = t.data_bypass !== false && t.data_bypass !== 'false';
      return dir === 'forward' ? host.colourSpaceOps(src, dst, t.$line, bypass) : host.colourSpaceOps(dst, src, t.$line, bypass);
    }
    case 'DisplayViewTransform': {
      const ops = host.displayViewOps(
        String(t.src ?? ''),
        String(t.display ?? ''),
        String(t.view ?? ''),
        t.$line,
        t.looks_bypass === true || t.looks_bypass === 'true',
      );
      return dir === 'forward' ? ops : invertOps(ops, host.file, t.$line);
    }
    case 'LookTransform': {
      const skip = t.skip_color_space_conversion === true || t.skip_color_space_conversion === 'true';
      if (dir === 'forward') return host.lookOps(String(t.src ?? ''), String(t.dst ?? ''), String(t.looks ?? ''), t.$line, skip);
      return invertOps(host.lookOps(String(t.src ?? ''), String(t.dst ?? ''), String(t.looks ?? ''), t.$line, skip), host.file, t.$line);
    }
    case 'BuiltinTransform':
    case 'FixedFunctionTransform': {
      const ops = t.$tag === 'BuiltinTransform' ? builtinTransformOps(t.style, fail) : fixedFunctionOps(t.style, t.params, fail);
      return dir === 'forward' ? ops : invertOps(ops, host.file, t.$line);
    }
    case 'GradingPrimaryTransform':
      return [gradingPrimaryOp(t, dir, fail)];
    case 'GradingRGBCurveTransform':
      return [gradingRgbCurveOp(t, dir, fail)];
    case 'GradingToneTransform':
      return [gradingToneOp(t, dir, fail)];
    case 'GradingHueCurveTransform':
      // as OCIO: a config needs version 2.5 for it (a CTF node is the file's own business)
      if (host.version < 2.5 && t.$ctf !== true)
        fail("GradingHueCurveTransform needs ocio_profile_version 2.5 or later: raise the config's version or remove the transform");
      return [gradingHueCurveOp(t, dir, fail)];
    default:
      return fail(`${t.$tag ?? 'an untyped transform'} is not supported yet: exrview cannot apply this part of the config`);
  }
}

/** The inverse of a list of ops: reversed, each inverted. */
export function invertOps(ops: Op[], file: string, line: number): Op[] {
  return ops
    .slice()
    .reverse()
    .map((op): Op => {
      switch (op.type) {
        case 'matrix':
          return (
            invertMatrix(op) ??
            (() => {
              throw new ColourConfigError(file, line, 'a singular matrix has no inverse');
            })()
          );
        case 'range':
          return { type: 'range', minIn: op.minOut, maxIn: op.maxOut, minOut: op.minIn, maxOut: op.maxIn };
        default:
          return { ...op, direction: flip(op.direction) };
      }
    });
}

function numberList(value: unknown, count: number, fallback: number[], fail: (r: string) => never, key: string): number[] {
  if (value === undefined || value === null) return fallback;
  if (!Array.isArray(value) || value.length !== count) return fail(`${key} must be a list of ${count} numbers`);
  return value.map(Number);
}

function rgba(value: unknown, fallback: number, fail: (r: string) => never, key: string): number[] {
  if (value === undefined || value === null) return [fallback, fallback, fallback, fallback];
  if (typeof value === 'number' || typeof value === 'string')
    return [Number(value), Number(value), Number(value), key === 'offset' ? 0 : 1];
  if (Array.isArray(value) && value.length === 4) return value.map(Number);
  if (Array.isArray(value) && value.length === 3) return [...value.map(Number), key === 'offset' ? 0 : 1];
  return fail(`${key} must be a number or a list of 4 numbers`);
}

function rgb(value: unknown, fallback: number, fail: (r: string) => never, key: string): number[] {
  if (value === undefined || value === null) return [fallback, fallback, fallback];
  if (typeof value === 'number' || typeof value === 'string') return [Number(value), Number(value), Number(value)];
  if (Array.isArray(value) && value.length === 3) return value.map(Number);
  return fail(`${key} must be a number or a list of 3 numbers`);
}

const LUMA = [0.2126, 0.7152, 0.0722];

/** OCIO 1's CDL, which OCIO 2 keeps for v1 configs: a slope/offset matrix, an exponent that clamps negatives, a saturation matrix. */
function legacyCdlOps(slope: number[], offset: number[], power: number[], saturation: number, dir: Direction): Op[] {
  const [r, g, b] = slope as [number, number, number];
  const ops: Op[] = [
    { type: 'matrix', m: [r, 0, 0, 0, 0, g, 0, 0, 0, 0, b, 0, 0, 0, 0, 1], offset: [...offset, 0] },
    { type: 'gamma', style: 'basic', direction: 'forward', gamma: [...power, 1], offset: [0, 0, 0, 0] },
  ];
  if (saturation !== 1) {
    const m = [0, 1, 2, 3].flatMap((row) =>
      [0, 1, 2, 3].map((col) =>
        row === 3 || col === 3 ? (row === col ? 1 : 0) : (1 - saturation) * LUMA[col]! + (row === col ? saturation : 0),
      ),
    );
    ops.push({ type: 'matrix', m, offset: [0, 0, 0, 0] });
  }
  return dir === 'forward' ? ops : invertOps(ops, '', 0);
}
