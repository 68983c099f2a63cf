// The matte of picked Cryptomatte IDs (spec v1.2): per pixel, the sum of coverage over every rank whose ID is picked.
// Each array layer of `ranks` is one rank group: R, B are IDs (compared as bits), G, A their coverage. Summed in rank
// order from zero, in f32, exactly as matte-cpu.ts does, so that the two agree bit for bit.

struct MatteParams {
  pickedCount: u32,
}

@group(0) @binding(0) var<uniform> params: MatteParams;
@group(0) @binding(1) var ranks: texture_2d_array<f32>;
@group(0) @binding(2) var<storage, read> picked: array<u32>;
@group(0) @binding(3) var matte: texture_storage_2d<r32float, write>;

override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;

fn isPicked(id: u32) -> bool {
  for (var i = 0u; i < params.pickedCount; i++) {
    if (picked[i] == id) {
      return true;
    }
  }
  return false;
}

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) gid: vec3u) {
  let size = textureDimensions(matte);
  if (gid.x >= size.x || gid.y >= size.y) {
    return;
  }
  var sum = 0.0;
  let groups = textureNumLayers(ranks);
  for (var g = 0u; g < groups; g++) {
    let pair = textureLoad(ranks, gid.xy, g, 0);
    if (isPicked(bitcast<u32>(pair.r))) {
      sum = sum + pair.g;
    }
    if (isPicked(bitcast<u32>(pair.b))) {
      sum = sum + pair.a;
    }
  }
  textureStore(matte, gid.xy, vec4f(sum, 0.0, 0.0, 1.0));
}
