// The Cryptomatte view (spec v1.2) over the shown beauty: each rank's ID coloured from its bits (idColour, as colour.ts)
// and blended by its coverage; where names are picked, their matte (from matte.wgsl) tinted over the beauty, as grey
// alpha, or the beauty times the matte. Written as a layer's level 0, which the preview then tone-maps like any layer.

struct ViewParams {
  // 0 ID view (nothing picked), 1 overlay, 2 alpha, 3 isolate
  mode: u32,
  pickedCount: u32,
}

@group(0) @binding(0) var<uniform> params: ViewParams;
@group(0) @binding(1) var ranks: texture_2d_array<f32>;
@group(0) @binding(2) var matte: texture_2d<f32>;
@group(0) @binding(3) var beauty: texture_2d<f32>;
@group(0) @binding(4) var<storage, read> picked: array<u32>;
@group(0) @binding(5) var outView: texture_storage_2d<rgba32float, write>;

override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;

fn mixBits(id: u32) -> u32 {
  var h = id;
  h ^= h >> 16u;
  h *= 0x7feb352du;
  h ^= h >> 15u;
  h *= 0x846ca68bu;
  h ^= h >> 16u;
  return h;
}

fn level(h: u32, shift: u32) -> f32 {
  let v = (40.0 + f32((h >> shift) & 0xffu) * 215.0 / 255.0) / 255.0;
  return v * v;
}

fn idColour(id: u32) -> vec3f {
  if (id == 0u) {
    return vec3f(0.0);
  }
  let h = mixBits(id);
  return vec3f(level(h, 0u), level(h, 8u), level(h, 16u));
}

fn isPicked(id: u32) -> bool {
  for (var i = 0u; i < params.pickedCount; i++) {
    if (picked[i] == id) {
      return true;
    }
  }
  return false;
}

// a NaN or infinite coverage (a broken rank pair) adds nothing to what is seen
fn finiteOr0(v: f32) -> f32 {
  return select(0.0, v, abs(v) <= 3.4e38);
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let size = textureDimensions(outView);
  if (gid.x >= size.x || gid.y >= size.y) {
    return;
  }
  var all = vec3f(0.0);
  var chosen = vec3f(0.0);
  let groups = textureNumLayers(ranks);
  for (var g = 0u; g < groups; g++) {
    let pair = textureLoad(ranks, gid.xy, g, 0);
    let id0 = bitcast<u32>(pair.r);
    let id1 = bitcast<u32>(pair.b);
    let c0 = idColour(id0) * clamp(finiteOr0(pair.g), 0.0, 1.0);
    let c1 = idColour(id1) * clamp(finiteOr0(pair.a), 0.0, 1.0);
    all += c0 + c1;
    if (isPicked(id0)) {
      chosen += c0;
    }
    if (isPicked(id1)) {
      chosen += c1;
    }
  }
  let m = clamp(finiteOr0(textureLoad(matte, gid.xy, 0).r), 0.0, 1.0);
  let under = textureLoad(beauty, gid.xy, 0).rgb;
  var rgb = all;
  if (params.mode == 1u) {
    // the picked names: the beauty tinted, each in its own colour; the rest dimmed, its IDs faint
    let tint = select(vec3f(0.0), chosen / m, m > 0.0);
    rgb = mix(mix(under, all, 0.25) * 0.45, mix(under, tint, 0.6), m);
  } else if (params.mode == 2u) {
    rgb = vec3f(m);
  } else if (params.mode == 3u) {
    rgb = under * m;
  }
  textureStore(outView, gid.xy, vec4f(rgb, 1.0));
}
