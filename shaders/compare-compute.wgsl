// The compare pass as a compute pass into a storage target (the canvas texture where it allows storage writes), as
// preview-compute.wgsl does for the preview. TARGET_FORMAT is replaced by the target's format in compare-kit.ts.

override WG_X: u32 = 16u;
override WG_Y: u32 = 16u;

@group(3) @binding(0) var outTex: texture_storage_2d<TARGET_FORMAT, write>;

@compute @workgroup_size(WG_X, WG_Y)
fn cs(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(outTex);
  if (id.x >= size.x || id.y >= size.y) { return; }
  textureStore(outTex, vec2i(id.xy), comparePixel(vec2f(id.xy) + 0.5));
}
