// The expression language's functions and operators: names, argument counts and the types they take and give.

/** Value sizes: a scalar, an RGB or an RGBA vector. */
export type Size = 1 | 3 | 4;

/** Every operation of the checked program: operators by name, functions as written (mix is lerp). */
export type Fn =
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'neg'
  | 'lt'
  | 'le'
  | 'gt'
  | 'ge'
  | 'eq'
  | 'ne'
  | 'abs'
  | 'sqrt'
  | 'exp'
  | 'log'
  | 'floor'
  | 'min'
  | 'max'
  | 'pow'
  | 'clamp'
  | 'lerp'
  | 'select'
  | 'luminance'
  | 'dot'
  | 'vec3'
  | 'vec4'
  | 'rgb';

export const BINARY_FNS: Record<string, Fn> = {
  '+': 'add',
  '-': 'sub',
  '*': 'mul',
  '/': 'div',
  '<': 'lt',
  '<=': 'le',
  '>': 'gt',
  '>=': 'ge',
  '==': 'eq',
  '!=': 'ne',
};

/** How a function's arguments and result are typed. */
type Shape =
  /** Component-wise: arguments scalar or one vector size, scalars broadcast; the result has the vector size. */
  | { kind: 'componentwise'; arity: number }
  /** A vector (RGB or RGBA) in, a scalar out. */
  | { kind: 'reduce'; arity: number }
  /** Scalars in, a vector of `size` out (one argument: the scalar in every component). */
  | { kind: 'construct'; size: Size }
  | { kind: 'rgb' };

export const FUNCTIONS: Record<string, { fn: Fn; shape: Shape; usage: string }> = {
  abs: { fn: 'abs', shape: { kind: 'componentwise', arity: 1 }, usage: 'abs(x)' },
  sqrt: { fn: 'sqrt', shape: { kind: 'componentwise', arity: 1 }, usage: 'sqrt(x)' },
  exp: { fn: 'exp', shape: { kind: 'componentwise', arity: 1 }, usage: 'exp(x)' },
  log: { fn: 'log', shape: { kind: 'componentwise', arity: 1 }, usage: 'log(x)' },
  floor: { fn: 'floor', shape: { kind: 'componentwise', arity: 1 }, usage: 'floor(x)' },
  min: { fn: 'min', shape: { kind: 'componentwise', arity: 2 }, usage: 'min(a, b)' },
  max: { fn: 'max', shape: { kind: 'componentwise', arity: 2 }, usage: 'max(a, b)' },
  pow: { fn: 'pow', shape: { kind: 'componentwise', arity: 2 }, usage: 'pow(x, y)' },
  clamp: { fn: 'clamp', shape: { kind: 'componentwise', arity: 3 }, usage: 'clamp(x, low, high)' },
  lerp: { fn: 'lerp', shape: { kind: 'componentwise', arity: 3 }, usage: 'lerp(a, b, t)' },
  mix: { fn: 'lerp', shape: { kind: 'componentwise', arity: 3 }, usage: 'mix(a, b, t)' },
  select: { fn: 'select', shape: { kind: 'componentwise', arity: 3 }, usage: 'select(condition, ifTrue, ifFalse)' },
  luminance: { fn: 'luminance', shape: { kind: 'reduce', arity: 1 }, usage: 'luminance(rgb)' },
  dot: { fn: 'dot', shape: { kind: 'reduce', arity: 2 }, usage: 'dot(a, b)' },
  vec3: { fn: 'vec3', shape: { kind: 'construct', size: 3 }, usage: 'vec3(r, g, b)' },
  vec4: { fn: 'vec4', shape: { kind: 'construct', size: 4 }, usage: 'vec4(r, g, b, a)' },
  rgb: { fn: 'rgb', shape: { kind: 'rgb' }, usage: 'rgb(rgba)' },
};

/** Named constants, used where no channel or layer has the name. */
export const CONSTANTS: Record<string, number> = { pi: Math.PI, inf: Infinity, nan: NaN };

/** Rec. 709 luminance weights, the display's (shaders/display-params.ts LUMA). */
export { LUMA } from '../display-params.js';
