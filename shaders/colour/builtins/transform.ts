// BuiltinTransform and FixedFunctionTransform (tagged YAML maps) → ops in the forward direction.

import { FIXED_FUNCTION_PARAM_COUNT, FIXED_FUNCTION_STYLES } from '../ops/fixed-function.js';
import type { Op } from '../ops/op.js';
import { builtinOps } from './registry.js';

type Fail = (reason: string) => never;

export function builtinTransformOps(style: unknown, fail: Fail): Op[] {
  if (typeof style !== 'string' || style === '') return fail('a BuiltinTransform needs `style:` naming a built-in transform');
  return (
    builtinOps(style) ??
    fail(`BuiltinTransform style "${style}" is not one exrview knows (OpenColorIO 2.5's built-ins): check the name or update the config`)
  );
}

/** The config's style names (OCIO writes e.g. ACES2_OutputTransform, Lin_TO_PQ) → this module's op styles. */
const YAML_STYLES: Record<string, (typeof FIXED_FUNCTION_STYLES)[number]> = {
  ...Object.fromEntries(FIXED_FUNCTION_STYLES.map((s) => [s.toLowerCase(), s])),
  aces2_outputtransform: 'ACES_OutputTransform20',
  aces2_rgb_to_jmh: 'ACES_RGB_TO_JMh_20',
  aces2_tonescalecompress: 'ACES_TonescaleCompress_20',
  aces2_gamutcompress: 'ACES_GamutCompress_20',
  lin_to_gammalog: 'LIN_TO_GAMMA_LOG',
  lin_to_doublelog: 'LIN_TO_DOUBLE_LOG',
};

export function fixedFunctionOps(styleValue: unknown, paramsValue: unknown, fail: Fail): Op[] {
  const name = String(styleValue ?? '');
  const style = YAML_STYLES[name.toLowerCase()];
  if (!style) return fail(`FixedFunctionTransform style "${name}" is not supported: use one of ${Object.keys(YAML_STYLES).join(', ')}`);
  const params = paramsValue === undefined || paramsValue === null ? [] : Array.isArray(paramsValue) ? paramsValue.map(Number) : [NaN];
  const counts = FIXED_FUNCTION_PARAM_COUNT[style] ?? [0];
  if (!counts.includes(params.length) || params.some((p) => !Number.isFinite(p)))
    fail(`FixedFunctionTransform ${name} takes ${counts.join(' or ')} numeric params, not ${params.length}: fix \`params:\``);
  return [{ type: 'fixedFunction', style, direction: 'forward', params }];
}
