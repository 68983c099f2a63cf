// tev's vector-graphics commands (`VgCommand`): for each type byte, its name and how many floats follow (text ones add a string).

import type { TevVectorCommandKind } from './packet.js';

export interface VectorCommandShape {
  kind: TevVectorCommandKind;
  floats: number;
  hasText: boolean;
}

const shape = (kind: TevVectorCommandKind, floats: number, hasText = false): VectorCommandShape => ({ kind, floats, hasText });

/** By type byte, as tev's `VgCommand::EType` numbers them; the float counts are its `bytes()` over 4. */
export const VECTOR_COMMANDS: ReadonlyMap<number, VectorCommandShape> = new Map([
  [0, shape('save', 0)],
  [1, shape('restore', 0)],
  [2, shape('fill-color', 4)],
  [3, shape('fill', 0)],
  [4, shape('stroke-color', 4)],
  [5, shape('stroke', 0)],
  [6, shape('begin-path', 0)],
  [7, shape('close-path', 0)],
  [8, shape('path-winding', 1)],
  [9, shape('debug-dump-path-cache', 0)],
  [10, shape('move-to', 2)],
  [11, shape('line-to', 2)],
  [12, shape('arc-to', 5)],
  [13, shape('arc', 6)],
  [14, shape('bezier-to', 6)],
  [15, shape('circle', 3)],
  [16, shape('ellipse', 4)],
  [17, shape('quad-to', 4)],
  [18, shape('rect', 4)],
  [19, shape('rounded-rect', 5)],
  [20, shape('rounded-rect-varying', 8)],
  [21, shape('text', 2, true)],
  [22, shape('text-align', 1)],
  [23, shape('font-face', 0, true)],
  [24, shape('font-size', 2)],
  [25, shape('stroke-width', 2)],
]);

/** The type byte of a command kind (for writing packets). */
export function vectorCommandByte(kind: TevVectorCommandKind): number {
  for (const [byte, s] of VECTOR_COMMANDS) if (s.kind === kind) return byte;
  throw new Error(`no vector command "${kind}"`);
}
