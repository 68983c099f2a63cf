// Histograms of one MIP level of one layer (binning in histogram-bins.wgsl, which this needs).

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 1024>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(src);
  if (id.x >= size.x || id.y >= size.y) { return; }
  countPixel(textureLoad(src, vec2i(id.xy), 0));
}

// A damaged layer: a texel of level L averages 2^L×2^L pixels, so it is left out when any of them is missing (its
// cell is in `skip`): a missing pixel reads as 0 and would pull the texel towards it.
@compute @workgroup_size(8, 8)
fn mainSkipping(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(src);
  if (id.x >= size.x || id.y >= size.y || skipped(id.xy)) { return; }
  countPixel(textureLoad(src, vec2i(id.xy), 0));
}
