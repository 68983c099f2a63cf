// One MIP reduction in linear light: dst(x, y) = box average of src(2x..2x+1, 2y..2y+1), edge-clamped.
// rgba32float because core WebGPU cannot write rgba16float storage textures (that needs "texture-formats-tier1").

// Workgroup shape: pipeline-overridable so a benchmark can compare shapes on the same text (shaders/pipelines.ts
// MIP_WORKGROUP holds the default, the fastest shape tried: bench/gpu/NOTES.md).
override WG_X: u32 = 8u;
override WG_Y: u32 = 8u;

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var dst: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let dstSize = textureDimensions(dst);
  if (id.x >= dstSize.x || id.y >= dstSize.y) { return; }
  let last = vec2i(textureDimensions(src)) - 1;
  let x0 = min(i32(id.x) * 2, last.x);
  let x1 = min(i32(id.x) * 2 + 1, last.x);
  let y0 = min(i32(id.y) * 2, last.y);
  let y1 = min(i32(id.y) * 2 + 1, last.y);
  // scale each term first: finite inputs near f32 max never overflow; the order matches the CPU reference
  let a = textureLoad(src, vec2i(x0, y0), 0) * 0.25;
  let b = textureLoad(src, vec2i(x1, y0), 0) * 0.25;
  let c = textureLoad(src, vec2i(x0, y1), 0) * 0.25;
  let d = textureLoad(src, vec2i(x1, y1), 0) * 0.25;
  textureStore(dst, vec2i(id.xy), ((a + b) + c) + d);
}
