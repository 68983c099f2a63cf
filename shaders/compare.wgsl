// The preview with a reference: A (the current image) and B (the reference, aligned by display window) drawn one
// or the other (A/B flip), split at a divider (wipe, side by side), or as one of tev's difference images; then the
// same tone-map as the preview, or a colormap over a value range. Needs tonemap-core.wgsl and compare-core.wgsl.
// Sampling takes the texture as a parameter (preview.wgsl binds one image as a global; this pass reads two).

struct CompareView {
  display: Display,
  originA: vec2f,       // canvas px of A's data window's top-left corner
  texelsPerPx: f32,     // image px per canvas px, both images
  levelsA: f32,
  sizeA: vec2f,         // A's data window size, px
  originB: vec2f,       // canvas px of B's data window's top-left corner (aligned in A's pixel space)
  sizeB: vec2f,
  levelsB: f32,
  background: f32,
  displayMin: vec2f,    // A's display window relative to A's data origin (min inclusive, max exclusive)
  displayMax: vec2f,
  mode: u32,            // 0 A, 1 B, 2 split, 3.. difference metric (code + 3)
  splitAxis: u32,       // 0: divider across x (vertical line), 1: across y
  splitPx: f32,         // divider position, canvas px
  viewFlags: u32,
  colormap: u32,        // 0: tone-map; else the colormap's code
  rangeMin: f32,
  rangeMax: f32,
  _pad: f32,
  displayMinB: vec2f,   // B's display window relative to B's data origin as placed (min inclusive, max exclusive)
  displayMaxB: vec2f,
};

const SHOW_A: u32 = 0u;
const SHOW_B: u32 = 1u;
const SHOW_SPLIT: u32 = 2u;
const CMP_NEAREST: u32 = 8u;
const CMP_PIXEL_GRID: u32 = 16u;
const CMP_OUTLINES: u32 = 32u;
const CMP_OUTLINE_B: u32 = 64u;
const STOPS: u32 = 64u;

@group(0) @binding(0) var<uniform> view: CompareView;
@group(1) @binding(0) var imageA: texture_2d<f32>;
@group(1) @binding(1) var imageB: texture_2d<f32>;
@group(2) @binding(0) var<uniform> palette: Palette;
// bindings 1 and 2 of group 2: the tone-map core's LUT (lut.wgsl)
@group(2) @binding(3) var<storage, read> colormaps: array<vec4f>;

fn loadClampedT(t: texture_2d<f32>, level: i32, texel: vec2i) -> vec4f {
  let size = vec2i(textureDimensions(t, level));
  return textureLoad(t, clamp(texel, vec2i(0), size - 1), level);
}

fn bilinearT(t: texture_2d<f32>, level: i32, pos: vec2f) -> vec4f {
  let p = pos / f32(1 << u32(level)) - 0.5;
  let i = vec2i(floor(p));
  let f = p - floor(p);
  let a = loadClampedT(t, level, i);
  let b = loadClampedT(t, level, i + vec2i(1, 0));
  let c = loadClampedT(t, level, i + vec2i(0, 1));
  let d = loadClampedT(t, level, i + vec2i(1, 1));
  return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

// nearest at or above 1:1 (or when asked), else trilinear between the two nearest MIP levels, as the preview samples
fn sampleT(t: texture_2d<f32>, img: vec2f, levels: f32) -> vec4f {
  if ((view.viewFlags & CMP_NEAREST) != 0u || view.texelsPerPx <= 1.0) {
    return loadClampedT(t, 0, vec2i(floor(img)));
  }
  let lod = clamp(log2(view.texelsPerPx), 0.0, levels - 1.0);
  let l0 = i32(floor(lod));
  let l1 = min(l0 + 1, i32(levels) - 1);
  return mix(bilinearT(t, l0, img), bilinearT(t, l1, img), lod - f32(l0));
}

fn insideImage(img: vec2f, size: vec2f) -> bool {
  return all(img >= vec2f(0.0)) && all(img < size);
}

fn onEdge(p: vec2f, minPx: vec2f, maxPx: vec2f) -> bool {
  return all(p >= minPx - 1.0) && all(p <= maxPx + 1.0) && !(all(p >= minPx) && all(p <= maxPx));
}

fn colormapLookup(code: u32, t: f32) -> vec3f {
  let x = clamp(t, 0.0, 1.0) * f32(STOPS - 1u);
  let i = min(u32(floor(x)), STOPS - 2u);
  let base = (code - 1u) * STOPS + i;
  return mix(colormaps[base].xyz, colormaps[base + 1u].xyz, x - f32(i));
}

// The one value a colormap shows: the channel picked (R, G, B or A), else luminance.
fn colormapScalar(v: vec4f, channelView: u32) -> f32 {
  switch (channelView) {
    case 2u: { return v.x; }
    case 3u: { return v.y; }
    case 4u: { return v.z; }
    case 5u: { return v.w; }
    default: { return dot(v.xyz, LUMA); }
  }
}

fn colormapColour(raw: vec4f) -> vec3f {
  let s = colormapScalar(raw, view.display.channelView);
  if ((view.display.flags & FLAG_NAN_INF) != 0u) {
    if (isNanF(s)) { return NAN_COLOUR; }
    if (isInfF(s)) { return INF_COLOUR; }
  }
  let span = view.rangeMax - view.rangeMin;
  let t = select(0.5, (sanitize(s) - view.rangeMin) / span, span > 0.0);
  return colormapLookup(view.colormap, t);
}

fn comparePixel(pos: vec2f) -> vec4f {
  let bg = vec4f(vec3f(view.background), 1.0);
  let along = select(pos.x, pos.y, view.splitAxis == 1u);
  if (view.mode == SHOW_SPLIT && abs(along - view.splitPx) < 1.0) { return vec4f(0.9, 0.9, 0.9, 1.0); }
  // A's outline stays on A's side of a split: side by side, B's half is B's alone
  if ((view.viewFlags & CMP_OUTLINES) != 0u && (view.mode != SHOW_SPLIT || along < view.splitPx)) {
    let dMin = view.originA + view.displayMin / view.texelsPerPx;
    let dMax = view.originA + view.displayMax / view.texelsPerPx;
    if (onEdge(pos, dMin, dMax)) { return vec4f(0.9, 0.75, 0.2, 1.0); }
  }
  // and B's, in the same style, on B's side (side by side: each half has its own image's frame)
  if ((view.viewFlags & CMP_OUTLINE_B) != 0u && view.mode == SHOW_SPLIT && along >= view.splitPx) {
    let dMin = view.originB + view.displayMinB / view.texelsPerPx;
    let dMax = view.originB + view.displayMaxB / view.texelsPerPx;
    if (onEdge(pos, dMin, dMax)) { return vec4f(0.9, 0.75, 0.2, 1.0); }
  }
  let imgA = (pos - view.originA) * view.texelsPerPx;
  let imgB = (pos - view.originB) * view.texelsPerPx;
  let inA = insideImage(imgA, view.sizeA);
  let inB = insideImage(imgB, view.sizeB);
  var which = view.mode;
  if (which == SHOW_SPLIT) { which = select(SHOW_A, SHOW_B, along >= view.splitPx); }
  var raw: vec4f;
  var img = imgA;
  if (which == SHOW_A) {
    if (!inA) { return bg; }
    raw = sampleT(imageA, imgA, view.levelsA);
  } else if (which == SHOW_B) {
    if (!inB) { return bg; }
    raw = sampleT(imageB, imgB, view.levelsB);
    img = imgB;
  } else {
    if (!inA && !inB) { return bg; }
    // outside a data window an image is 0, as OpenEXR reads it
    var a = vec4f(0.0);
    var b = vec4f(0.0);
    if (inA) { a = sampleT(imageA, imgA, view.levelsA); }
    if (inB) { b = sampleT(imageB, imgB, view.levelsB); }
    raw = vec4f(differenceVec(which - 3u, a, b).xyz, (a.w + b.w) * 0.5);
  }
  var col: vec3f;
  if (view.colormap != 0u) { col = colormapColour(raw); } else { col = toneMapPixel(raw, floor(pos), view.display); }
  if ((view.viewFlags & CMP_PIXEL_GRID) != 0u && view.texelsPerPx <= 1.0 / 16.0) {
    let f = fract(img);
    if (f.x < view.texelsPerPx || f.y < view.texelsPerPx) { col = col * 0.6 + 0.1; }
  }
  return vec4f(col, 1.0);
}

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  return comparePixel(pos.xy);
}
