// OpenColorIO's LUT ops on the GPU, for the WGSL that processor-wgsl.ts generates: every 1D table packed into the rows
// of one 2D texture, every 3D table stacked along z of one 3D texture (group 2, beside the palette: they change only
// with the processor). textureLoad and manual interpolation in f32, written like lut1d.ts and lut3d.ts, so that the
// GPU and applyOps agree: rgba32float is not filterable in core WebGPU, and hardware weights carry 8 bits on some GPUs.

@group(2) @binding(5) var ocioLut1dTexture: texture_2d<f32>;
@group(2) @binding(6) var ocioLut3dTexture: texture_3d<f32>;

// entries per row of the 1D texture (lut-atlas.ts LUT1D_ROW_TEXELS): long tables wrap onto the next rows
const OCIO_LUT1D_ROW: i32 = 4096;
const OCIO_LUMA = vec3f(0.2126, 0.7152, 0.0722);
const OCIO_FLT_MIN: f32 = 1.1754943508222875e-38;

// NaN handling as the CPU ops have it (std::max(0, NaN) is 0): comparisons in select, which a compiler that assumes
// finite maths still keeps, and a bit test where a NaN must pass through
fn ocioMax0(x: vec3f) -> vec3f { return select(vec3f(0.0), x, x > vec3f(0.0)); }
fn ocioClamp01(x: vec3f) -> vec3f { return min(ocioMax0(x), vec3f(1.0)); }
fn ocioMaxFltMin(x: vec3f) -> vec3f { return select(vec3f(OCIO_FLT_MIN), x, x > vec3f(OCIO_FLT_MIN)); }
fn ocioIsNan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
// x where x is NaN, else y: an antilog of NaN is NaN on the CPU, but exp2(NaN) is Inf on some GPUs (SwiftShader)
fn ocioNanThrough(x: vec3f, y: vec3f) -> vec3f {
  return select(y, x, (bitcast<vec3u>(x) & vec3u(0x7fffffffu)) > vec3u(0x7f800000u));
}

fn ocioLut1dAt(start: i32, k: i32) -> vec3f {
  let i = start + k;
  return textureLoad(ocioLut1dTexture, vec2i(i % OCIO_LUT1D_ROW, i / OCIO_LUT1D_ROW), 0).xyz;
}
// an entry of a table of four values an entry (LutAtlas.add1dRgba)
fn ocioLut1dAt4(i: i32) -> vec4f {
  return textureLoad(ocioLut1dTexture, vec2i(i % OCIO_LUT1D_ROW, i / OCIO_LUT1D_ROW), 0);
}

// x^p for x > 0, else 0: WGSL leaves pow undefined at and below 0, OCIO's callers want 0 there
fn ocioPowPos(x: vec3f, p: vec3f) -> vec3f {
  return select(vec3f(0.0), pow(max(x, vec3f(OCIO_FLT_MIN)), p), x > vec3f(0.0));
}

fn ocioPow4(x: vec4f, p: vec4f) -> vec4f {
  return select(vec4f(0.0), pow(max(x, vec4f(OCIO_FLT_MIN)), p), x > vec4f(0.0));
}

// A 1D LUT on [0, 1]: linear from the high entry (as OCIO, so an infinite entry is never multiplied by 0), or nearest.
fn ocioLut1d(c: vec3f, start: i32, n: i32, nearest: bool) -> vec3f {
  let last = f32(n - 1);
  let idx = min(ocioMax0(c * last), vec3f(last));
  if (nearest) {
    let k = vec3i(round(idx));
    return vec3f(ocioLut1dAt(start, k.x).x, ocioLut1dAt(start, k.y).y, ocioLut1dAt(start, k.z).z);
  }
  let lo = vec3i(floor(idx));
  let hi = vec3i(ceil(idx));
  let delta = vec3f(hi) - idx;
  let loV = vec3f(ocioLut1dAt(start, lo.x).x, ocioLut1dAt(start, lo.y).y, ocioLut1dAt(start, lo.z).z);
  let hiV = vec3f(ocioLut1dAt(start, hi.x).x, ocioLut1dAt(start, hi.y).y, ocioLut1dAt(start, hi.z).z);
  return hiV + delta * (loV - hiV);
}

// CLF's hueAdjust (dw3) around a 1D LUT: `curved` is c through the curves; its middle channel is put back at c's hue
// (lut1d.ts applyHueAdjusted).
fn ocioHueAdjust(c: vec3f, curved: vec3f) -> vec3f {
  // OCIO's Order3: the indices of the smallest, middle and largest channel, ties (and NaN) broken as the CPU breaks them
  var order = array<i32, 12>(2, 1, 0, 2, 1, 0, 2, 1, 2, 0, 1, 2);
  let k = select(0, 5, c.x > c.y) + select(0, 4, c.y > c.z) - select(0, 3, c.x > c.z) + 3;
  let lo = order[k + 2];
  let mid = order[k + 1];
  let hi = order[k];
  var rgb = c;
  let chroma = rgb[hi] - rgb[lo];
  let hueFactor = select((rgb[mid] - rgb[lo]) / chroma, 0.0, chroma == 0.0);
  var out = curved;
  out[mid] = hueFactor * (out[hi] - out[lo]) + out[lo];
  return out;
}

// The exact inverse of a monotonic 1D LUT, one channel: the table is stored made increasing (reversals flattened,
// negated when it falls), so `sign` (1 or -1) turns y into its space. Binary search as applyInverseLut1D does.
fn ocioLut1dInverseChannel(y0: f32, start: i32, n: i32, ch: i32, sign: f32) -> f32 {
  if (ocioIsNan(y0)) { return y0; }
  let bottom = ocioLut1dAt(start, 0)[ch];
  let top = ocioLut1dAt(start, n - 1)[ch];
  let y = clamp(y0 * sign, bottom, top);
  if (y >= top) {
    // the first entry of a flat end
    var a = -1;
    var b = n - 1;
    while (b - a > 1) {
      let mid = (a + b) / 2;
      if (ocioLut1dAt(start, mid)[ch] >= top) { b = mid; } else { a = mid; }
    }
    return f32(b) / f32(n - 1);
  }
  var a = 0;
  var b = n - 1;
  while (b - a > 1) {
    let mid = (a + b) / 2;
    if (ocioLut1dAt(start, mid)[ch] <= y) { a = mid; } else { b = mid; }
  }
  let ya = ocioLut1dAt(start, a)[ch];
  let yb = ocioLut1dAt(start, a + 1)[ch];
  let t = select((y - ya) / (yb - ya), 0.0, yb == ya);
  return (f32(a) + t) / f32(n - 1);
}

fn ocioLut1dInverse(c: vec3f, start: i32, n: i32, sign: vec3f) -> vec3f {
  return vec3f(
    ocioLut1dInverseChannel(c.x, start, n, 0, sign.x),
    ocioLut1dInverseChannel(c.y, start, n, 1, sign.y),
    ocioLut1dInverseChannel(c.z, start, n, 2, sign.z));
}

// Entry (r, g, b) of the 3D table that starts at depth z0: blue runs along x, green along y, red along z.
fn ocioLut3dAt(z0: i32, r: i32, g: i32, b: i32) -> vec3f {
  return textureLoad(ocioLut3dTexture, vec3i(b, g, z0 + r), 0).xyz;
}

// A 3D LUT on [0, 1]^3: 0 nearest, 1 trilinear, 2 tetrahedral (lut3d.ts's order of operations).
fn ocioLut3d(c: vec3f, z0: i32, n: i32, mode: u32) -> vec3f {
  let last = f32(n - 1);
  let idx = min(ocioMax0(c * last), vec3f(last));
  if (mode == 0u) {
    let k = vec3i(round(idx));
    return ocioLut3dAt(z0, k.x, k.y, k.z);
  }
  let lo = vec3i(floor(idx));
  let hi = vec3i(ceil(idx));
  let f = idx - vec3f(lo);
  let c000 = ocioLut3dAt(z0, lo.x, lo.y, lo.z);
  let c111 = ocioLut3dAt(z0, hi.x, hi.y, hi.z);
  if (mode == 2u) {
    // the tetrahedron the point falls in: its two middle corners and the four weights, as lut3d.ts picks them
    let fr = f.x;
    let fg = f.y;
    let fb = f.z;
    var c1: vec3f;
    var c2: vec3f;
    var w: vec4f;
    if (fr > fg) {
      if (fg > fb) {
        c1 = ocioLut3dAt(z0, hi.x, lo.y, lo.z); c2 = ocioLut3dAt(z0, hi.x, hi.y, lo.z); w = vec4f(1.0 - fr, fr - fg, fg - fb, fb);
      } else if (fr > fb) {
        c1 = ocioLut3dAt(z0, hi.x, lo.y, lo.z); c2 = ocioLut3dAt(z0, hi.x, lo.y, hi.z); w = vec4f(1.0 - fr, fr - fb, fb - fg, fg);
      } else {
        c1 = ocioLut3dAt(z0, lo.x, lo.y, hi.z); c2 = ocioLut3dAt(z0, hi.x, lo.y, hi.z); w = vec4f(1.0 - fb, fb - fr, fr - fg, fg);
      }
    } else {
      if (fb > fg) {
        c1 = ocioLut3dAt(z0, lo.x, lo.y, hi.z); c2 = ocioLut3dAt(z0, lo.x, hi.y, hi.z); w = vec4f(1.0 - fb, fb - fg, fg - fr, fr);
      } else if (fb > fr) {
        c1 = ocioLut3dAt(z0, lo.x, hi.y, lo.z); c2 = ocioLut3dAt(z0, lo.x, hi.y, hi.z); w = vec4f(1.0 - fg, fg - fb, fb - fr, fr);
      } else {
        c1 = ocioLut3dAt(z0, lo.x, hi.y, lo.z); c2 = ocioLut3dAt(z0, hi.x, hi.y, lo.z); w = vec4f(1.0 - fg, fg - fr, fr - fb, fb);
      }
    }
    return w.x * c000 + w.y * c1 + w.z * c2 + w.w * c111;
  }
  let c00 = mix(c000, ocioLut3dAt(z0, lo.x, lo.y, hi.z), f.z);
  let c01 = mix(ocioLut3dAt(z0, lo.x, hi.y, lo.z), ocioLut3dAt(z0, lo.x, hi.y, hi.z), f.z);
  let c10 = mix(ocioLut3dAt(z0, hi.x, lo.y, lo.z), ocioLut3dAt(z0, hi.x, lo.y, hi.z), f.z);
  let c11 = mix(ocioLut3dAt(z0, hi.x, hi.y, lo.z), c111, f.z);
  return mix(mix(c00, c01, f.y), mix(c10, c11, f.y), f.x);
}

// A half-domain 1D LUT (65536 texels from `start`, texel k holding entry k and the entry above it in magnitude,
// processor-wgsl.ts halfPairs): linear between the codes on either side of x, the larger magnitude as the high end, and past the
// largest half the last finite entry, as lut1d-half.ts. One load; the fraction is the f32's 13 mantissa bits below the
// half's (exact, as the CPU's (x - a) / (b - a) is, for b - a is a power of two), scaled exactly below the normal halves.
fn ocioHalfLutChannel(x: f32, start: i32) -> f32 {
  let nan = ocioIsNan(x);
  let sign = (bitcast<u32>(x) >> 16u) & 0x8000u;
  let ax = select(min(abs(x), 65504.0), 0.0, nan);
  let subnormal = ax < 6.103515625e-5;
  let scaled = ax * 16777216.0;
  let bits = bitcast<u32>(ax);
  let mag = select((bits >> 13u) - (112u << 10u), u32(scaled), subnormal);
  let fraction = select(f32(bits & 0x1fffu) * (1.0 / 8192.0), scaled - f32(mag), subnormal);
  // a NaN reads the NaN code's entry, whose pair is itself: (v - v) * 1 + v is v
  let v = ocioLut1dAt4(start + i32(sign | select(mag, 0x7e00u, nan)));
  return (v.x - v.y) * (1.0 - fraction) + v.y;
}

fn ocioHalfLut(c: vec3f, start: i32) -> vec3f {
  return vec3f(ocioHalfLutChannel(c.x, start), ocioHalfLutChannel(c.y, start), ocioHalfLutChannel(c.z, start));
}

// SMPTE ST 2084 (PQ) encode, 100 nits at 1, mirrored below 0: OCIO's FixedFunction LIN_TO_PQ, the curve the built-in
// displays bake into a half-domain table (builtin:LINEAR_TO_PQ). Analytic here, for on the GPU the table's load costs
// more than the two pows; within 7e-5 of the table's interpolation (most near 0). As the table: NaN reads as 0 (keeping
// its sign bit), past the largest half as the largest half.
fn ocioLinearToPq(c: vec3f) -> vec3f {
  let a = min(abs(c), vec3f(65504.0)) * 0.01;
  // at 0 the pow of the smallest normal (1e-6) stands for 0: the encode moves by 2e-10, and no select (faster)
  let y = exp2(0.1593017578125 * log2(max(a, vec3f(OCIO_FLT_MIN))));
  let e = pow((0.8359375 + 18.8515625 * y) / (1.0 + 18.6875 * y), vec3f(78.84375));
  return select(e, -e, (bitcast<vec3u>(c) & vec3u(0x80000000u)) != vec3u(0u));
}
