// OCIO's lossless optimisations that change results at the edges: inverse pairs replaced by their clamp, matrices composed.

import { composeMatrices, invertMatrix, isIdentityMatrix } from './ops/matrix.js';
import type { CdlOp, MatrixOp, Op, RangeOp } from './ops/op.js';

const clampBelow = (min: number): RangeOp => ({ type: 'range', minIn: min, minOut: min });
const clamp01 = (): RangeOp => ({ type: 'range', minIn: 0, maxIn: 1, minOut: 0, maxOut: 1 });

/** The op that replaces `a` followed by its inverse `b` (null: nothing), or undefined when they are not an inverse pair. */
function pairReplacement(a: Op, b: Op): Op | null | undefined {
  const sameList = (x: number[], y: number[]): boolean => x.length === y.length && x.every((v, i) => v === y[i]);
  if (a.type === 'gamma' && b.type === 'gamma') {
    if (a.style !== b.style || a.direction === b.direction || !sameList(a.gamma, b.gamma) || !sameList(a.offset, b.offset))
      return undefined;
    if (a.style === 'basicMirror' || a.style === 'basicPassThru') return undefined;
    return a.style === 'basic' ? clampBelow(0) : null;
  }
  if (a.type === 'log' && b.type === 'log') {
    const flat = (p: number[][]): number[] => p.flat();
    const equalChannels = a.params.every((p) => sameList(p, a.params[0]!));
    if (
      a.direction === b.direction ||
      a.base !== b.base ||
      a.camera !== b.camera ||
      !equalChannels ||
      !sameList(flat(a.params), flat(b.params))
    )
      return undefined;
    if (a.direction === 'inverse' || a.camera) return null;
    const p = a.params[0]!;
    return clampBelow(-p[3]! / p[2]!);
  }
  if (a.type === 'cdl' && b.type === 'cdl') {
    const same =
      a.clamp === b.clamp &&
      sameList(a.slope, b.slope) &&
      sameList(a.offset, b.offset) &&
      sameList(a.power, b.power) &&
      a.saturation === b.saturation;
    if (!same || a.direction === b.direction) return undefined;
    return a.clamp ? clamp01() : null;
  }
  if (a.type === 'exposureContrast' && b.type === 'exposureContrast') {
    const same =
      a.style === b.style && a.exposure === b.exposure && a.contrast === b.contrast && a.gamma === b.gamma && a.pivot === b.pivot;
    return same && a.direction !== b.direction ? null : undefined;
  }
  if ((a.type === 'lut1d' && b.type === 'lut1d') || (a.type === 'lut3d' && b.type === 'lut3d')) {
    return a.values === b.values && a.direction !== b.direction ? clamp01() : undefined;
  }
  if (GRADING.has(a.type) && a.type === b.type && 'direction' in a && 'direction' in b && a.direction !== b.direction) {
    // OCIO's pair identity for the Grading ops: the same values, opposite directions, and nothing left
    return JSON.stringify({ ...a, direction: '' }) === JSON.stringify({ ...b, direction: '' }) ? null : undefined;
  }
  return undefined;
}

const GRADING = new Set<Op['type']>(['gradingPrimary', 'gradingRgbCurve', 'gradingTone', 'gradingHueCurve']);

const LUMA = [0.2126, 0.7152, 0.0722];

/** A CDL whose power is 1 is a slope/offset matrix and a saturation matrix (with clamps), which OCIO composes with its neighbours. */
function simplerCdl(op: CdlOp): Op[] | undefined {
  if (op.power.some((p) => p !== 1)) return undefined;
  const [r, g, b] = op.slope as [number, number, number];
  const directed = (m: MatrixOp): MatrixOp => (op.direction === 'forward' ? m : (invertMatrix(m) ?? m));
  const ops: Op[] = [directed({ type: 'matrix', m: [r, 0, 0, 0, 0, g, 0, 0, 0, 0, b, 0, 0, 0, 0, 1], offset: [...op.offset, 0] })];
  if (op.saturation !== 1) {
    if (op.clamp) ops.push(clamp01());
    const s = op.saturation;
    const m = [0, 1, 2, 3].flatMap((row) =>
      [0, 1, 2, 3].map((col) => (row === 3 || col === 3 ? (row === col ? 1 : 0) : (1 - s) * LUMA[col]! + (row === col ? s : 0))),
    );
    ops.push(directed({ type: 'matrix', m, offset: [0, 0, 0, 0] }));
  }
  if (op.clamp) ops.push(clamp01());
  return op.direction === 'forward' ? ops : ops.reverse();
}

/** A Range with no scale or offset that clamps nothing inside [0, 1] (OCIO's identity Range). */
function clampsOnlyOutside01(op: RangeOp): boolean {
  return (
    op.minIn === op.minOut &&
    op.maxIn === op.maxOut &&
    (op.minIn === undefined || op.minIn <= 0) &&
    (op.maxIn === undefined || op.maxIn >= 1)
  );
}

export function optimiseOps(input: readonly Op[]): Op[] {
  let ops = input.flatMap((op) => (op.type === 'cdl' ? (simplerCdl(op) ?? [op]) : [op]));
  for (let pass = 0; pass < 80; pass++) {
    let changed = false;
    const next: Op[] = [];
    for (const op of ops) {
      const prev = next[next.length - 1];
      if (op.type === 'matrix' && isIdentityMatrix(op)) {
        changed = true;
        continue;
      }
      if (prev?.type === 'matrix' && op.type === 'matrix') {
        next[next.length - 1] = composeMatrices(prev, op);
        changed = true;
        continue;
      }
      if (
        prev?.type === 'range' &&
        clampsOnlyOutside01(prev) &&
        (op.type === 'lut1d' || op.type === 'lut3d') &&
        op.direction === 'forward'
      ) {
        // as OCIO: the LUT clamps its input itself, so a plain clamp before it goes (which a hueAdjust LUT notices)
        next[next.length - 1] = op;
        changed = true;
        continue;
      }
      if (prev) {
        const replacement = pairReplacement(prev, op);
        if (replacement !== undefined) {
          next.pop();
          if (replacement) next.push(replacement);
          changed = true;
          continue;
        }
      }
      next.push(op);
    }
    ops = next;
    if (!changed) break;
  }
  return ops;
}
