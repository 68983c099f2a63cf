// The type checker: resolves names against an image's channels and types every node (scalar, RGB, RGBA), giving the
// program the CPU evaluator and the WGSL generator both run.
import { ExpressionError, MAX_NODES, MAX_PLANES } from './errors.js';
import { BINARY_FNS, CONSTANTS, FUNCTIONS, type Fn, type Size } from './functions.js';
import { parse, type Ast } from './parser.js';

export type Node = { id: number; size: Size; start: number; end: number } & (
  { k: 'const'; value: number } | { k: 'plane'; plane: number } | { k: 'fn'; fn: Fn; args: Node[] }
);

/** A node before it is numbered. */
type NodeInit = Node extends infer N ? (N extends Node ? Omit<N, 'id'> : never) : never;

export interface ExpressionProgram {
  text: string;
  /** The channels read, each once, in order of first use; plane nodes index this list. */
  planes: string[];
  /** Every node, each after its arguments: the order both evaluators run them in. */
  nodes: Node[];
  root: Node;
  /** Names of the result's channels for panels: one for a scalar, R G B (A) for a vector. */
  labels: string[];
}

const SUFFIXES: Record<string, string[]> = { R: ['R', 'r', 'red'], G: ['G', 'g', 'green'], B: ['B', 'b', 'blue'], A: ['A', 'a', 'alpha'] };
const sizeName = (s: Size): string => (s === 1 ? 'a scalar' : s === 3 ? 'an RGB value' : 'an RGBA value');

export function check(text: string, channels: readonly string[]): ExpressionProgram {
  const tree = parse(text);
  const planes: string[] = [];
  const nodes: Node[] = [];
  const channelSet = new Set(channels);
  const add = (n: NodeInit): Node => {
    if (nodes.length >= MAX_NODES)
      throw new ExpressionError(`the expression has more than ${MAX_NODES} operations: simplify it`, n.start, n.end);
    const node = { ...n, id: nodes.length } as Node;
    nodes.push(node);
    return node;
  };
  const plane = (name: string, start: number, end: number): Node => {
    let index = planes.indexOf(name);
    if (index < 0) index = planes.push(name) - 1;
    return add({ k: 'plane', plane: index, size: 1, start, end });
  };

  function resolve(a: Extract<Ast, { kind: 'name' }>): Node {
    const full = a.segments.join('.');
    if (channelSet.has(full)) return plane(full, a.start, a.end);
    const inLayer = channels.filter((c) => c.startsWith(`${full}.`) && !c.slice(full.length + 1).includes('.'));
    if (inLayer.length > 0) {
      const pick = (k: string) => inLayer.find((c) => SUFFIXES[k]!.includes(c.slice(full.length + 1)));
      const [r, g, b, alpha] = ['R', 'G', 'B', 'A'].map(pick);
      if (r && g && b) {
        const args = [r, g, b, ...(alpha ? [alpha] : [])].map((c) => plane(c, a.start, a.end));
        return add({ k: 'fn', fn: alpha ? 'vec4' : 'vec3', args, size: alpha ? 4 : 3, start: a.start, end: a.end });
      }
      if (inLayer.length === 1) return plane(inLayer[0]!, a.start, a.end);
      throw new ExpressionError(
        `layer ${full} has no R, G and B; name one of its channels: ${inLayer.slice(0, 6).join(', ')}${inLayer.length > 6 ? ', …' : ''}`,
        a.start,
        a.end,
      );
    }
    if (!a.quoted && a.segments.length === 1 && full in CONSTANTS)
      return add({ k: 'const', value: CONSTANTS[full]!, size: 1, start: a.start, end: a.end });
    const near = nearest(full, [...channels, ...layersOf(channels)]);
    throw new ExpressionError(
      `no channel or layer named ${full} in this image${near ? `; did you mean ${near}?` : ''} (quote names with odd characters: "name".R)`,
      a.start,
      a.end,
    );
  }

  /** Scalars broadcast to the one vector size of `args`; RGB with RGBA is an error at the second. */
  function common(args: Node[], what: string): Size {
    let size: Size = 1;
    let first: Node | null = null;
    for (const a of args) {
      if (a.size === 1) continue;
      if (size !== 1 && a.size !== size)
        throw new ExpressionError(
          `${what} mixes ${sizeName(size)} with ${sizeName(a.size)}: drop the alpha with rgb(...) first (at ${first!.start + 1})`,
          a.start,
          a.end,
        );
      size = a.size;
      first ??= a;
    }
    return size;
  }

  function visit(a: Ast): Node {
    switch (a.kind) {
      case 'number':
        return add({ k: 'const', value: Math.fround(a.value), size: 1, start: a.start, end: a.end });
      case 'name':
        return resolve(a);
      case 'negate': {
        const arg = visit(a.arg);
        return add({ k: 'fn', fn: 'neg', args: [arg], size: arg.size, start: a.start, end: a.end });
      }
      case 'binary': {
        const args = [visit(a.left), visit(a.right)];
        return add({ k: 'fn', fn: BINARY_FNS[a.op]!, args, size: common(args, `"${a.op}"`), start: a.start, end: a.end });
      }
      case 'call':
        return call(a);
    }
  }

  function call(a: Extract<Ast, { kind: 'call' }>): Node {
    const f = FUNCTIONS[a.name];
    if (!f)
      throw new ExpressionError(`unknown function ${a.name}; the functions are ${Object.keys(FUNCTIONS).join(', ')}`, a.start, a.nameEnd);
    const args = a.args.map(visit);
    const span = { start: a.start, end: a.end };
    const shape = f.shape;
    const arity = shape.kind === 'construct' ? (args.length === 1 ? 1 : shape.size) : shape.kind === 'rgb' ? 1 : shape.arity;
    if (args.length !== arity)
      throw new ExpressionError(
        `${a.name} takes ${arity} argument${arity === 1 ? '' : 's'}, not ${args.length}: ${f.usage}`,
        a.start,
        a.end,
      );
    if (shape.kind === 'componentwise') return add({ k: 'fn', fn: f.fn, args, size: common(args, a.name), ...span });
    if (shape.kind === 'construct') {
      const bad = args.find((x) => x.size !== 1);
      if (bad) throw new ExpressionError(`${a.name} takes scalars, and this is ${sizeName(bad.size)}: ${f.usage}`, bad.start, bad.end);
      return add({ k: 'fn', fn: f.fn, args, size: shape.size, ...span });
    }
    const bad = args.find((x) => x.size === 1);
    if (bad) throw new ExpressionError(`${a.name} takes an RGB or RGBA value, and this is a scalar: ${f.usage}`, bad.start, bad.end);
    if (shape.kind === 'rgb') return add({ k: 'fn', fn: 'rgb', args, size: 3, ...span });
    if (args.length === 2) common(args, a.name);
    return add({ k: 'fn', fn: f.fn, args, size: 1, ...span });
  }

  const root = visit(tree);
  if (planes.length > MAX_PLANES)
    throw new ExpressionError(
      `the expression reads ${planes.length} channels; at most ${MAX_PLANES} fit one GPU pass: read fewer`,
      0,
      text.length,
    );
  const labels = root.size === 1 ? ['value'] : ['R', 'G', 'B', 'A'].slice(0, root.size);
  return { text, planes, nodes, root, labels };
}

/** Layer names of a channel list: every dotted prefix. */
function layersOf(channels: readonly string[]): string[] {
  const out = new Set<string>();
  for (const c of channels) for (let i = c.indexOf('.'); i > 0; i = c.indexOf('.', i + 1)) out.add(c.slice(0, i));
  return [...out];
}

/** The candidate closest to `name` by edit distance, when close enough to be a typo. */
function nearest(name: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const c of candidates.slice(0, 2000)) {
    if (Math.abs(c.length - name.length) >= bestDistance || c.length > 200 || name.length > 200) continue;
    const d = editDistance(name.toLowerCase(), c.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}
