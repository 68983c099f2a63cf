// The preview's tone-map as a compute pass: previewPixel() (preview.wgsl) per target pixel, stored straight into the
// target (the canvas texture, configured with STORAGE_BINDING). Same bind groups 0-2 as the render pass, plus group 3:
// the target. Measured on an H100 (bench/gpu/NOTES.md): 0.096 ms at 4K against 3.27 ms for the same work as a
// fragment pass. TARGET_FORMAT is replaced by the target's texel format in shaders/pipelines.ts (WGSL cannot take a
// storage format from an override).

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;

@group(3) @binding(0) var outTex: texture_storage_2d<TARGET_FORMAT, write>;

@compute @workgroup_size(WG_X, WG_Y)
fn cs(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(outTex);
  if (id.x >= size.x || id.y >= size.y) { return; }
  textureStore(outTex, vec2i(id.xy), previewPixel(vec2f(id.xy) + 0.5));
}
