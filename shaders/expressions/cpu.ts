// The CPU evaluator of a checked expression (the GPU's reference): node by node over whole planes, float32 throughout.
import type { ExpressionProgram, Node } from './check.js';
import { COMPONENTWISE, dot32, LUMA32 } from './scalar.js';

/**
 * The expression over `pixelCount` pixels as interleaved RGBA float32 (a scalar shown as grey; alpha 1 unless the
 * result has one). `planes[k]` holds program.planes[k]'s value at each pixel.
 */
export function evaluateExpression(program: ExpressionProgram, planes: readonly ArrayLike<number>[], pixelCount: number): Float32Array {
  const n = pixelCount;
  const lastUse = new Map<number, number>();
  for (const node of program.nodes) if (node.k === 'fn') for (const a of node.args) lastUse.set(a.id, node.id);
  const values = new Map<number, Float32Array[]>();
  for (const node of program.nodes) {
    values.set(node.id, evaluateNode(node, values, planes, n));
    if (node.k === 'fn') for (const a of node.args) if (lastUse.get(a.id) === node.id) values.delete(a.id);
  }
  const result = values.get(program.root.id)!;
  const out = new Float32Array(n * 4);
  for (let c = 0; c < 4; c++) {
    const src = result.length === 1 ? (c < 3 ? result[0] : null) : (result[c] ?? null);
    if (src) for (let i = 0; i < n; i++) out[i * 4 + c] = src[i]!;
    else for (let i = 0; i < n; i++) out[i * 4 + c] = 1;
  }
  return out;
}

function evaluateNode(node: Node, values: Map<number, Float32Array[]>, planes: readonly ArrayLike<number>[], n: number): Float32Array[] {
  if (node.k === 'const') return [new Float32Array(n).fill(node.value)];
  if (node.k === 'plane') return [Float32Array.from(planes[node.plane]!)];
  const args = node.args.map((a) => values.get(a.id)!);
  // a scalar argument of a vector operation is the same in every component
  const comp = (k: number, c: number): Float32Array => (args[k]!.length === 1 ? args[k]![0]! : args[k]![c]!);
  switch (node.fn) {
    case 'vec3':
    case 'vec4':
      return Array.from({ length: node.size }, (_, c) => comp(args.length === 1 ? 0 : c, 0));
    case 'rgb':
      return args[0]!.slice(0, 3);
    case 'luminance':
    case 'dot': {
      const out = new Float32Array(n);
      const width = args[0]!.length;
      const a = new Array<number>(width),
        b = new Array<number>(width);
      for (let i = 0; i < n; i++) {
        for (let c = 0; c < width; c++) {
          a[c] = args[0]![c]![i]!;
          b[c] = node.fn === 'dot' ? args[1]![c]![i]! : (LUMA32[c] ?? 0);
        }
        out[i] = dot32(node.fn === 'dot' ? a : a.slice(0, 3), node.fn === 'dot' ? b : b.slice(0, 3));
      }
      return [out];
    }
    default: {
      const op = COMPONENTWISE[node.fn]!;
      return Array.from({ length: node.size }, (_, c) => {
        const out = new Float32Array(n);
        const x = comp(0, c),
          y = args.length > 1 ? comp(1, c) : x,
          z = args.length > 2 ? comp(2, c) : x;
        for (let i = 0; i < n; i++) out[i] = op(x[i]!, y[i]!, z[i]!);
        return out;
      });
    }
  }
}
