// The WGSL of a checked expression: one compute shader reading its planes straight from their textures (r16float,
// r32float or r32uint, subsampled as assemble.wgsl reads them; only where the device's sampled-texture limit forces it,
// some from packed rgba32float scratch) and writing RGBA. Where WGSL leaves a result undefined (NaN, infinities,
// sqrt/log/pow of negatives) the helpers decide it explicitly, as scalar.ts defines; NaN and infinity come from a uniform
// (a constant may not be one).
import type { ExpressionProgram, Node } from './check.js';
import type { Size } from './functions.js';
import { LUMA32 } from './scalar.js';

export const EXPRESSION_WORKGROUP = 8;

const TYPES: Record<Size, { t: string; u: string; suffix: string }> = {
  1: { t: 'f32', u: 'u32', suffix: 'f' },
  3: { t: 'vec3f', u: 'vec3u', suffix: 'v3' },
  4: { t: 'vec4f', u: 'vec4u', suffix: 'v4' },
};

/** The helpers for one value type (WGSL has no overloading of user functions). */
function helpers(size: Size): string {
  const { t: T, u: U, suffix: s } = TYPES[size];
  return `
fn nan_${s}(x: ${T}) -> ${size === 1 ? 'bool' : `vec${size}<bool>`} { return (bitcast<${U}>(x) & ${U}(0x7fffffffu)) > ${U}(0x7f800000u); }
fn min_${s}(a: ${T}, b: ${T}) -> ${T} { return select(min(a, b), ${T}(sp.nan), nan_${s}(a) | nan_${s}(b)); }
fn max_${s}(a: ${T}, b: ${T}) -> ${T} { return select(max(a, b), ${T}(sp.nan), nan_${s}(a) | nan_${s}(b)); }
fn sqrt_${s}(x: ${T}) -> ${T} {
  let r = select(sqrt(x), x, (x == ${T}(0.0)) | (x == ${T}(sp.inf)));
  return select(r, ${T}(sp.nan), (x < ${T}(0.0)) | nan_${s}(x));
}
fn exp_${s}(x: ${T}) -> ${T} {
  let r = select(exp(x), ${T}(0.0), x == ${T}(-sp.inf));
  return select(r, x, (x == ${T}(sp.inf)) | nan_${s}(x));
}
fn log_${s}(x: ${T}) -> ${T} {
  var r = select(log(x), ${T}(-sp.inf), x == ${T}(0.0));
  r = select(r, x, x == ${T}(sp.inf));
  return select(r, ${T}(sp.nan), (x < ${T}(0.0)) | nan_${s}(x));
}
fn pow_${s}(x: ${T}, y: ${T}) -> ${T} {
  let ax = abs(x);
  let up = y > ${T}(0.0);
  var m = select(pow(ax, y), select(${T}(sp.inf), ${T}(0.0), up), ax == ${T}(0.0));
  m = select(m, select(${T}(0.0), ${T}(sp.inf), up), ax == ${T}(sp.inf));
  m = select(m, ${T}(1.0), ax == ${T}(1.0));
  let integer = (floor(y) == y) & (abs(y) != ${T}(sp.inf));
  let odd = integer & (floor(y * 0.5) != y * 0.5);
  var r = select(m, -m, (x < ${T}(0.0)) & odd);
  r = select(r, ${T}(sp.nan), (x < ${T}(0.0)) & !integer);
  r = select(r, ${T}(1.0), y == ${T}(0.0));
  return select(r, ${T}(sp.nan), nan_${s}(x) | nan_${s}(y));
}
fn cmp_${s}(holds: ${size === 1 ? 'bool' : `vec${size}<bool>`}, a: ${T}, b: ${T}) -> ${T} {
  return select(${T}(0.0), ${T}(1.0), holds & !(nan_${s}(a) | nan_${s}(b)));
}
fn sel_${s}(c: ${T}, a: ${T}, b: ${T}) -> ${T} { return select(b, a, (c != ${T}(0.0)) & !nan_${s}(c)); }
`;
}

/** A float32 constant exactly: its bits (NaN and infinities through the uniform). */
function constant(value: number): string {
  if (Number.isNaN(value)) return 'sp.nan';
  if (value === Infinity) return 'sp.inf';
  if (value === -Infinity) return '(-sp.inf)';
  const bits = new Uint32Array(new Float32Array([value]).buffer)[0]!;
  return `bitcast<f32>(0x${bits.toString(16)}u)`;
}

/**
 * How the shader reads plane k: from its own texture (`subsampled`: x or y sampling ≠ 1, read through the uniform's
 * sampling and first sample), or from component `component` of packed scratch texture `group`.
 */
export type PlaneRead =
  { from: 'plane'; kind: 'float' | 'uint'; subsampled: boolean } | { from: 'packed'; group: number; component: number };

/** Bytes of the uniform: NaN, infinity, the data window origin, then per plane (xSampling, ySampling, firstX, firstY). */
export const uniformBytes = (planeCount: number): number => 32 + 16 * Math.max(1, planeCount);

/** The texture bindings in order (binding 1 onwards): each direct plane's, then each packed group's; dst follows. */
export function textureBindings(reads: readonly PlaneRead[]): ('float' | 'uint' | 'packed')[] {
  const direct = reads.flatMap((r) => (r.from === 'plane' ? [r.kind] : []));
  const groups = reads.reduce((n, r) => (r.from === 'packed' ? Math.max(n, r.group + 1) : n), 0);
  return [...direct, ...Array<'packed'>(groups).fill('packed')];
}

/** The WGSL of `program` reading its planes as `reads` says (one entry per program.planes). */
export function expressionWgsl(program: ExpressionProgram, reads: readonly PlaneRead[]): string {
  const bound = textureBindings(reads);
  const directCount = reads.filter((r) => r.from === 'plane').length;
  const v = (n: Node): string => `v${n.id}`;
  // an argument in an operation of `size` components: a scalar is splatted
  const arg = (n: Node, size: Size): string => (n.size === size || size === 1 ? v(n) : `${TYPES[size].t}(${v(n)})`);
  const lines: string[] = [];
  for (const node of program.nodes) {
    const { t: T, suffix: s } = TYPES[node.size];
    const a = node.k === 'fn' ? node.args.map((x) => arg(x, node.size)) : [];
    let e: string;
    if (node.k === 'const') e = constant(node.value);
    else if (node.k === 'plane') e = `c${node.plane}`;
    else
      switch (node.fn) {
        case 'add':
          e = `${a[0]} + ${a[1]}`;
          break;
        case 'sub':
          e = `${a[0]} - ${a[1]}`;
          break;
        case 'mul':
          e = `${a[0]} * ${a[1]}`;
          break;
        case 'div':
          e = `${a[0]} / ${a[1]}`;
          break;
        case 'neg':
          e = `-${a[0]}`;
          break;
        case 'lt':
        case 'le':
        case 'gt':
        case 'ge':
        case 'eq':
        case 'ne': {
          const op = { lt: '<', le: '<=', gt: '>', ge: '>=', eq: '==', ne: '==' }[node.fn];
          const c = `cmp_${s}(${a[0]} ${op} ${a[1]}, ${a[0]}, ${a[1]})`;
          e = node.fn === 'ne' ? `${T}(1.0) - ${c}` : c;
          break;
        }
        case 'abs':
        case 'floor':
          e = `${node.fn}(${a[0]})`;
          break;
        case 'sqrt':
        case 'exp':
        case 'log':
        case 'min':
        case 'max':
        case 'pow':
          e = `${node.fn}_${s}(${a.join(', ')})`;
          break;
        case 'clamp':
          e = `min_${s}(max_${s}(${a[0]}, ${a[1]}), ${a[2]})`;
          break;
        case 'lerp':
          e = `${a[0]} + (${a[1]} - ${a[0]}) * ${a[2]}`;
          break;
        case 'select':
          e = `sel_${s}(${a.join(', ')})`;
          break;
        case 'vec3':
        case 'vec4':
          e = `${T}(${node.args.map(v).join(', ')})`;
          break;
        case 'rgb':
          e = node.args[0]!.size === 4 ? `${v(node.args[0]!)}.xyz` : v(node.args[0]!);
          break;
        case 'luminance':
        case 'dot': {
          const x = v(node.args[0]!);
          const y = node.fn === 'dot' ? v(node.args[1]!) : null;
          const width = node.fn === 'dot' ? node.args[0]!.size : 3;
          const terms = [...'xyzw'.slice(0, width)].map((c, k) => `${x}.${c} * ${y ? `${y}.${c}` : constant(LUMA32[k]!)}`);
          e = terms.reduce((sum, term) => `(${sum} + ${term})`);
          break;
        }
      }
    lines.push(`  let ${v(node)}: ${T} = ${e};`);
  }
  const root = program.root;
  const out = root.size === 1 ? `vec4f(vec3f(${v(root)}), 1.0)` : root.size === 3 ? `vec4f(${v(root)}, 1.0)` : v(root);
  const bindings = bound.map((b, k) => `@group(0) @binding(${k + 1}) var in${k}: texture_2d<${b === 'uint' ? 'u32' : 'f32'}>;`);
  let direct = 0;
  const loads = reads.map((r, k) => {
    if (r.from === 'packed') return `  let c${k} = textureLoad(in${directCount + r.group}, q, 0).${'xyzw'[r.component]};`;
    const t = `in${direct++}`;
    const at = r.subsampled ? `sampleIndex(sp.planes[${k}], p)` : 'q';
    const load = `textureLoad(${t}, clamp(${at}, vec2i(0), vec2i(textureDimensions(${t})) - 1), 0).x`;
    return `  let c${k} = ${r.kind === 'uint' ? `f32(${load})` : load};`;
  });
  return `// channel expression: ${program.text.replace(/[\r\n]+/g, ' ').slice(0, 200)}
struct Specials { nan: f32, inf: f32, origin: vec2i, _pad: vec4i, planes: array<vec4i, ${Math.max(1, reads.length)}> };
@group(0) @binding(0) var<uniform> sp: Specials;
${bindings.join('\n')}
@group(0) @binding(${bound.length + 1}) var dst: texture_storage_2d<rgba32float, write>;
${([1, 3, 4] as const).map(helpers).join('')}
fn floorDiv(a: i32, b: i32) -> i32 {
  let q = a / b;
  return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0)));
}
// as assemble.wgsl: s = (xSampling, ySampling, firstX, firstY)
fn sampleIndex(s: vec4i, p: vec2i) -> vec2i { return vec2i(floorDiv(p.x, s.x) - s.z, floorDiv(p.y, s.y) - s.w); }

@compute @workgroup_size(${EXPRESSION_WORKGROUP}, ${EXPRESSION_WORKGROUP})
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(dst);
  if (id.x >= size.x || id.y >= size.y) { return; }
  // q: the pixel in the data window (an unsubsampled plane's texel, a packed texel); p: in the image's coordinates
  let q = vec2i(id.xy);
  let p = sp.origin + q;
${loads.join('\n')}
${lines.join('\n')}
  textureStore(dst, q, ${out});
}
`;
}
