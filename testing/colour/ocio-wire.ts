// Ops as they cross Playwright's page.evaluate: tables as plain arrays, turned back into Float32Arrays in the page.
import type { Op } from '../../shaders/colour/ops/op.js';

export type WireOp = Record<string, unknown> & { type: string; values?: number[] };

export function toWire(ops: readonly Op[]): WireOp[] {
  return ops.map((op) => ('values' in op ? { ...op, values: Array.from(op.values) } : { ...op }) as WireOp);
}

export function fromWire(ops: WireOp[]): Op[] {
  return ops.map((op) => (op.values ? { ...op, values: Float32Array.from(op.values) } : op) as unknown as Op);
}
