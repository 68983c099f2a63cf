// The WGSL helpers of the Grading ops: OCIO's curve pieces, lin-to-log shaper and HSY conversions, appended once per processor.
import { SHAPER_CONSTANTS, sseLog2 } from '../ops/grading-sse-math.js';
import { lit } from './wgsl-literal.js';

const { X_BREAK, SHIFT, M, GAIN, SHIFTED_GREY, GAIN_INVERSE } = SHAPER_CONSTANTS;

/** The helpers the generated code calls (appended to a processor's WGSL when it has a Grading op). */
export const GRADING_WGSL = /* wgsl */ `
fn ocioGtPiece(t: f32, xa: f32, xb: f32, ya: f32, ma: f32, mb: f32) -> f32 {
  let u = (t - xa) / (xb - xa);
  return u * (xb - xa) * (u * 0.5 * (mb - ma) + ma) + ya;
}
fn ocioGtSolve(t: f32, xa: f32, xb: f32, ya: f32, a: f32, b: f32) -> f32 {
  let c = ya - t;
  return (-2.0 * c) / (sqrt(b * b - 4.0 * a * c) + b) * (xb - xa) + xa;
}
fn ocioGtPieceInv(t: f32, xa: f32, xb: f32, ya: f32, ma: f32, mb: f32) -> f32 {
  return ocioGtSolve(t, xa, xb, ya, 0.5 * (mb - ma) * (xb - xa), ma * (xb - xa));
}
fn ocioGtLine(t: f32, x: f32, y: f32, m: f32) -> f32 { return y + (t - x) * m; }
fn ocioGtLineInv(t: f32, x: f32, y: f32, m: f32) -> f32 { return x + (t - y) / m; }
fn ocioGtMids(t: f32, x: array<f32, 6>, y: array<f32, 6>, m: array<f32, 6>, inv: bool, master: bool) -> f32 {
  if (!inv) {
    var r = select(ocioGtPiece(t, x[1], x[2], y[1], m[1], m[2]), ocioGtPiece(t, x[0], x[1], y[0], m[0], m[1]), t < x[1]);
    if (select(t > x[2], t >= x[2], master)) { r = ocioGtPiece(t, x[2], x[3], y[2], m[2], m[3]); }
    if (select(t > x[3], t >= x[3], master)) { r = ocioGtPiece(t, x[3], x[4], y[3], m[3], m[4]); }
    if (select(t > x[4], t >= x[4], master)) { r = ocioGtPiece(t, x[4], x[5], y[4], m[4], m[5]); }
    if (t < x[0]) { r = ocioGtLine(t, x[0], y[0], m[0]); }
    if (select(t > x[5], t >= x[5], master)) { r = ocioGtLine(t, x[5], y[5], m[5]); }
    return r;
  }
  // OCIO's per-channel code extrapolates the top end with the bottom end's line
  if (t >= y[5]) { return select(ocioGtLineInv(t, x[0], y[0], m[0]), ocioGtLineInv(t, x[5], y[5], m[5]), master); }
  if (t >= y[4]) { return ocioGtPieceInv(t, x[4], x[5], y[4], m[4], m[5]); }
  if (t >= y[3]) { return ocioGtPieceInv(t, x[3], x[4], y[3], m[3], m[4]); }
  if (t >= y[2]) { return ocioGtPieceInv(t, x[2], x[3], y[2], m[2], m[3]); }
  if (t >= y[1]) { return ocioGtPieceInv(t, x[1], x[2], y[1], m[1], m[2]); }
  if (t >= y[0]) { return ocioGtPieceInv(t, x[0], x[1], y[0], m[0], m[1]); }
  return ocioGtLineInv(t, x[0], y[0], m[0]);
}
fn ocioGtFauxCubic(t: f32, x: vec3f, y: vec3f, m: vec2f, inv: bool) -> f32 {
  if (!inv) {
    let tL = (t - x.x) / (x.y - x.x);
    let tR = (t - x.y) / (x.z - x.y);
    let fL = y.x * (1.0 - tL * tL) + y.y * tL * tL + m.x * (1.0 - tL) * tL * (x.y - x.x);
    let fR = y.y * (1.0 - tR) * (1.0 - tR) + y.z * (2.0 - tR) * tR + m.y * (tR - 1.0) * tR * (x.z - x.y);
    var r = select(fR, fL, t < x.y);
    if (t < x.x) { r = (t - x.x) * m.x + y.x; }
    if (!(t < x.z)) { r = (t - x.z) * m.y + y.z; }
    return r;
  }
  let outL = ocioGtSolve(t, x.x, x.y, y.x, y.y - y.x - m.x * (x.y - x.x), m.x * (x.y - x.x));
  let outR = ocioGtSolve(t, x.y, x.z, y.y, y.y - y.z + m.y * (x.z - x.y), 2.0 * y.z - 2.0 * y.y - m.y * (x.z - x.y));
  var r = select(outR, outL, t < y.y);
  if (t < y.x) { r = (t - y.x) / m.x + x.x; }
  if (!(t < y.z)) { r = (t - y.z) / m.y + x.z; }
  return r;
}
// whites (black false) or blacks; k = (x0, x1, y0, y1), s = (m0, m1, gain), test: the slope direction (-1, 0 or 1)
fn ocioGtWhiteBlack(t: f32, k: vec4f, s: vec3f, test: f32, black: bool, inv: bool) -> f32 {
  let x0 = k.x; let x1 = k.y; let y0 = k.z; let y1 = k.w; let m0 = s.x; let m1 = s.y; let gain = s.z;
  let a = 0.5 * (m1 - m0) * (x1 - x0);
  let b = m0 * (x1 - x0);
  if (test < 0.0) {
    if (!inv) {
      var r = ocioGtPiece(t, x0, x1, y0, m0, m1);
      if (t < x0) { r = ocioGtLine(t, x0, y0, m0); }
      if (!(t < x1)) { r = ocioGtLine(t, x1, y1, m1); }
      return r;
    }
    var r = ocioGtSolve(t, x0, x1, y0, a, b);
    if (t < y0) { r = ocioGtLineInv(t, x0, y0, m0); }
    if (!(t < y1)) { r = ocioGtLineInv(t, x1, y1, m1); }
    return r;
  }
  if (test == 0.0) { return t; }
  let anchor = select(x0, x1, black);
  var v = (t - anchor) * gain + anchor;
  var r: f32;
  if (!inv) {
    r = ocioGtSolve(v, x0, x1, y0, a, b);
    if (v < y0) { r = ocioGtLineInv(v, x0, y0, m0); }
  } else {
    r = ocioGtPiece(v, x0, x1, y0, m0, m1);
    if (v < x0) { r = ocioGtLine(v, x0, y0, m0); }
  }
  if (black) {
    if (inv && !(v < x1)) { r = ocioGtLine(v, x1, y1, m1); }
    if (!inv && !(v < y1)) { r = ocioGtLineInv(v, x1, y1, m1); }
    return (r - x1) / gain + x1;
  }
  r = (r - x0) / gain + x0;
  let newY1 = (x1 - x0) / gain + x0;
  let xd = x0 + (x1 - x0) * 0.99;
  let md = 1.0 / (m0 + (xd - x0) * (m1 - m0) / (x1 - x0));
  let aa = 0.5 * (1.0 / m1 - md) / (x1 - xd);
  let bb = 1.0 / m1 - 2.0 * aa * x1;
  let cc = newY1 - bb * x1 - aa * x1 * x1;
  v = (v - x0) / gain + x0;
  if (!inv) { return select((aa * v + bb) * v + cc, r, v < x1); }
  let c = cc - v;
  let beyond = (-2.0 * c) / (sqrt(bb * bb - 4.0 * aa * c) + bb);
  return select(beyond, r, v < (aa * x1 + bb) * x1 + cc);
}
// S-contrast; top and bottom ends: kx = (x1, x2, y1, y2), km = (m0, m3); p = (contrast, pivot)
fn ocioGtContrast(t: f32, topK: vec4f, topM: vec2f, botK: vec4f, botM: vec2f, p: vec2f, inv: bool) -> f32 {
  if (!inv) {
    var r = (t - p.y) * p.x + p.y;
    if (!(t < topK.x)) { r = ocioGtPiece(t, topK.x, topK.y, topK.z, topM.x, topM.y); }
    if (!(t < topK.y)) { r = ocioGtLine(t, topK.y, topK.w, topM.y); }
    if (t < botK.y) { r = ocioGtPiece(t, botK.x, botK.y, botK.z, botM.x, botM.y); }
    if (t < botK.x) { r = ocioGtLine(t, botK.x, botK.z, botM.x); }
    return r;
  }
  var r = (t - p.y) / p.x + p.y;
  if (!(t < topK.z)) { r = ocioGtPieceInv(t, topK.x, topK.y, topK.z, topM.x, topM.y); }
  if (!(t < topK.w)) { r = ocioGtLineInv(t, topK.y, topK.w, topM.y); }
  if (t < botK.w) { r = ocioGtPieceInv(t, botK.x, botK.y, botK.z, botM.x, botM.y); }
  if (t < botK.z) { r = ocioGtLineInv(t, botK.x, botK.z, botM.x); }
  return r;
}
// OCIO's lin <-> log shaper in plain log2 and exp2, as the CPU's GradingHueCurve runs it
fn ocioGtLinToLog(x: vec3f) -> vec3f {
  return select(x * 363.034608563 - 7.0, log2((x - 0.000157849851665374) * (1.0 / 0.179842150148334626)), x > vec3f(0.0041318374739483946));
}
fn ocioGtLogToLin(y: vec3f) -> vec3f {
  return select((y + 7.0) / 363.034608563, exp2(y) * 0.179842150148334626 + 0.000157849851665374, y > vec3f(-5.5));
}
// OCIO's SSE2 log2, exp2 and pow (SSE.h), which its CPU GradingPrimary uses even lossless and shaders/colour/ops mirrors:
// about 15 bits, so a plain pow differs by 1e-5 relative, which a saturation can turn into 1e-3 on a small channel.
fn ocioSseLog2(x: vec3f) -> vec3f {
  let bits = bitcast<vec3i>(x);
  let m = bitcast<vec3f>((bits & ~vec3i(0x7f800000)) | vec3i(0x3f800000));
  let e = vec3f(((bits >> vec3u(23u)) & vec3i(0xff)) - vec3i(127));
  var p = m * 4.487361286440374006195e-2 - 4.165637071209677112635e-1;
  p = p * m + 1.6311488261194362771;
  p = p * m - 3.550793018041176193407;
  p = p * m + 5.091710879305474367557;
  p = p * m - 2.800364054395965731506;
  return p + e;
}
fn ocioSseExp2(x: vec3f) -> vec3f {
  let whole = vec3i(x) - select(vec3i(1), vec3i(0), x >= vec3f(0.0));
  let fraction = x - vec3f(whole);
  var p = fraction * 1.35341679283354746862e-2 + 5.201146058412685018921e-2;
  p = p * fraction + 2.41442756909186520771e-1;
  p = p * fraction + 6.930038344665415134202e-1;
  p = p * fraction + 1.000002593370603213644;
  let scaled = bitcast<vec3f>((whole + vec3i(127)) << vec3u(23u)) * p;
  // past f32's range: 0 below, and exp2's own overflow (an infinity, which WGSL cannot write as a literal) above
  return select(select(scaled, vec3f(0.0), x < vec3f(-126.0)), exp2(x), x >= vec3f(128.0));
}
/** x^e as the SSE code computes it, 0 where x is not above 0 (NaN included). */
fn ocioSsePow(x: vec3f, e: vec3f) -> vec3f {
  return select(vec3f(0.0), ocioSseExp2(e * ocioSseLog2(x)), x > vec3f(0.0));
}
// the shaper as the CPU's GradingRGBCurve and GradingTone run it (SSE log2 and pow); GradingHueCurve's uses plain log2
fn ocioSseLinToLog(x: vec3f) -> vec3f {
  return select(x * ${lit(GAIN)} - 7.0, ocioSseLog2((x - ${lit(-SHIFT)}) * ${lit(M)}), x > vec3f(${lit(X_BREAK)}));
}
fn ocioSseLogToLin(y: vec3f) -> vec3f {
  let above = ocioSseExp2(y * ${lit(sseLog2(2))}) * ${lit(SHIFTED_GREY)} + ${lit(-SHIFT)};
  return select((y + 7.0) * ${lit(GAIN_INVERSE)}, above, y > vec3f(-5.5));
}
fn ocioQuadInv(y: f32, a: f32, b: f32, c: f32, kn: f32) -> f32 {
  let c0 = c - y;
  let denom = sqrt(b * b - 4.0 * a * c0) + b;
  if (abs(denom) < 1e-5) { return select(kn - c0 / b, kn, abs(b) < 1e-5); }
  return kn + (-2.0 * c0) / denom;
}
// HSY: style 0 linear, 1 log, 2 video
fn ocioRgbToHsy(c: vec3f, style: i32) -> vec3f {
  let lo = min(min(c.x, c.y), c.z);
  let hi = max(max(c.x, c.y), c.z);
  let y = 0.2126 * c.x + 0.7152 * c.y + 0.0722 * c.z;
  let dist = abs(c.x - y) + abs(c.y - y) + abs(c.z - y);
  var sat = dist * select(1.25, 4.0, style == 1);
  if (style == 0) {
    let sum = c.x + c.y + c.z;
    let satHi = dist / max(0.07 * dist + 1e-6, 0.15 + sum);
    let alpha = clamp((y - 0.001) / 0.009, 0.0, 1.0);
    sat = (dist * 5.0 + alpha * (satHi - dist * 5.0)) * 1.4;
  }
  var hue = 0.0;
  if (lo != hi) {
    let delta = hi - lo;
    // clamped where IEEE division keeps the CPU's hue inside [0, 6]: a GPU's approximate division could wrap it around
    if (c.x == hi) { hue = max(1.0 + (c.y - c.z) / delta, 0.0); }
    else if (c.y == hi) { hue = 3.0 + (c.z - c.x) / delta; }
    else { hue = min(5.0 + (c.x - c.y) / delta, 6.0); }
    hue = hue * 0.16666667;
  }
  return vec3f(hue, sat, y);
}
fn ocioHsyToRgb(hsy: vec3f, style: i32) -> vec3f {
  var hue = hsy.x - 1.0 / 6.0;
  let y = hsy.z;
  if (y < 0.0) { hue = hue + 0.5; }
  hue = (hue - floor(hue)) * 6.0;
  var rgb = clamp(vec3f(abs(hue - 3.0) - 1.0, 2.0 - abs(hue - 2.0), 2.0 - abs(hue - 4.0)), vec3f(0.0), vec3f(1.0));
  rgb = rgb * (y / (0.2126 * rgb.x + 0.7152 * rgb.y + 0.0722 * rgb.z));
  let dist = abs(rgb.x - y) + abs(rgb.y - y) + abs(rgb.z - y);
  var gain = hsy.y / max(1e-10, dist * select(1.25, 4.0, style == 1));
  if (style == 0) {
    let sum = rgb.x + rgb.y + rgb.z;
    let sat = hsy.y / 1.4;
    let tmp = max(1e-6, -sat * sum + sat * 3.0 * y + dist);
    let s1 = min(sat * (0.15 + 3.0 * y) / tmp, 50.0);
    let s0 = sat / max(1e-10, dist * 5.0);
    let alpha = clamp((y - 0.001) / 0.009, 0.0, 1.0);
    if (alpha == 1.0) { gain = s1; }
    else if (alpha == 0.0) { gain = s0; }
    else {
      let low = dist * 5.0 * (1.0 - alpha);
      let a = low * (sum - 3.0 * y);
      let b = low * (0.15 + 3.0 * y) + dist * alpha - sat * (sum - 3.0 * y);
      let c = -sat * (0.15 + 3.0 * y);
      let d = sqrt(b * b - 4.0 * a * c);
      gain = (2.0 * c) / (-d - b);
      if (!(gain >= 0.0)) { gain = (2.0 * c) / (-d - b + d * 2.0); }
    }
  }
  return y + gain * (rgb - y);
}
`;
