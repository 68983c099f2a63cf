// Academy/ASC Common LUT Format `.clf` and Autodesk's `.ctf`: an XML ProcessList of nodes, each → ops (bit depths normalised).

import { DOMParser } from '@xmldom/xmldom';
import { gradingTransformNode } from './clf-grading.js';
import { LutFileError } from './lut-error.js';
import type { CdlOp, Direction, GammaStyle, Op } from '../ops/op.js';
import { halfToFloat } from '../ops/half.js';
import { MAX_LUT1D_LENGTH, MAX_LUT3D_SIZE } from './text.js';

/** A config transform as the YAML tree holds it (yaml-tree's TaggedMap): its tag, line and fields. */
export interface TransformNode {
  $tag: string;
  $line: number;
  [key: string]: unknown;
}

/** What a node whose op another module builds (FixedFunction, Grading*) is handed to: the transform-to-ops path of the config. */
export type TransformRequest = (transform: TransformNode) => Op[];

/** The largest code value of each CLF bit depth: values in a node are scaled by these so that every op works on [0, 1]. */
const BIT_DEPTH_MAX: Record<string, number> = { '8i': 255, '10i': 1023, '12i': 4095, '16i': 65535, '16f': 1, '32f': 1 };

interface Node {
  el: Element;
  line: number;
  fail(reason: string): never;
}

export function clfOps(text: string, file: string, interpolation: string, request: TransformRequest): Op[] {
  let parseError: { line?: number; message: string } | undefined;
  const doc = new DOMParser({
    locator: {},
    // every complaint counts, warnings included: OCIO's expat rejects what xmldom only warns about (an unclosed tag)
    errorHandler: (_level: string, message: unknown) => {
      if (!parseError) {
        const text = String(message);
        const line = /line:(\d+)/.exec(text);
        const first = text.split('\n')[0]!.trim();
        // xmldom reports its own exceptions on some malformed markup (`<!Tag`): the user reads what is wrong, not them
        const internal = /\b(TypeError|RangeError|ReferenceError)\b/.test(first);
        parseError = { line: line ? Number(line[1]) : undefined, message: internal ? 'a malformed tag or declaration' : first };
      }
    },
  }).parseFromString(text, 'text/xml');
  if (parseError) throw new LutFileError(file, parseError.line, `not well-formed XML (${parseError.message}): fix the file`);
  const root = doc.documentElement;
  if (!root || root.tagName !== 'ProcessList')
    throw new LutFileError(file, 1, `the root element is <${root?.tagName ?? 'nothing'}>, not <ProcessList>: not a CLF/CTF file`);
  const ops: Op[] = [];
  for (const el of elements(root)) {
    const line = lineOf(el);
    const node: Node = {
      el,
      line,
      fail: (reason: string): never => {
        throw new LutFileError(file, line, `<${el.tagName}>: ${reason}`);
      },
    };
    ops.push(...nodeOps(node, file, interpolation, request));
  }
  return ops;
}

const SKIPPED = new Set(['Description', 'InputDescriptor', 'OutputDescriptor', 'Info', 'Dither']);

function nodeOps(node: Node, file: string, interpolation: string, request: TransformRequest): Op[] {
  const { el } = node;
  const inMax = bitDepth(node, 'inBitDepth'),
    outMax = bitDepth(node, 'outBitDepth');
  switch (el.tagName) {
    case 'Matrix':
      return matrixOps(node, inMax, outMax);
    case 'LUT1D':
    case 'InverseLUT1D':
      return [lut1dOp(node, file, outMax, el.tagName === 'InverseLUT1D' ? 'inverse' : 'forward', interpolation)];
    case 'LUT3D':
    case 'InverseLUT3D':
      return [lut3dOp(node, file, outMax, el.tagName === 'InverseLUT3D' ? 'inverse' : 'forward', interpolation)];
    case 'Range':
      return rangeOps(node, inMax, outMax);
    case 'Log':
      return [logOp(node)];
    case 'Exponent':
    case 'Gamma':
      return [exponentOp(node)];
    case 'ASC_CDL':
      return [cdlOp(node)];
    case 'ExposureContrast':
      return [exposureContrastOp(node)];
    case 'FixedFunction':
      return request(fixedFunctionRequest(node));
    case 'GradingPrimary':
    case 'GradingRGBCurve':
    case 'GradingTone':
    case 'GradingHueCurve':
      return request(gradingTransformNode(el, node.line, node.fail));
    default:
      if (SKIPPED.has(el.tagName)) return [];
      return node.fail('this node is not read: CLF/CTF nodes are Matrix, LUT1D, LUT3D, Range, Log, Exponent, ASC_CDL and the like');
  }
}

function matrixOps(node: Node, inMax: number, outMax: number): Op[] {
  const { dims, values } = arrayOf(node);
  const [rows, cols] = dims as [number, number];
  if (!((rows === 3 || rows === 4) && (cols === rows || cols === rows + 1)))
    node.fail(`Array dim "${dims.join(' ')}" is not a 3×3, 3×4, 4×4 or 4×5 matrix`);
  const m = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];
  const offset = [0, 0, 0, 0];
  const scale = inMax / outMax;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < rows; c++) m[r * 4 + c] = values[r * cols + c]! * scale;
    if (cols > rows) offset[r] = values[r * cols + rows]! / outMax;
  }
  return [{ type: 'matrix', m, offset }];
}

function lut1dOp(node: Node, file: string, outMax: number, direction: Direction, interpolation: string): Op {
  const { el } = node;
  if (child(el, 'IndexMap')) node.fail('IndexMap is not read: bake it into the table');
  const { dims, values, rawWords } = arrayOf(node);
  const [length, components] = dims as [number, number];
  if (!(length >= 2 && length <= MAX_LUT1D_LENGTH) || (components !== 1 && components !== 3))
    node.fail(`Array dim "${dims.join(' ')}" is not a LUT of 2 to ${MAX_LUT1D_LENGTH} entries of 1 or 3 components`);
  const halfDomain = el.getAttribute('halfDomain') === 'true';
  const rawHalfs = el.getAttribute('rawHalfs') === 'true';
  if (halfDomain && length !== 65536) node.fail(`a halfDomain LUT has 65536 entries, not ${length}`);
  const table = new Float32Array(length * 3);
  for (let k = 0; k < length; k++) {
    for (let c = 0; c < 3; c++) {
      const at = k * components + (components === 1 ? 0 : c);
      table[k * 3 + c] = rawHalfs ? halfToFloat(Number(rawWords[at])) : values[at]! / outMax;
    }
  }
  const hueAdjust = el.getAttribute('hueAdjust');
  if (hueAdjust && hueAdjust !== 'dw3' && hueAdjust !== 'none') node.fail(`hueAdjust "${hueAdjust}" is not dw3`);
  const source = `${file}:${node.line}`;
  if (halfDomain) {
    // the half-domain op holds one curve for R, G and B
    const single = components === 1 || table.every((v, i) => v === table[i - (i % 3)]);
    if (!single || hueAdjust === 'dw3')
      node.fail('a halfDomain LUT with different curves per channel or hueAdjust is not supported yet: use one curve');
    const values = new Float32Array(length);
    for (let k = 0; k < length; k++) values[k] = table[k * 3]!;
    return { type: 'lut1dHalf', direction, values, source };
  }
  const interp = el.getAttribute('interpolation') || interpolation;
  return {
    type: 'lut1d',
    direction,
    length,
    values: table,
    interpolation: interp === 'nearest' ? 'nearest' : 'linear',
    source,
    ...(hueAdjust === 'dw3' ? { hueAdjust: true } : {}),
  };
}

function lut3dOp(node: Node, file: string, outMax: number, direction: Direction, interpolation: string): Op {
  const { dims, values } = arrayOf(node);
  const [n, n2, n3, components] = dims as [number, number, number, number];
  if (n !== n2 || n2 !== n3 || components !== 3 || !(n >= 2 && n <= MAX_LUT3D_SIZE))
    node.fail(`Array dim "${dims.join(' ')}" is not a cube of 2 to ${MAX_LUT3D_SIZE} per side with 3 components`);
  const interp = el3dInterpolation(node.el.getAttribute('interpolation') || interpolation);
  // CLF lists blue fastest, as the op holds it
  return {
    type: 'lut3d',
    direction,
    size: n,
    values: Float32Array.from(values, (v) => v / outMax),
    interpolation: interp,
    source: `${file}:${node.line}`,
  };
}

function el3dInterpolation(name: string): 'linear' | 'tetrahedral' | 'nearest' {
  if (name === 'tetrahedral' || name === 'best') return 'tetrahedral';
  return name === 'nearest' ? 'nearest' : 'linear';
}

function rangeOps(node: Node, inMax: number, outMax: number): Op[] {
  const value = (tag: string, scale: number): number | undefined => {
    const el = child(node.el, tag);
    if (!el) return undefined;
    const v = Number((el.textContent ?? '').trim());
    if (Number.isNaN(v)) node.fail(`<${tag}> "${el.textContent}" is not a number`);
    return v / scale;
  };
  const range = {
    type: 'range' as const,
    minIn: value('minInValue', inMax),
    maxIn: value('maxInValue', inMax),
    minOut: value('minOutValue', outMax),
    maxOut: value('maxOutValue', outMax),
  };
  if ((range.minIn === undefined) !== (range.minOut === undefined) || (range.maxIn === undefined) !== (range.maxOut === undefined))
    node.fail('give minInValue with minOutValue and maxInValue with maxOutValue');
  const noClamp = (node.el.getAttribute('style') ?? '').toLowerCase() === 'noclamp';
  if (!noClamp) return [range];
  const hasScale = range.minIn !== undefined && range.maxIn !== undefined;
  const scale = hasScale ? (range.maxOut! - range.minOut!) / (range.maxIn! - range.minIn!) : 1;
  const offset =
    range.minIn !== undefined ? range.minOut! - scale * range.minIn : range.maxIn !== undefined ? range.maxOut! - range.maxIn : 0;
  return [{ type: 'matrix', m: [scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, 1], offset: [offset, offset, offset, 0] }];
}

function logOp(node: Node): Op {
  const style = node.el.getAttribute('style') ?? '';
  const plain: Record<string, [number, Direction]> = {
    log10: [10, 'forward'],
    antiLog10: [10, 'inverse'],
    log2: [2, 'forward'],
    antiLog2: [2, 'inverse'],
  };
  const fixed = plain[style];
  if (fixed) return { type: 'log', direction: fixed[1], base: fixed[0], params: [0, 1, 2].map(() => [1, 0, 1, 0]), camera: false };
  const kinds: Record<string, [boolean, Direction]> = {
    linToLog: [false, 'forward'],
    logToLin: [false, 'inverse'],
    cameraLinToLog: [true, 'forward'],
    cameraLogToLin: [true, 'inverse'],
  };
  const kind = kinds[style];
  if (!kind)
    return node.fail(`Log style "${style}" is not log10, log2, antiLog10, antiLog2, linToLog, logToLin or cameraLinToLog/LogToLin`);
  const [camera, direction] = kind;
  let base = 2;
  const params = [0, 1, 2].map(() => [1, 0, 1, 0] as number[]);
  const perChannel: (number | undefined)[][] = [[], [], []];
  for (const p of elements(node.el, 'LogParams')) {
    const num = (name: string): number | undefined => {
      const text = p.getAttribute(name);
      if (text === null || text === '') return undefined;
      const v = Number(text);
      if (Number.isNaN(v)) node.fail(`LogParams ${name}="${text}" is not a number`);
      return v;
    };
    const b = num('base');
    if (b !== undefined) base = b;
    const values = [
      num('logSideSlope'),
      num('logSideOffset'),
      num('linSideSlope'),
      num('linSideOffset'),
      num('linSideBreak'),
      num('linearSlope'),
    ];
    const channel = p.getAttribute('channel');
    const targets = channel === 'R' ? [0] : channel === 'G' ? [1] : channel === 'B' ? [2] : [0, 1, 2];
    for (const c of targets) perChannel[c] = values;
  }
  for (let c = 0; c < 3; c++) {
    const v = perChannel[c]!;
    params[c] = [v[0] ?? 1, v[1] ?? 0, v[2] ?? 1, v[3] ?? 0];
    if (camera) {
      if (v[4] === undefined) node.fail('a camera log needs linSideBreak in its LogParams');
      params[c]!.push(v[4]!);
      if (v[5] !== undefined) params[c]!.push(v[5]);
    }
  }
  return { type: 'log', direction, base, params, camera };
}

function exponentOp(node: Node): Op {
  const style = node.el.getAttribute('style') ?? '';
  const match = /^(basic|basicMirror|basicPassThru|monCurve|monCurveMirror)(Fwd|Rev)$/.exec(style);
  if (!match) return node.fail(`style "${style}" is not basic, basicMirror, basicPassThru, monCurve or monCurveMirror with Fwd or Rev`);
  const styles: Record<string, GammaStyle> = {
    basic: 'basic',
    basicMirror: 'basicMirror',
    basicPassThru: 'basicPassThru',
    monCurve: 'moncurve',
    monCurveMirror: 'moncurveMirror',
  };
  const gamma = [1, 1, 1, 1],
    offset = [0, 0, 0, 0];
  const paramsTag = node.el.tagName === 'Gamma' ? 'GammaParams' : 'ExponentParams';
  const exponentName = node.el.tagName === 'Gamma' ? 'gamma' : 'exponent';
  for (const p of elements(node.el, paramsTag)) {
    const channel = p.getAttribute('channel');
    const targets = channel === 'R' ? [0] : channel === 'G' ? [1] : channel === 'B' ? [2] : channel === 'A' ? [3] : [0, 1, 2];
    const g = Number(p.getAttribute(exponentName));
    if (Number.isNaN(g)) node.fail(`${paramsTag} has no numeric ${exponentName}`);
    const o = p.getAttribute('offset');
    for (const c of targets) {
      gamma[c] = g;
      if (o !== null && o !== '') offset[c] = Number(o);
    }
  }
  return { type: 'gamma', style: styles[match[1]!]!, direction: match[2] === 'Fwd' ? 'forward' : 'inverse', gamma, offset };
}

function cdlOp(node: Node): CdlOp {
  const style = node.el.getAttribute('style') ?? 'Fwd';
  const styles: Record<string, [Direction, boolean]> = {
    Fwd: ['forward', true],
    Rev: ['inverse', true],
    FwdNoClamp: ['forward', false],
    RevNoClamp: ['inverse', false],
    v1_2_Fwd: ['forward', true],
    v1_2_Rev: ['inverse', true],
  };
  const chosen = styles[style];
  if (!chosen) return node.fail(`ASC_CDL style "${style}" is not Fwd, Rev, FwdNoClamp or RevNoClamp`);
  const triple = (parent: string, tag: string, fallback: number): number[] => {
    const el = child(child(node.el, parent) ?? node.el, tag);
    if (!el) return [fallback, fallback, fallback];
    const values = (el.textContent ?? '').trim().split(/\s+/).map(Number);
    if (values.length !== 3 || values.some(Number.isNaN)) node.fail(`<${tag}> needs 3 numbers`);
    return values;
  };
  const satEl = child(child(node.el, 'SatNode') ?? node.el, 'Saturation');
  const saturation = satEl ? Number((satEl.textContent ?? '').trim()) : 1;
  if (Number.isNaN(saturation)) node.fail('<Saturation> is not a number');
  return {
    type: 'cdl',
    direction: chosen[0],
    clamp: chosen[1],
    slope: triple('SOPNode', 'Slope', 1),
    offset: triple('SOPNode', 'Offset', 0),
    power: triple('SOPNode', 'Power', 1),
    saturation,
  };
}

function exposureContrastOp(node: Node): Op {
  const style = node.el.getAttribute('style') ?? 'linear';
  const match = /^(linear|video|log)(Rev)?$/.exec(style);
  if (!match) return node.fail(`style "${style}" is not linear, video or log (with Rev for the inverse)`);
  const params = child(node.el, 'ECParams');
  const num = (name: string, fallback: number): number => {
    const text = params?.getAttribute(name);
    return text === null || text === undefined || text === '' ? fallback : Number(text);
  };
  return {
    type: 'exposureContrast',
    direction: match[2] ? 'inverse' : 'forward',
    style: match[1] as 'linear' | 'video' | 'log',
    exposure: num('exposure', 0),
    contrast: num('contrast', 1),
    gamma: num('gamma', 1),
    pivot: num('pivot', 0.18),
    logExposureStep: num('logExposureStep', 0.088),
    logMidGray: num('logMidGray', 0.435),
  };
}

/** CTF FixedFunction styles → the config's FixedFunctionTransform style and direction. */
const FIXED_FUNCTION_STYLES: Record<string, [string, Direction]> = {
  RedMod03Fwd: ['ACES_RedMod03', 'forward'],
  RedMod03Rev: ['ACES_RedMod03', 'inverse'],
  RedMod10Fwd: ['ACES_RedMod10', 'forward'],
  RedMod10Rev: ['ACES_RedMod10', 'inverse'],
  Glow03Fwd: ['ACES_Glow03', 'forward'],
  Glow03Rev: ['ACES_Glow03', 'inverse'],
  Glow10Fwd: ['ACES_Glow10', 'forward'],
  Glow10Rev: ['ACES_Glow10', 'inverse'],
  DarkToDim10: ['ACES_DarkToDim10', 'forward'],
  DimToDark10: ['ACES_DarkToDim10', 'inverse'],
  GamutComp13Fwd: ['ACES_GamutComp13', 'forward'],
  GamutComp13Rev: ['ACES_GamutComp13', 'inverse'],
  ACESOutputTransform20Fwd: ['ACES2_OutputTransform', 'forward'],
  ACESOutputTransform20Inv: ['ACES2_OutputTransform', 'inverse'],
  RGB_TO_JMh_20: ['ACES2_RGB_TO_JMh', 'forward'],
  JMh_TO_RGB_20: ['ACES2_RGB_TO_JMh', 'inverse'],
  ToneScaleCompress20Fwd: ['ACES2_TonescaleCompress', 'forward'],
  ToneScaleCompress20Inv: ['ACES2_TonescaleCompress', 'inverse'],
  GamutCompress20Fwd: ['ACES2_GamutCompress', 'forward'],
  GamutCompress20Inv: ['ACES2_GamutCompress', 'inverse'],
  Surround: ['REC2100_Surround', 'forward'],
  Rec2100SurroundFwd: ['REC2100_Surround', 'forward'],
  Rec2100SurroundRev: ['REC2100_Surround', 'inverse'],
  RGB_TO_HSV: ['RGB_TO_HSV', 'forward'],
  HSV_TO_RGB: ['RGB_TO_HSV', 'inverse'],
  XYZ_TO_xyY: ['XYZ_TO_xyY', 'forward'],
  xyY_TO_XYZ: ['XYZ_TO_xyY', 'inverse'],
  XYZ_TO_uvY: ['XYZ_TO_uvY', 'forward'],
  uvY_TO_XYZ: ['XYZ_TO_uvY', 'inverse'],
  XYZ_TO_LUV: ['XYZ_TO_LUV', 'forward'],
  LUV_TO_XYZ: ['XYZ_TO_LUV', 'inverse'],
  Lin_TO_PQ: ['Lin_TO_PQ', 'forward'],
  PQ_TO_Lin: ['Lin_TO_PQ', 'inverse'],
  Lin_TO_GammaLog: ['Lin_TO_GammaLog', 'forward'],
  GammaLog_TO_Lin: ['Lin_TO_GammaLog', 'inverse'],
  Lin_TO_DoubleLog: ['Lin_TO_DoubleLog', 'forward'],
  DoubleLog_TO_Lin: ['Lin_TO_DoubleLog', 'inverse'],
  RGB_TO_HSY_LIN: ['RGB_TO_HSY_LIN', 'forward'],
  HSY_LIN_TO_RGB: ['RGB_TO_HSY_LIN', 'inverse'],
  RGB_TO_HSY_LOG: ['RGB_TO_HSY_LOG', 'forward'],
  HSY_LOG_TO_RGB: ['RGB_TO_HSY_LOG', 'inverse'],
  RGB_TO_HSY_VID: ['RGB_TO_HSY_VID', 'forward'],
  HSY_VID_TO_RGB: ['RGB_TO_HSY_VID', 'inverse'],
};

function fixedFunctionRequest(node: Node): TransformNode {
  const style = node.el.getAttribute('style') ?? '';
  const known = FIXED_FUNCTION_STYLES[style];
  if (!known) return node.fail(`FixedFunction style "${style}" is not one OCIO 2.5 has`);
  const paramsText = (node.el.getAttribute('params') ?? '').trim();
  const params = paramsText === '' ? [] : paramsText.split(/\s+/).map(Number);
  if (params.some(Number.isNaN)) node.fail(`params "${paramsText}" are not all numbers`);
  return { $tag: 'FixedFunctionTransform', $line: node.line, style: known[0], params, direction: known[1] };
}

function bitDepth(node: Node, name: string): number {
  const value = node.el.getAttribute(name);
  if (value === null || value === '') return 1;
  const max = BIT_DEPTH_MAX[value];
  if (max === undefined) return node.fail(`${name} "${value}" is not 8i, 10i, 12i, 16i, 16f or 32f`);
  return max;
}

/** A node's <Array>: its dim attribute and its numbers, checked against each other. */
function arrayOf(node: Node): { dims: number[]; values: Float64Array; rawWords: string[] } {
  const array = child(node.el, 'Array');
  if (!array) return node.fail('no <Array>: the node has no values');
  const dims = (array.getAttribute('dim') ?? '').trim().split(/\s+/).map(Number);
  if (dims.length < 2 || dims.some((d) => !Number.isInteger(d) || d <= 0))
    node.fail(`Array dim "${array.getAttribute('dim')}" is malformed`);
  const expected = node.el.tagName === 'Matrix' ? dims[0]! * dims[1]! : dims.reduce((a, b) => a * b, 1);
  if (expected > Math.max(MAX_LUT1D_LENGTH, MAX_LUT3D_SIZE ** 3) * 3) node.fail(`an Array of ${expected} values is too large to read`);
  const rawWords = (array.textContent ?? '')
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '');
  if (rawWords.length !== expected)
    node.fail(`its Array dim="${dims.join(' ')}" holds ${rawWords.length} values, not ${expected}: fix the dim or the table`);
  const values = Float64Array.from(rawWords, (w) => {
    const v = Number(w);
    if (Number.isNaN(v) && !/^nan$/i.test(w)) node.fail(`"${w}" in the Array is not a number`);
    return v;
  });
  return { dims, values, rawWords };
}

function elements(parent: Element, tag?: string): Element[] {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (tag === undefined || (n as Element).tagName === tag)) out.push(n as Element);
  }
  return out;
}

function child(parent: Element, tag: string): Element | undefined {
  return elements(parent, tag)[0];
}

function lineOf(el: Element): number {
  return (el as unknown as { lineNumber?: number }).lineNumber ?? 0;
}
