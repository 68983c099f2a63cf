// Builds MIP level 0 (rgba32float) of a layer from its uploaded planes, on the GPU: up to four planes of any
// pixel type and sampling go to R, G, B, A; Y/RY/BY layers are converted to RGB here. No CPU interleave.

struct Slot {
  kind: u32,      // 0: constant, 1: float/half plane, 2: uint plane
  xSampling: i32,
  ySampling: i32,
  constant: f32,
  firstX: i32,    // index of the first sample: ceil(dataWindow.x0 / xSampling)
  firstY: i32,
  _pad0: u32,
  _pad1: u32,
};

struct Assemble {
  slots: array<Slot, 4>,
  origin: vec2i,  // data window x0, y0
  size: vec2u,    // data window size
  mode: u32,      // 0: direct, 1: Y RY BY → RGB, 2: Y only → grey
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
};

@group(0) @binding(0) var<uniform> params: Assemble;
@group(0) @binding(1) var f0: texture_2d<f32>;
@group(0) @binding(2) var f1: texture_2d<f32>;
@group(0) @binding(3) var f2: texture_2d<f32>;
@group(0) @binding(4) var f3: texture_2d<f32>;
@group(0) @binding(5) var u0: texture_2d<u32>;
@group(0) @binding(6) var u1: texture_2d<u32>;
@group(0) @binding(7) var u2: texture_2d<u32>;
@group(0) @binding(8) var u3: texture_2d<u32>;
@group(0) @binding(9) var dst: texture_storage_2d<rgba32float, write>;

fn floorDiv(a: i32, b: i32) -> i32 {
  let q = a / b;
  return select(q, q - 1, (a % b != 0) && ((a < 0) != (b < 0)));
}

fn sampleIndex(s: Slot, p: vec2i) -> vec2i {
  return vec2i(floorDiv(p.x, s.xSampling) - s.firstX, floorDiv(p.y, s.ySampling) - s.firstY);
}

fn readSlot(k: u32, p: vec2i) -> f32 {
  let s = params.slots[k];
  if (s.kind == 0u) { return s.constant; }
  let i = sampleIndex(s, p);
  if (s.kind == 1u) {
    switch (k) {
      case 0u: { return textureLoad(f0, clamp(i, vec2i(0), vec2i(textureDimensions(f0)) - 1), 0).x; }
      case 1u: { return textureLoad(f1, clamp(i, vec2i(0), vec2i(textureDimensions(f1)) - 1), 0).x; }
      case 2u: { return textureLoad(f2, clamp(i, vec2i(0), vec2i(textureDimensions(f2)) - 1), 0).x; }
      default: { return textureLoad(f3, clamp(i, vec2i(0), vec2i(textureDimensions(f3)) - 1), 0).x; }
    }
  }
  switch (k) {
    case 0u: { return f32(textureLoad(u0, clamp(i, vec2i(0), vec2i(textureDimensions(u0)) - 1), 0).x); }
    case 1u: { return f32(textureLoad(u1, clamp(i, vec2i(0), vec2i(textureDimensions(u1)) - 1), 0).x); }
    case 2u: { return f32(textureLoad(u2, clamp(i, vec2i(0), vec2i(textureDimensions(u2)) - 1), 0).x); }
    default: { return f32(textureLoad(u3, clamp(i, vec2i(0), vec2i(textureDimensions(u3)) - 1), 0).x); }
  }
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= params.size.x || id.y >= params.size.y) { return; }
  let p = params.origin + vec2i(id.xy);
  var c = vec4f(readSlot(0u, p), readSlot(1u, p), readSlot(2u, p), readSlot(3u, p));
  if (params.mode == 1u) {
    // luminance/chroma (OpenEXR ImfRgbaYca): R = (RY + 1) Y, B = (BY + 1) Y, G from the Rec.709 weights
    let y = c.x;
    let r = (c.y + 1.0) * y;
    let b = (c.z + 1.0) * y;
    let g = (y - r * 0.2126 - b * 0.0722) / 0.7152;
    c = vec4f(r, g, b, c.w);
  } else if (params.mode == 2u) {
    c = vec4f(c.x, c.x, c.x, c.w);
  }
  textureStore(dst, vec2i(id.xy), c);
}
