// The preview: one full-screen pass that samples the image's MIP chain (nearest when zoomed in, manual trilinear
// when zoomed out: rgba32float is not filterable in core WebGPU) and tone-maps it, with outlines and a pixel grid.

struct View {
  display: Display,
  originPx: vec2f,      // canvas px of the data window's top-left corner
  texelsPerPx: f32,     // image px per canvas px (zoom = 1 / this)
  levelCount: f32,
  imageSize: vec2f,     // data window size in px
  displayMin: vec2f,    // display window relative to the data window origin, image px (inclusive min)
  displayMax: vec2f,    // exclusive max
  background: f32,
  viewFlags: u32,
};

const VIEW_NEAREST: u32 = 8u;
const VIEW_PIXEL_GRID: u32 = 16u;
const VIEW_OUTLINES: u32 = 32u;

@group(0) @binding(0) var<uniform> view: View;
@group(1) @binding(0) var image: texture_2d<f32>;
@group(2) @binding(0) var<uniform> palette: Palette;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

fn loadClamped(level: i32, texel: vec2i) -> vec4f {
  let size = vec2i(textureDimensions(image, level));
  return textureLoad(image, clamp(texel, vec2i(0), size - 1), level);
}

fn bilinear(level: i32, pos: vec2f) -> vec4f {
  // pos in level-0 px; convert to this level's texel centres
  let scale = f32(1 << u32(level));
  let p = pos / scale - 0.5;
  let i = vec2i(floor(p));
  let f = p - floor(p);
  let a = loadClamped(level, i);
  let b = loadClamped(level, i + vec2i(1, 0));
  let c = loadClamped(level, i + vec2i(0, 1));
  let d = loadClamped(level, i + vec2i(1, 1));
  return mix(mix(a, b, f.x), mix(c, d, f.x), f.y);
}

fn onBorder(p: vec2f, minPx: vec2f, maxPx: vec2f) -> bool {
  let inside = all(p >= minPx - 1.0) && all(p <= maxPx + 1.0);
  let core = all(p >= minPx) && all(p <= maxPx);
  return inside && !core;
}

// One canvas pixel of the preview; pos: the pixel's centre in canvas px (what @builtin(position).xy gives).
// Shared by the fragment entry below and the compute entry (target-compute.wgsl), so both paths draw the same.
fn previewPixel(pos: vec2f) -> vec4f {
  let px = floor(pos);
  let img = (pos - view.originPx) * view.texelsPerPx;
  if ((view.viewFlags & VIEW_OUTLINES) != 0u) {
    let dMin = view.originPx + view.displayMin / view.texelsPerPx;
    let dMax = view.originPx + view.displayMax / view.texelsPerPx;
    if (onBorder(pos, dMin, dMax)) { return vec4f(0.9, 0.75, 0.2, 1.0); }
    if (onBorder(pos, view.originPx, view.originPx + view.imageSize / view.texelsPerPx)) { return vec4f(0.3, 0.6, 0.95, 1.0); }
  }
  if (any(img < vec2f(0.0)) || any(img >= view.imageSize)) {
    return vec4f(vec3f(view.background), 1.0);
  }
  var raw: vec4f;
  if ((view.viewFlags & VIEW_NEAREST) != 0u || view.texelsPerPx <= 1.0) {
    raw = textureLoad(image, vec2i(floor(img)), 0);
  } else {
    let lod = clamp(log2(view.texelsPerPx), 0.0, view.levelCount - 1.0);
    let l0 = i32(floor(lod));
    let l1 = min(l0 + 1, i32(view.levelCount) - 1);
    raw = mix(bilinear(l0, img), bilinear(l1, img), lod - f32(l0));
  }
  var col = toneMapPixel(raw, px, view.display);
  if ((view.viewFlags & VIEW_PIXEL_GRID) != 0u && view.texelsPerPx <= 1.0 / 16.0) {
    let f = fract(img);
    if (f.x < view.texelsPerPx || f.y < view.texelsPerPx) { col = col * 0.6 + 0.1; }
  }
  return vec4f(col, 1.0);
}

@fragment
fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  return previewPixel(pos.xy);
}
