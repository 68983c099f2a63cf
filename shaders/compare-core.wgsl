// Shared by compare.wgsl, metrics.wgsl and stats.wgsl: tev's difference metrics (A the current image, B the
// reference) and bit tests for NaN and Inf (compilers may assume finite maths). Mirrors shaders/compare-params.ts.

const RELATIVE_EPSILON: f32 = 0.01;

fn cmpIsNan(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u; }
fn cmpIsInf(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) == 0x7f800000u; }
fn cmpFinite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }

// x / y where WGSL promises its accuracy only for |y| in [2^-126, 2^126]: a huge divisor is scaled down first
// (both by 2^-64, exact; a numerator that underflows there was negligible beside it anyway)
fn divide(x: f32, y: f32) -> f32 {
  if (abs(y) > 1e30) { return (x * 0x1p-64f) / (y * 0x1p-64f); }
  return x / y;
}

// code: 0 error, 1 absolute, 2 squared, 3 relative absolute, 4 relative squared.
// Relative squared as (d / sqrt(B² + 0.01))², the same value without B² overflowing f32 (|B| above 1e4: sqrt is |B|).
fn differenceValue(code: u32, a: f32, b: f32) -> f32 {
  let d = a - b;
  switch (code) {
    case 0u: { return d; }
    case 1u: { return abs(d); }
    case 2u: { return d * d; }
    case 3u: { return divide(abs(d), b + RELATIVE_EPSILON); }
    default: {
      let s = select(sqrt(b * b + RELATIVE_EPSILON), abs(b), abs(b) > 1e4);
      let r = divide(d, s);
      return r * r;
    }
  }
}

fn differenceVec(code: u32, a: vec4f, b: vec4f) -> vec4f {
  return vec4f(differenceValue(code, a.x, b.x), differenceValue(code, a.y, b.y), differenceValue(code, a.z, b.z), differenceValue(code, a.w, b.w));
}
