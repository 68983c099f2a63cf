// The display path of one pixel: channel view, NaN/Inf, exposure, transform, gamma, false colour, clipping, alpha.
// Mirrors toneMapPixel() in tonemap-cpu.ts line for line; shared by the preview and the thumbnail grid.

struct Display {
  exposureScale: f32,
  offset: f32,
  invGamma: f32,
  transform: u32,
  channelView: u32,
  flags: u32,
  lutMode: u32,   // 0 no LUT, 1 after the view transform, 2 on the log shaper, 3 on linear values (lut.wgsl), 4 OCIO
  hdr: u32,       // HDR_ON | HDR_ROLL_OFF: extended-range output, no clamp (see hdrPixel)
  hdrScale: f32,  // canvas value of exposed linear 1.0 (paper white / SDR white)
  hdrHeadroom: f32, // the display's peak as a canvas value
  _pad2: u32,
  _pad3: u32,
};

// Static LUT (group 2): false-colour zone bounds (EV) and colours, checker greys.
struct Palette {
  bounds: array<vec4f, 2>,      // 8 bounds in EV
  colours: array<vec4f, 9>,     // zone colours
  checker: vec4f,               // dark, light, square px, _
};

const FLAG_FALSE_COLOUR: u32 = 1u;
const FLAG_CLIPPING: u32 = 2u;
const FLAG_NAN_INF: u32 = 4u;
const EXPOSED_LIMIT: f32 = 1e9;
const LUMA = vec3f(0.2126, 0.7152, 0.0722);
const NAN_COLOUR = vec3f(1.0, 0.0, 1.0);
const INF_COLOUR = vec3f(0.0, 1.0, 1.0);

// WGSL has no isNan/isInf, and compilers may assume finite maths: test the bits.
fn isNanF(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) > 0x7f800000u; }
fn isInfF(v: f32) -> bool { return (bitcast<u32>(v) & 0x7fffffffu) == 0x7f800000u; }
fn sanitize(v: f32) -> f32 {
  if (isNanF(v)) { return 0.0; }
  if (isInfF(v)) { return select(-EXPOSED_LIMIT, EXPOSED_LIMIT, v > 0.0); }
  return clamp(v, -EXPOSED_LIMIT, EXPOSED_LIMIT);
}

fn srgbOetf(v: f32) -> f32 {
  let x = clamp(v, 0.0, 1.0);
  if (x <= 0.0031308) { return 12.92 * x; }
  return 1.055 * pow(x, 1.0 / 2.4) - 0.055;
}
fn rec709Oetf(v: f32) -> f32 {
  let x = clamp(v, 0.0, 1.0);
  if (x < 0.018) { return 4.5 * x; }
  return 1.099 * pow(x, 0.45) - 0.099;
}
const HDR_ON: u32 = 1u;
const HDR_ROLL_OFF: u32 = 2u;

// The sRGB curve without the clamp: an extended-range (rgba16float, toneMapping 'extended') canvas takes values
// above 1 through the same curve.
fn srgbOetfExtended(x: f32) -> f32 {
  if (x <= 0.0031308) { return 12.92 * x; }
  return 1.055 * pow(x, 1.0 / 2.4) - 0.055;
}

// Identity up to 3/4 of the headroom, then an exponential shoulder that approaches the headroom and never reaches it.
fn rollOff(x: f32, headroom: f32) -> f32 {
  let knee = 0.75 * headroom;
  if (x <= knee) { return x; }
  let span = headroom - knee;
  return knee + span * (1.0 - exp(-(x - knee) / span));
}

// The HDR path: scene-referred linear scaled to paper white, optionally rolled off to the display's peak, no clamp.
fn hdrPixel(v: vec3f, d: Display) -> vec3f {
  var lin = max(v, vec3f(0.0)) * d.hdrScale;
  if ((d.hdr & HDR_ROLL_OFF) != 0u) {
    lin = vec3f(rollOff(lin.x, d.hdrHeadroom), rollOff(lin.y, d.hdrHeadroom), rollOff(lin.z, d.hdrHeadroom));
  }
  return vec3f(srgbOetfExtended(lin.x), srgbOetfExtended(lin.y), srgbOetfExtended(lin.z));
}

fn srgb3(c: vec3f) -> vec3f { return vec3f(srgbOetf(c.x), srgbOetf(c.y), srgbOetf(c.z)); }

// Row-major matrices in the reference; WGSL mat3x3 is column-major, so these are written transposed.
fn acesCurve(x: vec3f) -> vec3f {
  return (x * (x + 0.0245786) - 0.000090537) / (x * (0.983729 * x + 0.432951) + 0.238081);
}
fn acesFitted(c: vec3f) -> vec3f {
  let inM = mat3x3f(vec3f(0.59719, 0.076, 0.0284), vec3f(0.35458, 0.90834, 0.13383), vec3f(0.04823, 0.01566, 0.83777));
  let outM = mat3x3f(vec3f(1.60475, -0.10208, -0.00327), vec3f(-0.53108, 1.10813, -0.07276), vec3f(-0.07367, -0.00605, 1.07602));
  let v = inM * max(c, vec3f(0.0));
  return clamp(outM * acesCurve(v), vec3f(0.0), vec3f(1.0));
}

fn agxCurve(x0: f32) -> f32 {
  let minEv = -12.47393;
  let maxEv = 4.026069;
  let l = clamp(log2(max(x0, 1e-10)), minEv, maxEv);
  let x = (l - minEv) / (maxEv - minEv);
  let x2 = x * x;
  let x4 = x2 * x2;
  return 15.5 * x4 * x2 - 40.14 * x4 * x + 31.96 * x4 - 6.868 * x2 * x + 0.4298 * x2 + 0.1191 * x - 0.00232;
}
fn powOrZero(x: f32, e: f32) -> f32 { if (x <= 0.0) { return 0.0; } return pow(x, e); }
fn agx(c: vec3f) -> vec3f {
  let inM = mat3x3f(
    vec3f(0.842479062253094, 0.0423282422610123, 0.0423756549057051),
    vec3f(0.0784335999999992, 0.878468636469772, 0.0784336),
    vec3f(0.0792237451477643, 0.0791661274605434, 0.879142973793104));
  let outM = mat3x3f(
    vec3f(1.19687900512017, -0.0528968517574562, -0.0529716355144438),
    vec3f(-0.0980208811401368, 1.15190312990417, -0.0980434501171241),
    vec3f(-0.0990297440797205, -0.0989611768448433, 1.15107367264116));
  let v = inM * max(c, vec3f(0.0));
  let o = outM * vec3f(agxCurve(v.x), agxCurve(v.y), agxCurve(v.z));
  return clamp(vec3f(powOrZero(o.x, 2.2), powOrZero(o.y, 2.2), powOrZero(o.z, 2.2)), vec3f(0.0), vec3f(1.0));
}

fn pbrNeutral(c0: vec3f) -> vec3f {
  var c = max(c0, vec3f(0.0));
  let startCompression = 0.8 - 0.04;
  let desaturation = 0.15;
  let x = min(c.x, min(c.y, c.z));
  let off = select(0.04, x - 6.25 * x * x, x < 0.08);
  c = c - off;
  let peak = max(c.x, max(c.y, c.z));
  if (peak >= startCompression) {
    let d = 1.0 - startCompression;
    let newPeak = 1.0 - d * d / (peak + d - startCompression);
    c = c * (newPeak / peak);
    let g = 1.0 - 1.0 / (desaturation * (peak - newPeak) + 1.0);
    c = c + (vec3f(newPeak) - c) * g;
  }
  return clamp(c, vec3f(0.0), vec3f(1.0));
}

fn displayTransform(t: u32, c: vec3f) -> vec3f {
  switch (t) {
    case 0u: { return clamp(c, vec3f(0.0), vec3f(1.0)); }
    case 1u: { return srgb3(c); }
    case 2u: { return vec3f(rec709Oetf(c.x), rec709Oetf(c.y), rec709Oetf(c.z)); }
    case 3u: { return srgb3(acesFitted(c)); }
    case 4u: { return srgb3(agx(c)); }
    case 5u: { return srgb3(pbrNeutral(c)); }
    default: { let m = max(c, vec3f(0.0)); return srgb3(m / (1.0 + m)); }
  }
}

fn falseColourZone(lum: f32) -> u32 {
  if (!(lum > 0.0)) { return 0u; }
  let ev = log2(lum / 0.18);
  var zone = 0u;
  for (var i = 0u; i < 8u; i++) {
    if (ev >= palette.bounds[i / 4u][i % 4u]) { zone += 1u; }
  }
  return zone;
}

// raw: linear RGBA at this pixel; px: integer canvas pixel (for the checkerboard).
fn toneMapPixel(raw: vec4f, px: vec2f, d: Display) -> vec3f {
  let cv = d.channelView;
  // which components count for NaN/Inf: rgb/luminance: rgb; rgba: all; r/g/b/a: one
  var nanAny = false;
  var infAny = false;
  for (var i = 0u; i < 4u; i++) {
    var counts = false;
    switch (cv) {
      case 0u, 6u: { counts = i < 3u; }
      case 1u: { counts = true; }
      default: { counts = i == cv - 2u; }
    }
    if (counts) {
      nanAny = nanAny || isNanF(raw[i]);
      infAny = infAny || isInfF(raw[i]);
    }
  }
  if ((d.flags & FLAG_NAN_INF) != 0u) {
    if (nanAny) { return NAN_COLOUR; }
    if (infAny) { return INF_COLOUR; }
  }
  let s = vec3f(sanitize(raw.x), sanitize(raw.y), sanitize(raw.z));
  var sel = s;
  switch (cv) {
    case 2u: { sel = vec3f(s.x); }
    case 3u: { sel = vec3f(s.y); }
    case 4u: { sel = vec3f(s.z); }
    case 5u: { sel = vec3f(sanitize(raw.w)); }
    case 6u: { sel = vec3f(dot(s, LUMA)); }
    default: {}
  }
  let e = sel * d.exposureScale + d.offset;
  let v = vec3f(sanitize(e.x), sanitize(e.y), sanitize(e.z));
  var col: vec3f;
  if ((d.flags & FLAG_FALSE_COLOUR) != 0u) {
    col = palette.colours[falseColourZone(dot(v, LUMA))].xyz;
  } else if ((d.hdr & HDR_ON) != 0u) {
    col = hdrPixel(v, d);
  } else if (d.lutMode == 4u) {
    // OpenColorIO (ocio_apply, generated per processor): exposure before it in scene-linear, gamma after it, as
    // OCIO's viewing pipeline has them; the processor replaces the view transform
    col = clamp(ocio_apply(vec4f(v, 1.0)).xyz, vec3f(0.0), vec3f(1.0));
    if (d.invGamma != 1.0) {
      col = vec3f(powOrZero(col.x, d.invGamma), powOrZero(col.y, d.invGamma), powOrZero(col.z, d.invGamma));
    }
  } else if (d.lutMode >= 2u) {
    // A LUT on a shaper replaces the view transform and gamma: it maps scene values to the display itself.
    let x = select(v, lutLogShaper(v), d.lutMode == 2u);
    col = clamp(applyLut(x), vec3f(0.0), vec3f(1.0));
  } else {
    col = displayTransform(d.transform, v);
    if (d.invGamma != 1.0) {
      col = vec3f(powOrZero(col.x, d.invGamma), powOrZero(col.y, d.invGamma), powOrZero(col.z, d.invGamma));
    }
    if (d.lutMode == 1u) { col = clamp(applyLut(col), vec3f(0.0), vec3f(1.0)); }
  }
  if ((d.flags & FLAG_CLIPPING) != 0u) {
    if (any(v >= vec3f(1.0))) { col = vec3f(1.0, 0.0, 0.0); }
    else if (all(v <= vec3f(0.0))) { col = vec3f(0.0, 0.0, 1.0); }
  }
  if (cv == 1u) {
    let alpha = clamp(sanitize(raw.w), 0.0, 1.0);
    let sq = floor(px / palette.checker.z);
    let odd = (i32(sq.x) + i32(sq.y)) % 2 != 0;
    let checker = select(palette.checker.x, palette.checker.y, odd);
    col = vec3f(checker) + (col - vec3f(checker)) * alpha;
  }
  return col;
}
