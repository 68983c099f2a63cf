// A WebAssembly SIMD kernel for DWA's per-block work (inverse DCT, colour conversion, float to
// half, transfer table), generated at load time; dwa-dct.ts is its fallback and test oracle.
//
// Why WebAssembly: the arithmetic must be float32 in the library's exact order. In JavaScript
// every float32 operation costs a double operation plus Math.fround; WebAssembly's f32x4
// operations are IEEE binary32 with round-to-nearest-even, one instruction each, and four lanes
// wide like the library's own SIMD. The module is emitted from the code below (no binary blob).

// ---------------------------------------------------------------------------------------------
// A minimal WebAssembly assembler: instructions are byte arrays, concatenated.

type Code = number[];

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    let byte = v & 0x7f;
    v >>>= 7;
    if (v !== 0) byte |= 0x80;
    out.push(byte);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0)) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

const I32 = 0x7f;
const V128 = 0x7b;
const VOID = 0x40;

const get = (local: number): Code => [0x20, ...uleb(local)];
const set = (local: number): Code => [0x21, ...uleb(local)];
const i32 = (value: number): Code => [0x41, ...sleb(value)];
const memarg = (alignLog2: number, offset: number) => [alignLog2, ...uleb(offset)];
const simd = (op: number, ...immediate: number[]): Code => [0xfd, ...uleb(op), ...immediate];

const op = {
  add: [0x6a],
  sub: [0x6b],
  mul: [0x6c],
  and: [0x71],
  shl: [0x74],
  shrU: [0x76],
  eq: [0x46],
  ltU: [0x49],
  f32Mul: [0x94],
  or: [0x72],
  eqz: [0x45],
  geU: [0x4f],
  select: [0x1b],
  i32Load: (offset = 0) => [0x28, ...memarg(2, offset)],
  load8U: (offset = 0) => [0x2d, ...memarg(0, offset)],
  f32Store: (offset = 0) => [0x38, ...memarg(2, offset)],
  load16U: (offset = 0) => [0x2f, ...memarg(1, offset)],
  store16: (offset = 0) => [0x3b, ...memarg(1, offset)],
  f32Load: (offset = 0) => [0x2a, ...memarg(2, offset)],
  v128Load: (offset = 0) => simd(0x00, ...memarg(4, offset)),
  v128Store: (offset = 0) => simd(0x0b, ...memarg(4, offset)),
  load32Splat: (offset = 0) => simd(0x09, ...memarg(2, offset)),
  shuffle: (lanes: number[]) => simd(0x0d, ...lanes),
  f32x4Splat: simd(0x13),
  i32x4Splat: simd(0x11),
  extractLane: (lane: number) => simd(0x1b, lane),
  ltS: simd(0x39),
  gtS: simd(0x3b),
  and128: simd(0x4e),
  or128: simd(0x50),
  bitselect: simd(0x52),
  shl32: simd(0xab),
  shrU32: simd(0xad),
  add32: simd(0xae),
  sub32: simd(0xb1),
  minU32: simd(0xb7),
  fAdd: simd(0xe4),
  fSub: simd(0xe5),
  fMul: simd(0xe6),
};

const constants = new Map<string, Code>();

function v128Const(lanes: readonly number[], kind: 'f32' | 'i32'): Code {
  const key = `${kind}:${lanes.join(',')}`;
  const known = constants.get(key);
  if (known) return known;
  const bytes = new Uint8Array(16);
  const view = new DataView(bytes.buffer);
  lanes.forEach((lane, i) => (kind === 'f32' ? view.setFloat32(i * 4, lane, true) : view.setInt32(i * 4, lane, true)));
  const code = simd(0x0c, ...bytes);
  constants.set(key, code);
  return code;
}
const f32x4 = (a: number, b = a, c = a, d = a) => v128Const([a, b, c, d], 'f32');
const i32x4 = (value: number) => v128Const([value, value, value, value], 'i32');

// concat rather than spreads: generation runs once, cold, and spreads of long arrays are slow there.
const block = (body: Code): Code => [0x02, VOID].concat(body, [0x0b]);
const loop = (body: Code): Code => [0x03, VOID].concat(body, [0x0b]);
const ifThen = (body: Code): Code => [0x04, VOID].concat(body, [0x0b]);
const br = (depth: number): Code => [0x0c, ...uleb(depth)];
const brIf = (depth: number): Code => [0x0d, ...uleb(depth)];
const brTable = (targets: number[], fallback: number): Code => [0x0e, ...uleb(targets.length), ...targets.flatMap(uleb), ...uleb(fallback)];

// ---------------------------------------------------------------------------------------------
// The kernel. Memory layout (bytes):

/** Two half -> half tables: the transfer curve and the identity (for pLinear channels). */
export const TABLE_OFFSET = 0;
export const IDENTITY_TABLE_OFFSET = 131072;
/** half bits -> float32, for coefficients. */
const HALF_TO_FLOAT_OFFSET = 262144;
/** Zig-zag index -> byte offset of the natural position (64 i32), then zig-zag index of the last
 *  non-zero coefficient -> trailing zero rows (64 bytes). */
const ZIGZAG_OFFSET = HALF_TO_FLOAT_OFFSET + 262144;
const ZEROED_ROWS_OFFSET = ZIGZAG_OFFSET + 256;
/** Flag in block()'s `comps`: stop after the colour conversion, leaving floats in the blocks. */
export const FLOAT_ONLY = 1 << 30;
/** Three 8x8 float32 blocks of coefficients, in natural order; the kernel zeroes them after use. */
export const COEFFICIENT_OFFSET = ZEROED_ROWS_OFFSET + 64;
/** Where the decoder's working area starts: output rows, then DC and AC values. */
export const WORK_OFFSET = COEFFICIENT_OFFSET + 3 * 256;

// The library's constants (see dwa-dct.ts) and its AVX kernel's matrix columns.
const fr = Math.fround;
const A = fr(3.535536e-1);
const B = fr(4.903927e-1);
const C = fr(4.619398e-1);
const D = fr(4.157349e-1);
const E = fr(2.777855e-1);
const F = fr(1.913422e-1);
const G = fr(9.754573e-2);
const M1 = [f32x4(A, A, A, A), f32x4(C, F, -F, -C), f32x4(A, -A, -A, A), f32x4(F, -C, C, -F)];
const M2 = [f32x4(B, D, E, G), f32x4(D, -G, -B, -E), f32x4(E, -B, G, D), f32x4(G, -E, D, -B)];

// Parameters and locals of block().
const P_COEF = 0;
const P_COMPS = 1;
const P_ZEROED = 2;
const P_OUT = 3;
const P_STRIDE = 4;
const L_COMP = 5;
const L_PTR = 6;
const L_Z = 7;
const L_OUT = 8;
const L_HALF = 9;
const I32_LOCALS = 5;
const V_BASE = P_STRIDE + 1 + I32_LOCALS;
// v128 locals: rows r0..r7, even/odd e0..e3, o0..o3, scratch t0..t3.
const R = (k: number) => V_BASE + k;
const EV = (k: number) => V_BASE + 8 + k;
const OD = (k: number) => V_BASE + 12 + k;
const T = (k: number) => V_BASE + 16 + k;
const V128_LOCALS = 20;

const mul = (a: Code, b: Code): Code => a.concat(b, op.fMul);
const add = (a: Code, b: Code): Code => a.concat(b, op.fAdd);
const sub = (a: Code, b: Code): Code => a.concat(b, op.fSub);

/** Row pass of one row at L_PTR + 32 * row: [E + O, reversed(E - O)], sums as (t0 + t1) + (t2 + t3). */
function rowPass(row: number): Code {
  const base = row * 32;
  const x = (j: number): Code => [...get(L_PTR), ...op.load32Splat(base + 4 * j)];
  const even = add(add(mul(x(0), M1[0]!), mul(x(2), M1[1]!)), add(mul(x(4), M1[2]!), mul(x(6), M1[3]!)));
  const odd = add(add(mul(x(1), M2[0]!), mul(x(3), M2[1]!)), add(mul(x(5), M2[2]!), mul(x(7), M2[3]!)));
  const reverse = [12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3];
  return [
    ...even,
    ...set(T(0)),
    ...odd,
    ...set(T(1)),
    ...get(L_PTR),
    ...add(get(T(0)), get(T(1))),
    ...op.v128Store(base),
    ...sub(get(T(0)), get(T(1))),
    ...set(T(2)),
    ...get(L_PTR),
    ...get(T(2)),
    ...get(T(2)),
    ...op.shuffle(reverse),
    ...op.v128Store(base + 16),
  ];
}

/** Column pass over four columns (half 0: columns 0..3, half 1: 4..7), rows below usedRows absent. */
function columnPass(half: number, usedRows: number): Code {
  const at = (row: number) => row * 32 + half * 16;
  const code: Code = [];
  for (let k = 0; k < usedRows; k++) code.push(...get(L_PTR), ...op.v128Load(at(k)), ...set(R(k)));
  const r = (k: number) => get(R(k));
  const c = (value: number) => f32x4(value);
  if (usedRows <= 1) {
    code.push(...mul(r(0), c(A)), ...set(T(0)));
    for (let k = 0; k < 8; k++) code.push(...get(L_PTR), ...get(T(0)), ...op.v128Store(at(k)));
    return code;
  }
  const has = (row: number) => row < usedRows;
  // Odd half: o0 = (b r1 + d r3) + (e r5 + g r7), o1 = (d r1 - (g r3 + b r5)) - e r7,
  // o2 = ((e r1 - b r3) + g r5) + d r7, o3 = (g r1 + d r5) - (e r3 + b r7).
  let o0 = mul(r(1), c(B));
  let o1 = mul(r(1), c(D));
  let o2 = mul(r(1), c(E));
  let o3 = mul(r(1), c(G));
  if (has(3)) {
    o0 = add(o0, mul(r(3), c(D)));
    o2 = sub(o2, mul(r(3), c(B)));
    if (has(5)) {
      o1 = sub(o1, add(mul(r(3), c(G)), mul(r(5), c(B))));
      o2 = add(o2, mul(r(5), c(G)));
      if (has(7)) {
        o0 = add(o0, add(mul(r(5), c(E)), mul(r(7), c(G))));
        o1 = sub(o1, mul(r(7), c(E)));
        o2 = add(o2, mul(r(7), c(D)));
        o3 = sub(add(o3, mul(r(5), c(D))), add(mul(r(3), c(E)), mul(r(7), c(B))));
      } else {
        o0 = add(o0, mul(r(5), c(E)));
        o3 = sub(add(o3, mul(r(5), c(D))), mul(r(3), c(E)));
      }
    } else {
      o1 = sub(o1, mul(r(3), c(G)));
      o3 = sub(o3, mul(r(3), c(E)));
    }
  }
  code.push(...o0, ...set(OD(0)), ...o1, ...set(OD(1)), ...o2, ...set(OD(2)), ...o3, ...set(OD(3)));
  // Even half: sum04 = a r0 + a r4, diff04 = a r0 - a r4; c2f6 = c r2 + f r6, f2c6 = f r2 - c r6.
  code.push(...mul(r(0), c(A)), ...set(T(0)));
  if (has(4)) {
    code.push(...mul(r(4), c(A)), ...set(T(1)));
    code.push(...add(get(T(0)), get(T(1))), ...set(T(2)), ...sub(get(T(0)), get(T(1))), ...set(T(3)));
  } else {
    code.push(...get(T(0)), ...set(T(2)), ...get(T(0)), ...set(T(3)));
  }
  if (has(2)) {
    let c2f6 = mul(r(2), c(C));
    let f2c6 = mul(r(2), c(F));
    if (has(6)) {
      c2f6 = add(c2f6, mul(r(6), c(F)));
      f2c6 = sub(f2c6, mul(r(6), c(C)));
    }
    code.push(...c2f6, ...set(T(0)), ...f2c6, ...set(T(1)));
    code.push(...add(get(T(2)), get(T(0))), ...set(EV(0)), ...sub(get(T(2)), get(T(0))), ...set(EV(3)));
    code.push(...add(get(T(3)), get(T(1))), ...set(EV(1)), ...sub(get(T(3)), get(T(1))), ...set(EV(2)));
  } else {
    code.push(...get(T(2)), ...set(EV(0)), ...get(T(2)), ...set(EV(3)), ...get(T(3)), ...set(EV(1)), ...get(T(3)), ...set(EV(2)));
  }
  for (let k = 0; k < 4; k++) {
    code.push(...get(L_PTR), ...add(get(EV(k)), get(OD(k))), ...op.v128Store(at(k)));
    code.push(...get(L_PTR), ...sub(get(EV(k)), get(OD(k))), ...op.v128Store(at(7 - k)));
  }
  return code;
}

function inverseDct(zeroedRows: number): Code {
  const usedRows = 8 - zeroedRows;
  const code: Code = [];
  for (let row = 0; row < usedRows; row++) code.push(...rowPass(row));
  code.push(...columnPass(0, usedRows), ...columnPass(1, usedRows));
  return code;
}

/** A DC-only block: every value is dc * c4 * c4 (scalar float32, then splat). */
function dcFill(): Code {
  const code: Code = [...get(L_PTR), ...op.f32Load(0), 0x43, ...new Uint8Array(Float32Array.of(A).buffer), ...op.f32Mul];
  code.push(0x43, ...new Uint8Array(Float32Array.of(A).buffer), ...op.f32Mul, ...op.f32x4Splat, ...set(T(0)));
  for (let i = 0; i < 16; i++) code.push(...get(L_PTR), ...get(T(0)), ...op.v128Store(i * 16));
  return code;
}

/** Rec. 709 Y'CbCr -> R'G'B' over the three blocks at P_COEF, in the library's SSE2 order. */
function csc(): Code {
  const code: Code = [];
  for (let i = 0; i < 16; i++) {
    const y = [...get(P_COEF), ...op.v128Load(i * 16)];
    const cb = [...get(P_COEF), ...op.v128Load(256 + i * 16)];
    const cr = [...get(P_COEF), ...op.v128Load(512 + i * 16)];
    code.push(...y, ...set(T(0)), ...cb, ...set(T(1)), ...cr, ...set(T(2)));
    code.push(...get(P_COEF), ...add(get(T(0)), mul(get(T(2)), f32x4(fr(1.5747)))), ...op.v128Store(i * 16));
    code.push(
      ...get(P_COEF),
      ...add(add(mul(get(T(1)), f32x4(fr(-0.1873))), get(T(0))), mul(get(T(2)), f32x4(fr(-0.4682)))),
      ...op.v128Store(256 + i * 16),
    );
    code.push(...get(P_COEF), ...add(mul(f32x4(fr(1.8556)), get(T(1))), get(T(0))), ...op.v128Store(512 + i * 16));
  }
  return code;
}

/**
 * Four floats (bits on the stack) -> four halves, rounding to nearest even like F16C's
 * vcvtps2ph: normal results by integer rounding, subnormal ones by adding 0.5 in float32
 * (which rounds at the subnormal half's last bit), overflow to Inf, NaN kept quiet.
 */
function floatToHalf4(): Code {
  const bits = T(0);
  const magnitude = T(1);
  return [
    ...set(bits),
    ...get(bits),
    ...i32x4(0x7fffffff),
    ...op.and128,
    ...set(magnitude),
    // normal: ((m - 0x38000000) + 0xfff + lsb) >> 13, capped at Inf
    ...get(magnitude),
    ...i32x4(0x38000000),
    ...op.sub32,
    ...set(T(2)),
    ...get(T(2)),
    ...i32x4(0xfff),
    ...op.add32,
    ...get(T(2)),
    ...i32(13),
    ...op.shrU32,
    ...i32x4(1),
    ...op.and128,
    ...op.add32,
    ...i32(13),
    ...op.shrU32,
    ...i32x4(0x7c00),
    ...op.minU32,
    ...set(T(2)),
    // NaN: 0x7e00 | top mantissa bits
    ...get(magnitude),
    ...i32(13),
    ...op.shrU32,
    ...i32x4(0x3ff),
    ...op.and128,
    ...i32x4(0x7e00),
    ...op.or128,
    ...get(T(2)),
    ...get(magnitude),
    ...i32x4(0x7f800000),
    ...op.gtS,
    ...op.bitselect,
    ...set(T(2)),
    // subnormal or zero: (|x| + 0.5) - 0.5 as bits
    ...get(magnitude),
    ...f32x4(0.5),
    ...op.fAdd,
    ...i32x4(0x3f000000),
    ...op.sub32,
    ...get(T(2)),
    ...get(magnitude),
    ...i32x4(0x38800000),
    ...op.ltS,
    ...op.bitselect,
    // sign
    ...get(bits),
    ...i32(16),
    ...op.shrU32,
    ...i32x4(0x8000),
    ...op.and128,
    ...op.or128,
  ];
}

/**
 * block(coef, comps, zeroedRows, out, stride): transforms the 1 or 3 coefficient blocks at
 * `coef` (256 bytes apart; zeroedRows holds 4 bits per component: 0..7 trailing zero rows, or 8
 * for a DC-only block whose DC is element 0), converts colour when there are 3, rounds to half,
 * maps each half through the table at offset `comps & ~3` (0 or IDENTITY_TABLE_OFFSET; the
 * component count is `comps & 3`), writes 8 rows of 8 halves per component at `out`, `stride`
 * bytes apart (component c's rows follow component c - 1's), and zeroes the coefficient blocks.
 * With FLOAT_ONLY in `comps` it stops after the colour conversion.
 */
function blockFunction(): Code {
  const body: Code = [];
  // Per component: DC fill or inverse DCT variant.
  // Blocks: exit { b7 { ... b0 { dispatch } idct0; br exit } ... idct7 }. br_table jumps to the
  // end of block b_z, where variant z follows; from inside the `if`, exit is 9 labels out.
  const dispatch: Code = [...get(L_Z), ...i32(8), ...op.eq, ...ifThen([...dcFill(), ...br(9)])];
  let inner: Code = [...dispatch, ...get(L_Z), ...brTable([0, 1, 2, 3, 4, 5, 6, 7], 7)];
  for (let z = 0; z < 8; z++) inner = block(inner).concat(inverseDct(z), br(7 - z));
  body.push(
    ...i32(0),
    ...set(L_COMP),
    ...loop([
      ...get(P_COEF),
      ...get(L_COMP),
      ...i32(8),
      ...op.shl,
      ...op.add,
      ...set(L_PTR), // 256 bytes per component
      ...get(P_ZEROED),
      ...get(L_COMP),
      ...i32(2),
      ...op.shl,
      ...op.shrU,
      ...i32(15),
      ...op.and,
      ...set(L_Z),
      ...block(inner),
      ...get(L_COMP),
      ...i32(1),
      ...op.add,
      ...set(L_COMP),
      ...get(L_COMP),
      ...get(P_COMPS),
      ...i32(3),
      ...op.and,
      ...op.ltU,
      ...brIf(0),
    ]),
  );
  body.push(...get(P_COMPS), ...i32(3), ...op.and, ...i32(3), ...op.eq, ...ifThen(csc()));
  // FLOAT_ONLY: leave the float32 results in place (tests compare them bit for bit).
  body.push(...get(P_COMPS), ...i32(FLOAT_ONLY), ...op.and, ...ifThen([0x0f]));
  // Convert, look up, write rows, zero the coefficients.
  const rows: Code = [];
  for (let row = 0; row < 8; row++) {
    for (let part = 0; part < 2; part++) {
      const at = row * 32 + part * 16;
      rows.push(...get(L_PTR), ...op.v128Load(at), ...floatToHalf4(), ...set(T(3)));
      for (let lane = 0; lane < 4; lane++) {
        // out[row][part * 4 + lane] = table[half]
        rows.push(...get(L_OUT));
        rows.push(...get(T(3)), ...op.extractLane(lane), ...i32(1), ...op.shl, ...get(L_HALF), ...op.add, ...op.load16U());
        rows.push(...op.store16((part * 4 + lane) * 2));
      }
      rows.push(...get(L_PTR), ...i32x4(0), ...op.v128Store(at));
    }
    rows.push(...get(L_OUT), ...get(P_STRIDE), ...op.add, ...set(L_OUT));
  }
  body.push(
    ...get(P_COMPS),
    ...i32(~3 & ~FLOAT_ONLY),
    ...op.and,
    ...set(L_HALF), // table offset
    ...i32(0),
    ...set(L_COMP),
    ...get(P_OUT),
    ...set(L_OUT),
    ...loop([
      ...get(P_COEF),
      ...get(L_COMP),
      ...i32(8),
      ...op.shl,
      ...op.add,
      ...set(L_PTR),
      ...rows,
      ...get(L_COMP),
      ...i32(1),
      ...op.add,
      ...set(L_COMP),
      ...get(L_COMP),
      ...get(P_COMPS),
      ...i32(3),
      ...op.and,
      ...op.ltU,
      ...brIf(0),
    ]),
  );
  const locals = [...uleb(2), ...uleb(I32_LOCALS), I32, ...uleb(V128_LOCALS), V128];
  const fn = locals.concat(body, [0x0b]);
  return uleb(fn.length).concat(fn);
}

// Parameters and locals of row().
const Q_AC_END = 0;
const Q_AC_POS = 1;
const Q_DC = 2;
const Q_DC_STRIDE = 3;
const Q_BLOCKS_X = 4;
const Q_COMPS = 5;
const Q_OUT = 6;
const Q_STRIDE = 7;
const M_BLOCK_X = 8;
const M_COMP = 9;
const M_BASE = 10;
const M_ZIG = 11;
const M_LAST = 12;
const M_SYMBOL = 13;
const M_ZEROED = 14;
const ROW_I32_LOCALS = 7;

/**
 * row(acEnd, acPos, dc, dcStride, blocksX, comps, out, stride) -> acPos, or -1 when the AC
 * values run out: one row of blocks. Per block and component: the DC half (at dc + 2 * blockX,
 * components dcStride bytes apart), the AC run-length symbols (u16 from acPos: 0xff00 ends the
 * block, 0xffNN skips NN zeros, anything else is the next coefficient in zig-zag order) scattered
 * into natural order; then block() on them, writing at out + 16 * blockX.
 */
function rowFunction(): Code {
  const acLoop = loop([
    // if (acPos >= acEnd) return -1
    ...get(Q_AC_POS),
    ...get(Q_AC_END),
    ...op.geU,
    ...ifThen([...i32(-1), 0x0f]),
    ...get(Q_AC_POS),
    ...op.load16U(),
    ...set(M_SYMBOL),
    ...get(Q_AC_POS),
    ...i32(2),
    ...op.add,
    ...set(Q_AC_POS),
    ...get(M_SYMBOL),
    ...i32(0xff00),
    ...op.geU,
    0x04,
    VOID, // if run or end of block
    ...get(M_SYMBOL),
    ...i32(0xff00),
    ...op.eq,
    ...brIf(2), // end of block: leave the AC block
    ...get(M_ZIG),
    ...get(M_SYMBOL),
    ...i32(0xff),
    ...op.and,
    ...op.add,
    ...set(M_ZIG),
    0x05, // else: a coefficient
    ...get(M_BASE),
    ...get(M_ZIG),
    ...i32(2),
    ...op.shl,
    ...op.i32Load(ZIGZAG_OFFSET),
    ...op.add,
    ...get(M_SYMBOL),
    ...i32(2),
    ...op.shl,
    ...op.f32Load(HALF_TO_FLOAT_OFFSET),
    ...op.f32Store(),
    ...get(M_ZIG),
    ...set(M_LAST),
    ...get(M_ZIG),
    ...i32(1),
    ...op.add,
    ...set(M_ZIG),
    0x0b,
    ...get(M_ZIG),
    ...i32(64),
    ...op.ltU,
    ...brIf(0),
  ]);
  const componentLoop = loop([
    ...i32(COEFFICIENT_OFFSET),
    ...get(M_COMP),
    ...i32(8),
    ...op.shl,
    ...op.add,
    ...set(M_BASE),
    // coefficient[0] = float(dc)
    ...get(M_BASE),
    ...get(Q_DC),
    ...get(M_COMP),
    ...get(Q_DC_STRIDE),
    ...op.mul,
    ...op.add,
    ...get(M_BLOCK_X),
    ...i32(1),
    ...op.shl,
    ...op.add,
    ...op.load16U(),
    ...i32(2),
    ...op.shl,
    ...op.f32Load(HALF_TO_FLOAT_OFFSET),
    ...op.f32Store(),
    ...i32(1),
    ...set(M_ZIG),
    ...i32(0),
    ...set(M_LAST),
    ...block(acLoop),
    // zeroed |= (last == 0 ? 8 : zeroedRowsByLast[last]) << 4 * comp
    ...get(M_ZEROED),
    ...i32(8),
    ...get(M_LAST),
    ...op.load8U(ZEROED_ROWS_OFFSET),
    ...get(M_LAST),
    ...op.eqz,
    ...op.select,
    ...get(M_COMP),
    ...i32(2),
    ...op.shl,
    ...op.shl,
    ...op.or,
    ...set(M_ZEROED),
    ...get(M_COMP),
    ...i32(1),
    ...op.add,
    ...set(M_COMP),
    ...get(M_COMP),
    ...get(Q_COMPS),
    ...i32(3),
    ...op.and,
    ...op.ltU,
    ...brIf(0),
  ]);
  const blockLoop = loop([
    ...i32(0),
    ...set(M_COMP),
    ...i32(0),
    ...set(M_ZEROED),
    ...componentLoop,
    ...i32(COEFFICIENT_OFFSET),
    ...get(Q_COMPS),
    ...get(M_ZEROED),
    ...get(Q_OUT),
    ...get(M_BLOCK_X),
    ...i32(4),
    ...op.shl,
    ...op.add,
    ...get(Q_STRIDE),
    0x10,
    0, // call block
    ...get(M_BLOCK_X),
    ...i32(1),
    ...op.add,
    ...set(M_BLOCK_X),
    ...get(M_BLOCK_X),
    ...get(Q_BLOCKS_X),
    ...op.ltU,
    ...brIf(0),
  ]);
  const body = [
    ...i32(0),
    ...set(M_BLOCK_X),
    ...get(Q_BLOCKS_X),
    ...op.eqz,
    ...ifThen([...get(Q_AC_POS), 0x0f]),
    ...blockLoop,
    ...get(Q_AC_POS),
  ];
  const fn = [...uleb(1), ...uleb(ROW_I32_LOCALS), I32].concat(body, [0x0b]);
  return uleb(fn.length).concat(fn);
}

function section(id: number, content: Code): Code {
  return [id, ...uleb(content.length)].concat(content);
}

function moduleBytes(): Uint8Array<ArrayBuffer> {
  const name = (text: string) => [...uleb(text.length), ...Array.from(text, (ch) => ch.charCodeAt(0))];
  const typeSection = section(1, [2, 0x60, 5, I32, I32, I32, I32, I32, 0, 0x60, 8, I32, I32, I32, I32, I32, I32, I32, I32, 1, I32]);
  const importSection = section(2, [1, ...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]);
  const functionSection = section(3, [2, 0, 1]);
  const exportSection = section(7, [2, ...name('block'), 0x00, 0, ...name('row'), 0x00, 1]);
  const codeSection = section(10, [2].concat(blockFunction(), rowFunction()));
  return new Uint8Array(
    [0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0].concat(typeSection, importSection, functionSection, exportSection, codeSection),
  );
}

// ---------------------------------------------------------------------------------------------

export interface DwaKernel {
  memory: WebAssembly.Memory;
  /** See blockFunction(). */
  block: (coefficientOffset: number, componentsAndTable: number, zeroedRows: number, outOffset: number, strideBytes: number) => void;
  /** See rowFunction(). */
  row: (
    acEnd: number,
    acPos: number,
    dc: number,
    dcStride: number,
    blocksX: number,
    componentsAndTable: number,
    out: number,
    strideBytes: number,
  ) => number;
  /** Makes the working area (from WORK_OFFSET) at least `bytes` long; views of the memory must be re-taken after. */
  reserve: (bytes: number) => void;
}

let kernel: DwaKernel | null | undefined;

/** The kernel, or null where WebAssembly SIMD is unavailable (the TypeScript path then runs). */
export function dwaKernel(
  toLinear: Uint16Array,
  halfToFloat: Float32Array,
  zigzagToNatural: Uint8Array,
  zeroedRowsByLast: Uint8Array,
): DwaKernel | null {
  if (kernel !== undefined) return kernel;
  kernel = null;
  try {
    if (typeof WebAssembly !== 'object') return null;
    const bytes = moduleBytes();
    if (!WebAssembly.validate(bytes)) return null;
    const memory = new WebAssembly.Memory({ initial: Math.ceil((WORK_OFFSET + 65536) / 65536) });
    const instance = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } });
    const tables = new Uint16Array(memory.buffer, TABLE_OFFSET, 131072);
    tables.set(toLinear, 0);
    for (let bits = 0; bits < 65536; bits++) tables[65536 + bits] = bits;
    new Float32Array(memory.buffer, HALF_TO_FLOAT_OFFSET, 65536).set(halfToFloat);
    new Int32Array(memory.buffer, ZIGZAG_OFFSET, 64).set(Array.from(zigzagToNatural, (natural) => natural * 4));
    new Uint8Array(memory.buffer, ZEROED_ROWS_OFFSET, 64).set(zeroedRowsByLast);
    kernel = {
      memory,
      block: instance.exports.block as DwaKernel['block'],
      row: instance.exports.row as DwaKernel['row'],
      reserve(workBytes) {
        const needed = WORK_OFFSET + workBytes;
        if (needed > memory.buffer.byteLength) memory.grow(Math.ceil((needed - memory.buffer.byteLength) / 65536));
      },
    };
  } catch {
    kernel = null;
  }
  return kernel;
}
