// DWA's inverse 8x8 DCT, Y'CbCr -> R'G'B' conversion and float -> half rounding, in float32
// arithmetic ordered exactly as libOpenEXR 3.1 computes them on x86-64 with AVX.
//
// Why this order: OpenEXR 3.1 (ImfDwaCompressor) picks its inverse DCT at run time, and on any
// CPU with AVX it runs a hand-written AVX kernel whose sums associate differently from its scalar
// and SSE2 versions (and whose constants are decimal literals, not .5 cos(k pi/16)). Float
// addition is not associative, so only this order reproduces every half the library produces.
// Every operation below is one float32 operation: the operands are float32 values, the double
// result of a single +, - or * rounds to the same float as the float32 operation would, and
// Math.fround does that rounding.

const fround = Math.fround;

// The AVX kernel's coefficients, as the library spells them (c_k = .5 cos(k pi / 16)).
const A = fround(3.535536e-1); // c4
const B = fround(4.903927e-1); // c1
const C = fround(4.619398e-1); // c2
const D = fround(4.157349e-1); // c3
const E = fround(2.777855e-1); // c5
const F = fround(1.913422e-1); // c6
const G = fround(9.754573e-2); // c7

/**
 * Inverse DCT of one 8x8 block (row-major, in place), knowing that the rows from
 * `8 - zeroedRows` on hold only zeros (0..6; 7 is the same computation). Terms of the zero rows
 * are left out exactly where the library leaves them out, which matters for the sign of zero
 * results.
 */
export function inverseDct8x8(block: Float32Array, zeroedRows: number): void {
  const usedRows = 8 - zeroedRows;

  // Row pass: each row as [E0+O0, E1+O1, E2+O2, E3+O3, E3-O3, E2-O2, E1-O1, E0-O0], where E is
  // the even half (x0 x2 x4 x6 times M1) and O the odd half (x1 x3 x5 x7 times M2), each output
  // summed as (t0 + t1) + (t2 + t3).
  for (let row = 0; row < usedRows; row++) {
    const base = row * 8;
    const x0 = block[base]!;
    const x1 = block[base + 1]!;
    const x2 = block[base + 2]!;
    const x3 = block[base + 3]!;
    const x4 = block[base + 4]!;
    const x5 = block[base + 5]!;
    const x6 = block[base + 6]!;
    const x7 = block[base + 7]!;

    const ax0 = fround(A * x0);
    const ax4 = fround(A * x4);
    const cx2 = fround(C * x2);
    const fx2 = fround(F * x2);
    const cx6 = fround(C * x6);
    const fx6 = fround(F * x6);
    const e0 = fround(fround(ax0 + cx2) + fround(ax4 + fx6));
    const e1 = fround(fround(ax0 + fx2) + fround(-ax4 - cx6));
    const e2 = fround(fround(ax0 - fx2) + fround(cx6 - ax4));
    const e3 = fround(fround(ax0 - cx2) + fround(ax4 - fx6));

    const bx1 = fround(B * x1);
    const dx1 = fround(D * x1);
    const ex1 = fround(E * x1);
    const gx1 = fround(G * x1);
    const bx3 = fround(B * x3);
    const dx3 = fround(D * x3);
    const ex3 = fround(E * x3);
    const gx3 = fround(G * x3);
    const bx5 = fround(B * x5);
    const dx5 = fround(D * x5);
    const ex5 = fround(E * x5);
    const gx5 = fround(G * x5);
    const bx7 = fround(B * x7);
    const dx7 = fround(D * x7);
    const ex7 = fround(E * x7);
    const gx7 = fround(G * x7);
    const o0 = fround(fround(bx1 + dx3) + fround(ex5 + gx7));
    const o1 = fround(fround(dx1 - gx3) + fround(-bx5 - ex7));
    const o2 = fround(fround(ex1 - bx3) + fround(gx5 + dx7));
    const o3 = fround(fround(gx1 - ex3) + fround(dx5 - bx7));

    block[base] = e0 + o0;
    block[base + 1] = e1 + o1;
    block[base + 2] = e2 + o2;
    block[base + 3] = e3 + o3;
    block[base + 4] = e3 - o3;
    block[base + 5] = e2 - o2;
    block[base + 6] = e1 - o1;
    block[base + 7] = e0 - o0;
  }

  if (usedRows <= 1) {
    // Only row 0 is non-zero: every output row is row 0 times c4.
    for (let column = 0; column < 8; column++) {
      const value = fround(block[column]! * A);
      for (let row = 0; row < 8; row++) block[row * 8 + column] = value;
    }
    return;
  }

  // Column pass, vectorised over columns in the library; the association of each sum differs
  // from the row pass, and terms of unused rows are absent, not added as zeros.
  const hasRow2 = usedRows > 2;
  const hasRow3 = usedRows > 3;
  const hasRow4 = usedRows > 4;
  const hasRow5 = usedRows > 5;
  const hasRow6 = usedRows > 6;
  const hasRow7 = usedRows > 7;
  for (let column = 0; column < 8; column++) {
    const r0 = block[column]!;
    const r1 = block[8 + column]!;

    // Odd half.
    const br1 = fround(B * r1);
    const dr1 = fround(D * r1);
    const er1 = fround(E * r1);
    const gr1 = fround(G * r1);
    let o0 = br1;
    let o1 = dr1;
    let o2 = er1;
    let o3 = gr1;
    if (hasRow3) {
      const r3 = block[24 + column]!;
      const br3 = fround(B * r3);
      const dr3 = fround(D * r3);
      const er3 = fround(E * r3);
      const gr3 = fround(G * r3);
      o0 = fround(br1 + dr3);
      o2 = fround(er1 - br3);
      if (hasRow5) {
        const r5 = block[40 + column]!;
        const br5 = fround(B * r5);
        const dr5 = fround(D * r5);
        const er5 = fround(E * r5);
        const gr5 = fround(G * r5);
        o1 = fround(dr1 - fround(gr3 + br5));
        o2 = fround(o2 + gr5);
        if (hasRow7) {
          const r7 = block[56 + column]!;
          const br7 = fround(B * r7);
          const dr7 = fround(D * r7);
          const er7 = fround(E * r7);
          const gr7 = fround(G * r7);
          o0 = fround(o0 + fround(er5 + gr7));
          o1 = fround(o1 - er7);
          o2 = fround(o2 + dr7);
          o3 = fround(fround(gr1 + dr5) - fround(er3 + br7));
        } else {
          o0 = fround(o0 + er5);
          o3 = fround(fround(gr1 + dr5) - er3);
        }
      } else {
        o1 = fround(dr1 - gr3);
        o3 = fround(gr1 - er3);
      }
    }

    // Even half.
    const ar0 = fround(A * r0);
    let sum04 = ar0;
    let diff04 = ar0;
    if (hasRow4) {
      const ar4 = fround(A * block[32 + column]!);
      sum04 = fround(ar0 + ar4);
      diff04 = fround(ar0 - ar4);
    }
    let e0 = sum04;
    let e1 = diff04;
    let e2 = diff04;
    let e3 = sum04;
    if (hasRow2) {
      const r2 = block[16 + column]!;
      let c2f6 = fround(C * r2);
      let f2c6 = fround(F * r2);
      if (hasRow6) {
        const r6 = block[48 + column]!;
        c2f6 = fround(c2f6 + fround(F * r6));
        f2c6 = fround(f2c6 - fround(C * r6));
      }
      e0 = fround(sum04 + c2f6);
      e3 = fround(sum04 - c2f6);
      e1 = fround(diff04 + f2c6);
      e2 = fround(diff04 - f2c6);
    }

    block[column] = e0 + o0;
    block[8 + column] = e1 + o1;
    block[16 + column] = e2 + o2;
    block[24 + column] = e3 + o3;
    block[32 + column] = e3 - o3;
    block[40 + column] = e2 - o2;
    block[48 + column] = e1 - o1;
    block[56 + column] = e0 - o0;
  }
}

/** The spatial value of a block whose AC coefficients are all zero: dc * c4 * c4. */
export function inverseDctDcOnly(dc: number): number {
  return fround(fround(dc * A) * A);
}

const CR_TO_R = fround(1.5747);
const CB_TO_G = fround(-0.1873);
const CR_TO_G = fround(-0.4682);
const CB_TO_B = fround(1.8556);

/** Rec. 709 Y'CbCr -> R'G'B' over `count` values in place (no offsets or scaling). */
export function csc709Inverse(y: Float32Array, cb: Float32Array, cr: Float32Array, count: number): void {
  for (let i = 0; i < count; i++) {
    const luma = y[i]!;
    const blue = cb[i]!;
    const red = cr[i]!;
    y[i] = luma + fround(red * CR_TO_R);
    cb[i] = fround(fround(blue * CB_TO_G) + luma) + fround(red * CR_TO_G);
    cr[i] = fround(blue * CB_TO_B) + luma;
  }
}

/**
 * Float bits -> half bits, rounding to nearest even as the library's F16C conversion and
 * Imath's half(float) both do; NaN stays NaN (quiet, payload truncated).
 */
export function halfFromFloatBits(bits: number): number {
  const sign = (bits >>> 16) & 0x8000;
  const magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x38800000) {
    // normal half, Inf or NaN
    if (magnitude >= 0x7f800000) return magnitude === 0x7f800000 ? sign | 0x7c00 : sign | 0x7e00 | ((magnitude >>> 13) & 0x3ff);
    if (magnitude > 0x477fefff) return sign | 0x7c00; // rounds past 65504
    const rebased = magnitude - 0x38000000;
    return sign | ((rebased + 0xfff + ((rebased >>> 13) & 1)) >>> 13);
  }
  if (magnitude <= 0x33000000) return sign; // at most half the smallest subnormal: rounds to zero
  // subnormal half
  const shift = 126 - (magnitude >>> 23);
  const mantissa = (magnitude & 0x7fffff) | 0x800000;
  const truncated = mantissa >>> shift;
  const rest = (mantissa << (32 - shift)) >>> 0;
  return sign | (rest > 0x80000000 || (rest === 0x80000000 && (truncated & 1) === 1) ? truncated + 1 : truncated);
}
