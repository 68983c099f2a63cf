// An image's colour space from what its file says: a colour-space attribute naming a config space, or its
// `chromaticities` matched to the config's linear space with the same primaries and white (by to-reference matrices).
import { findColourSpace, type ColourSpace, type ProcessorBuilder } from '../../shaders/colour/index.js';
import type { Op } from '../../shaders/colour/index.js';
import type { FileEntry } from '../../contract/host-api.js';

/** What a file's header says of its colour (PartSummary's fields). */
export interface FileColourHints {
  /** [rx, ry, gx, gy, bx, by, wx, wy]. */
  chromaticities?: number[];
  colourSpaceName?: string;
}

export interface FileColourMatch {
  name: string;
  /** Which of the file's attributes chose it, as the input-space picker says it. */
  from: 'colour-space attribute' | 'chromaticities';
}

type Mat3 = [number, number, number, number, number, number, number, number, number];

/** The hints of a file's part (the first part when that one has none). */
export function colourHintsOf(file: Pick<FileEntry, 'summary'> | undefined, part = 0): FileColourHints {
  const p = file?.summary?.parts[part] ?? file?.summary?.parts[0];
  return {
    ...(p?.chromaticities ? { chromaticities: p.chromaticities } : {}),
    ...(p?.colourSpaceName ? { colourSpaceName: p.colourSpaceName } : {}),
  };
}

/** The config's colour space the file names or whose primaries and white it has; null when none does. */
export function colourSpaceFromFile(builder: ProcessorBuilder, hints: FileColourHints): FileColourMatch | null {
  const config = builder.config;
  if (hints.colourSpaceName) {
    const named = findColourSpace(config, hints.colourSpaceName);
    if (named && !config.inactive.has(named.name)) return { name: named.name, from: 'colour-space attribute' };
  }
  const c = hints.chromaticities;
  if (!c || c.length !== 8 || !c.every(Number.isFinite)) return null;
  const name = matchChromaticities(builder, c);
  return name === null ? null : { name, from: 'chromaticities' };
}

/** Spaces of known primaries by the role or name configs give them: the anchor the file's primaries are carried to. */
const AP0 = [0.7347, 0.2653, 0.0, 1.0, 0.0001, -0.077, 0.32168, 0.33767];
const REC709 = [0.64, 0.33, 0.3, 0.6, 0.15, 0.06, 0.3127, 0.329];
const AP1 = [0.713, 0.293, 0.165, 0.83, 0.128, 0.044, 0.32168, 0.33767];
const P3_D65 = [0.68, 0.32, 0.265, 0.69, 0.15, 0.06, 0.3127, 0.329];
const REC2020 = [0.708, 0.292, 0.17, 0.797, 0.131, 0.046, 0.3127, 0.329];
/** CIE XYZ as an RGB space: its "primaries" are the axes; D65 is the white its content is adapted to. */
const XYZ_D65 = 'xyz';
const ANCHORS: [string, number[] | typeof XYZ_D65][] = [
  ['aces_interchange', AP0],
  ['cie_xyz_d65_interchange', XYZ_D65],
  ['ACES2065-1', AP0],
  ['ACEScg', AP1],
  ['Linear Rec.709 (sRGB)', REC709],
  ['Linear Rec.709', REC709],
  ['lin_rec709', REC709],
  ['Linear P3-D65', P3_D65],
  ['Linear Rec.2020', REC2020],
];

/** Entries of the file's matrix to the anchor and the config's within this: ACES configs print theirs to 10 digits. */
const TOLERANCE = 2e-3;

const matches = new WeakMap<ProcessorBuilder, Map<string, string | null>>();
const linear = new WeakMap<ProcessorBuilder, Map<string, Mat3 | null>>();

function matchChromaticities(builder: ProcessorBuilder, c: number[]): string | null {
  let cache = matches.get(builder);
  if (!cache) matches.set(builder, (cache = new Map()));
  const key = c.join(',');
  if (!cache.has(key)) cache.set(key, findMatch(builder, c));
  return cache.get(key)!;
}

function findMatch(builder: ProcessorBuilder, c: number[]): string | null {
  const config = builder.config;
  const anchor = ANCHORS.map(([name, primaries]) => ({ space: findColourSpace(config, name), primaries })).find((a) => a.space);
  if (!anchor?.space) return null;
  const anchorSpace = anchor.space;
  // the file's RGB → the anchor's RGB, adapted to the anchor's white as configs do (Bradford, or CAT02)
  const fileToXyz = rgbToXyz(c);
  const anchorWhite = anchor.primaries === XYZ_D65 ? [0.3127, 0.329] : anchor.primaries.slice(6);
  const anchorToXyz = anchor.primaries === XYZ_D65 ? IDENTITY : rgbToXyz(anchor.primaries);
  const xyzToAnchor = anchorToXyz && invert(anchorToXyz);
  if (!fileToXyz || !xyzToAnchor) return null;
  const sameWhite = Math.abs(c[6]! - anchorWhite[0]!) < 1e-4 && Math.abs(c[7]! - anchorWhite[1]!) < 1e-4;
  const adaptations = sameWhite ? [IDENTITY] : [BRADFORD, CAT02].map((cone) => adaptation(cone, c.slice(6), anchorWhite));
  const wanted = adaptations.map((a) => multiply(xyzToAnchor, multiply(a, fileToXyz)));
  for (const cs of candidates(builder)) {
    const m = linearToAnchor(builder, cs, anchorSpace);
    if (m && wanted.some((w) => w.every((v, i) => Math.abs(v - m[i]!) < TOLERANCE))) return cs.name;
  }
  return null;
}

/** Active, scene-referred, non-data spaces that may be linear (an encoding, when given, says scene-linear). */
function candidates(builder: ProcessorBuilder): ColourSpace[] {
  const config = builder.config;
  return config.colourSpaces.filter(
    (cs) =>
      !config.inactive.has(cs.name) &&
      cs.referenceSpace === 'scene' &&
      !cs.isData &&
      (cs.encoding === '' || cs.encoding === 'scene-linear'),
  );
}

/** The space's conversion to the anchor as one 3×3 matrix, or null when it is not a plain matrix (a curve, an offset, a LUT). */
function linearToAnchor(builder: ProcessorBuilder, cs: ColourSpace, anchor: ColourSpace): Mat3 | null {
  let cache = linear.get(builder);
  if (!cache) linear.set(builder, (cache = new Map()));
  if (!cache.has(cs.name)) {
    let m: Mat3 | null = null;
    try {
      m = matrixOf(builder.colourSpace(cs.name, anchor.name));
    } catch {
      // a space that cannot be built (a missing LUT) is no candidate
    }
    cache.set(cs.name, m);
  }
  return cache.get(cs.name)!;
}

function matrixOf(ops: Op[]): Mat3 | null {
  let m: Mat3 = IDENTITY;
  for (const op of ops) {
    if (op.type !== 'matrix' || op.offset.slice(0, 3).some((o) => o !== 0)) return null;
    // alpha must not feed colour, nor colour alpha: a 4×4 whose RGB block is the whole story
    if ([3, 7, 11, 12, 13, 14].some((i) => op.m[i] !== 0)) return null;
    const rgb: Mat3 = [op.m[0]!, op.m[1]!, op.m[2]!, op.m[4]!, op.m[5]!, op.m[6]!, op.m[8]!, op.m[9]!, op.m[10]!];
    m = multiply(rgb, m);
  }
  return m;
}

const IDENTITY: Mat3 = [1, 0, 0, 0, 1, 0, 0, 0, 1];
const BRADFORD: Mat3 = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];
const CAT02: Mat3 = [0.7328, 0.4296, -0.1624, -0.7036, 1.6975, 0.0061, 0.003, 0.0136, 0.9834];

/** RGB → XYZ of a space with these xy primaries and white (white at Y = 1); null when they are degenerate. */
export function rgbToXyz(c: number[]): Mat3 | null {
  const xyz = (x: number, y: number): number[] => [x / y, 1, (1 - x - y) / y];
  if ([c[1], c[3], c[5], c[7]].some((y) => y === 0)) return null;
  const [r, g, b, w] = [xyz(c[0]!, c[1]!), xyz(c[2]!, c[3]!), xyz(c[4]!, c[5]!), xyz(c[6]!, c[7]!)];
  const p: Mat3 = [r[0]!, g[0]!, b[0]!, r[1]!, g[1]!, b[1]!, r[2]!, g[2]!, b[2]!];
  const inverse = invert(p);
  if (!inverse) return null;
  const s = apply(inverse, w);
  return [p[0] * s[0]!, p[1] * s[1]!, p[2] * s[2]!, p[3] * s[0]!, p[4] * s[1]!, p[5] * s[2]!, p[6] * s[0]!, p[7] * s[1]!, p[8] * s[2]!];
}

/** A von Kries adaptation in the cone space `cone` from white `from` to white `to` (xy). */
function adaptation(cone: Mat3, from: number[], to: number[]): Mat3 {
  const white = (w: number[]): number[] => apply(cone, [w[0]! / w[1]!, 1, (1 - w[0]! - w[1]!) / w[1]!]);
  const [s, d] = [white(from), white(to)];
  const scale: Mat3 = [d[0]! / s[0]!, 0, 0, 0, d[1]! / s[1]!, 0, 0, 0, d[2]! / s[2]!];
  return multiply(invert(cone)!, multiply(scale, cone));
}

function multiply(a: Mat3, b: Mat3): Mat3 {
  const out = new Array<number>(9) as Mat3;
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++) out[r * 3 + c] = a[r * 3]! * b[c]! + a[r * 3 + 1]! * b[3 + c]! + a[r * 3 + 2]! * b[6 + c]!;
  return out;
}

function apply(m: Mat3, v: number[]): number[] {
  return [0, 1, 2].map((r) => m[r * 3]! * v[0]! + m[r * 3 + 1]! * v[1]! + m[r * 3 + 2]! * v[2]!);
}

function invert(m: Mat3): Mat3 | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  if (Math.abs(det) < 1e-12) return null;
  return [
    (e * i - f * h) / det,
    (c * h - b * i) / det,
    (b * f - c * e) / det,
    (f * g - d * i) / det,
    (a * i - c * g) / det,
    (c * d - a * f) / det,
    (d * h - e * g) / det,
    (b * g - a * h) / det,
    (a * e - b * d) / det,
  ];
}
