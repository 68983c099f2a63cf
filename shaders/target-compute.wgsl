// A display pass as a compute pass: PIXEL_FN (previewPixel of preview.wgsl, comparePixel of compare.wgsl) per target
// pixel, stored straight into the target (the canvas texture, configured with STORAGE_BINDING). Same bind groups 0-2 as
// the pass's render form, plus group 3: the target. A compute pass because the same work as a fragment pass is many
// times slower on the GPUs measured (bench/gpu/NOTES.md). targetComputeSource() in pipelines.ts replaces PIXEL_FN, and
// TARGET_FORMAT by the target's texel format (WGSL cannot take a storage format from an override).

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;

@group(3) @binding(0) var outTex: texture_storage_2d<TARGET_FORMAT, write>;

@compute @workgroup_size(WG_X, WG_Y)
fn cs(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(outTex);
  if (id.x >= size.x || id.y >= size.y) { return; }
  textureStore(outTex, vec2i(id.xy), PIXEL_FN(vec2f(id.xy) + 0.5));
}
