// The depth-range composite (shaders/deep/range-composite.ts is its CPU reference): each pixel's samples, sorted by
// depth, that lie in [near, far] composited front to back with "over" into R, G, B, A; a volume sample cut by a
// handle keeps the cut share x of its thickness, alpha' = 1 - (1 - alpha)^x and colour scaled as its alpha.

struct Params {
  size: vec2u,
  nearZ: f32,
  farZ: f32,
  // per slot: 0 reads 0, 1 the front sample's value, 2 "over" under its alpha, 3 reads 1
  modes: vec4u,
  // 1: a one-channel layer, its value shown in R, G and B
  grey: u32,
  _pad0: u32,
  _pad1: u32,
  _pad2: u32,
};

const STRIDE: u32 = 10u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> offsets: array<u32>;
@group(0) @binding(2) var<storage, read> samples: array<f32>;
@group(0) @binding(3) var dst: texture_storage_2d<rgba32float, write>;

override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;

fn fraction(z: f32, zBack: f32) -> f32 {
  if (!(zBack > z)) {
    return select(0.0, 1.0, z >= params.nearZ && z <= params.farZ);
  }
  if (z >= params.nearZ && zBack <= params.farZ) { return 1.0; }
  let overlap = min(zBack, params.farZ) - max(z, params.nearZ);
  return select(0.0, overlap / (zBack - z), overlap > 0.0);
}

fn splitAlpha(a: f32, x: f32) -> f32 {
  if (x >= 1.0 || a >= 1.0) { return a; }
  if (a <= 0.0) { return a * x; }
  return 1.0 - exp2(x * log2(1.0 - a));
}

fn splitValue(v: f32, a: f32, splitA: f32, x: f32) -> f32 {
  if (x >= 1.0 || a >= 1.0) { return v; }
  if (a <= 0.0) { return v * x; }
  return v * (splitA / a);
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= params.size.x || id.y >= params.size.y) { return; }
  let p = id.y * params.size.x + id.x;
  var out = vec4f(0.0);
  var t = vec4f(1.0);
  var frontSet = vec4<bool>(false);
  for (var s = offsets[p]; s < offsets[p + 1u]; s++) {
    let at = s * STRIDE;
    let x = fraction(samples[at], samples[at + 1u]);
    if (x == 0.0) { continue; }
    for (var k = 0u; k < 4u; k++) {
      let mode = params.modes[k];
      if (mode == 1u) {
        if (!frontSet[k]) { out[k] = samples[at + 2u + k]; }
        frontSet[k] = true;
      } else if (mode == 2u && t[k] > 0.0) {
        let alpha = samples[at + 6u + k];
        let a = splitAlpha(alpha, x);
        out[k] = out[k] + t[k] * splitValue(samples[at + 2u + k], alpha, a, x);
        t[k] = t[k] * (1.0 - a);
      }
    }
  }
  if (params.modes.w == 3u) { out.w = 1.0; }
  if (params.grey == 1u) { out = vec4f(out.x, out.x, out.x, out.w); }
  textureStore(dst, vec2i(id.xy), out);
}
