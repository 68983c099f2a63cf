// Matrix ops from the 3×3 colour matrices the built-ins compute, and plain scale/offset ops.

import type { MatrixOp } from '../ops/op.js';
import type { M3 } from '../ops/aces2/primaries.js';

export function matrixOp(m: M3): MatrixOp {
  return { type: 'matrix', m: [m[0]!, m[1]!, m[2]!, 0, m[3]!, m[4]!, m[5]!, 0, m[6]!, m[7]!, m[8]!, 0, 0, 0, 0, 1], offset: [0, 0, 0, 0] };
}

export const scaleOp = (s: number, offset = 0): MatrixOp => ({
  type: 'matrix',
  m: [s, 0, 0, 0, 0, s, 0, 0, 0, 0, s, 0, 0, 0, 0, 1],
  offset: [offset, offset, offset, 0],
});
