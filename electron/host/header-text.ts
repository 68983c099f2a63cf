// One line of text per header attribute, for the renderer's header panel.

import type { AttributeValue } from '../exr/index.js';

const num = (v: number) => (Number.isInteger(v) ? String(v) : String(Number(v.toPrecision(6))));

export function attributeText(v: AttributeValue): string {
  switch (v.type) {
    case 'box2i':
    case 'box2f':
      return `(${num(v.value.xMin)} ${num(v.value.yMin)}) - (${num(v.value.xMax)} ${num(v.value.yMax)})`;
    case 'chlist':
      return v.value.map((c) => `${c.name} ${c.pixelType}${c.xSampling !== 1 || c.ySampling !== 1 ? ` ${c.xSampling}x${c.ySampling}` : ''}`).join(', ');
    case 'chromaticities': {
      const c = v.value;
      return `red (${c.red.map(num).join(', ')}) green (${c.green.map(num).join(', ')}) blue (${c.blue.map(num).join(', ')}) white (${c.white.map(num).join(', ')})`;
    }
    case 'compression':
    case 'lineOrder':
      return typeof v.value === 'number' ? `unknown (${v.value})` : v.value;
    case 'double':
    case 'float':
    case 'int':
    case 'envmap':
    case 'deepImageState':
      return num(v.value);
    case 'keycode':
      return Object.entries(v.value).map(([k, x]) => `${k} ${x}`).join(', ');
    case 'm33f':
    case 'm44f':
    case 'm33d':
    case 'm44d':
    case 'floatvector':
      return v.value.map(num).join(' ');
    case 'preview':
      return `${v.value.widthPx} x ${v.value.heightPx} pixels`;
    case 'rational':
      return `${v.value.numerator}/${v.value.denominator}`;
    case 'string':
      return v.value;
    case 'stringvector':
      return v.value.map((s) => JSON.stringify(s)).join(', ');
    case 'tiledesc':
      return `${v.value.xSizePx} x ${v.value.ySizePx} tiles, ${v.value.levelMode}, ${v.value.roundingMode}`;
    case 'timecode':
      return `time and flags 0x${(v.value.timeAndFlags >>> 0).toString(16)}, user data 0x${(v.value.userData >>> 0).toString(16)}`;
    case 'v2i':
    case 'v2f':
    case 'v2d':
    case 'v3i':
    case 'v3f':
    case 'v3d':
      return `(${v.value.map(num).join(' ')})`;
    case 'unknown':
      return `${v.value.length} bytes of type ${v.typeName}`;
  }
}
