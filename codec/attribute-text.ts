// Header attributes as text, laid out as OpenEXR's exrheader shows them: for `exrview info` and the viewer's header panel.

import type { Attribute } from './attributes.js';

const PIXEL_TYPE_TEXT: Record<string, string> = {
  uint: '32-bit unsigned integer',
  half: '16-bit floating-point',
  float: '32-bit floating-point',
};

/** exrheader 3.4's names: the short name, then OpenEXR's description of the method. */
const COMPRESSION_TEXT: Record<string, string> = {
  none: 'none: no compression.',
  rle: 'rle: run-length encoding.',
  zips: 'zips: zlib compression, one scan line at a time.',
  zip: 'zip: zlib compression, in blocks of 16 scan lines.',
  piz: 'piz: piz-based wavelet compression, in blocks of 32 scan lines.',
  pxr24: 'pxr24: lossy 24-bit float compression, in blocks of 16 scan lines.',
  b44: 'b44: lossy 4-by-4 pixel block compression, fixed compression rate.',
  b44a: 'b44a: lossy 4-by-4 pixel block compression, flat fields are compressed more.',
  dwaa: 'dwaa: lossy DCT based compression, in blocks of 32 scanlines. More efficient for partial buffer access.',
  dwab: 'dwab: lossy DCT based compression, in blocks of 256 scanlines. More efficient space wise and faster to decode full frames than DWAA_COMPRESSION.',
  htj2k256: 'htj2k256: High-Throughput JPEG 2000 (256 lines)',
  htj2k32: 'htj2k32: High-Throughput JPEG 2000 (32 lines)',
};

const LINE_ORDER_TEXT: Record<string, string> = {
  increasingY: 'increasing y',
  decreasingY: 'decreasing y',
  randomY: 'random y',
};

/** Like C++ iostream's default float output: 6 significant digits, shortest form. */
function num(v: number): string {
  if (!Number.isFinite(v)) return Number.isNaN(v) ? 'nan' : v > 0 ? 'inf' : '-inf';
  const s = String(Number(v.toPrecision(6)));
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

/** One attribute as exrheader prints it: `name (type T): value`, or the name line and an indented block. */
export function attributeText(a: Attribute): string {
  const v = a.value;
  const head = `${a.name} (type ${a.typeName})`;
  switch (v.type) {
    case 'chlist':
      return `${head}:\n${v.value.map((c) => `    ${c.name}, ${PIXEL_TYPE_TEXT[c.pixelType]}, sampling ${c.xSampling} ${c.ySampling}${c.pLinear ? ', plinear' : ''}`).join('\n')}`;
    case 'compression':
      return `${head}: ${typeof v.value === 'number' ? `unknown (${v.value})` : COMPRESSION_TEXT[v.value]}`;
    case 'lineOrder':
      return `${head}: ${typeof v.value === 'number' ? `unknown (${v.value})` : LINE_ORDER_TEXT[v.value]}`;
    case 'box2i':
    case 'box2f':
      return `${head}: (${num(v.value.xMin)} ${num(v.value.yMin)}) - (${num(v.value.xMax)} ${num(v.value.yMax)})`;
    case 'chromaticities': {
      const c = v.value;
      return `${head}:\n    red   (${num(c.red[0])} ${num(c.red[1])})\n    green (${num(c.green[0])} ${num(c.green[1])})\n    blue  (${num(c.blue[0])} ${num(c.blue[1])})\n    white (${num(c.white[0])} ${num(c.white[1])})`;
    }
    case 'double':
    case 'float':
    case 'int':
      return `${head}: ${num(v.value)}`;
    case 'envmap':
      return `${head}: ${v.value === 0 ? 'latitude-longitude map' : v.value === 1 ? 'cube-face map' : `map type ${v.value}`}`;
    case 'keycode': {
      const k = v.value;
      return `${head}:\n    film manufacturer code ${k.filmMfcCode}\n    film type code ${k.filmType}\n    prefix ${k.prefix}\n    count ${k.count}\n    perf offset ${k.perfOffset}\n    perfs per frame ${k.perfsPerFrame}\n    perfs per count ${k.perfsPerCount}`;
    }
    case 'm33f':
    case 'm33d':
    case 'm44f':
    case 'm44d': {
      const n = v.value.length === 9 ? 3 : 4;
      const rows = Array.from({ length: n }, (_, r) =>
        v.value
          .slice(r * n, r * n + n)
          .map(num)
          .join(' '),
      );
      return `${head}:\n   (${rows.join('\n    ')})`;
    }
    case 'preview':
      return `${head}: ${v.value.widthPx} by ${v.value.heightPx} pixels`;
    case 'rational': {
      const { numerator, denominator } = v.value;
      return `${head}: ${numerator}/${denominator} (${num(denominator ? numerator / denominator : NaN)})`;
    }
    case 'string':
      return `${head}: "${v.value}"`;
    case 'stringvector':
      return `${head}:${v.value.map((s) => `\n    "${s}"`).join('')}`;
    case 'floatvector':
      return `${head}:${v.value.map((f) => `\n    ${num(f)}`).join('')}`;
    case 'tiledesc': {
      const t = v.value;
      const mode = t.levelMode === 'oneLevel' ? 'single level' : t.levelMode === 'mipmapLevels' ? 'mip-map' : 'rip-map';
      const lines = [`    ${mode}`, `    tile size ${t.xSizePx} by ${t.ySizePx} pixels`];
      if (t.levelMode !== 'oneLevel') lines.push(`    level sizes rounded ${t.roundingMode === 'roundDown' ? 'down' : 'up'}`);
      return `${head}:\n${lines.join('\n')}`;
    }
    case 'timecode': {
      const t = v.value.timeAndFlags;
      const bcd = (shift: number, mask: number) => ((t >>> shift) & mask & 0x0f) + 10 * (((t >>> shift) & mask) >>> 4);
      const two = (n: number) => String(n).padStart(2, '0');
      return `${head}:\n    time ${two(bcd(24, 0x3f))}:${two(bcd(16, 0x7f))}:${two(bcd(8, 0x7f))}:${two(bcd(0, 0x3f))}\n    drop frame ${(t >>> 6) & 1}, color frame ${(t >>> 7) & 1}, field/phase ${(t >>> 15) & 1}\n    bgf0 ${(t >>> 23) & 1}, bgf1 ${(t >>> 30) & 1}, bgf2 ${(t >>> 31) & 1}\n    user data 0x${(v.value.userData >>> 0).toString(16)}`;
    }
    case 'v2i':
    case 'v2f':
    case 'v2d':
    case 'v3i':
    case 'v3f':
    case 'v3d':
      return `${head}: (${v.value.map(num).join(' ')})`;
    case 'deepImageState':
      return `${head}: ${['messy', 'sorted', 'non-overlapping', 'tidy'][v.value] ?? `state ${v.value}`}`;
    case 'unknown':
      return `${head}: ${v.value.length} bytes`;
  }
}

/** The value part of attributeText alone (block lines without their indent), for a table cell. */
export function attributeValueText(a: Attribute): string {
  const text = attributeText(a).slice(`${a.name} (type ${a.typeName})`.length);
  const value = text.startsWith(': ') ? text.slice(2) : text.replace(/^:\n?/, '');
  return value
    .split('\n')
    .map((line) => line.replace(/^ {3,4}/, ''))
    .join('\n');
}
