// Histograms of one MIP level of one layer (binning in histogram-bins.wgsl, which this needs).

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 1024>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(src);
  if (id.x >= size.x || id.y >= size.y) { return; }
  countPixel(textureLoad(src, vec2i(id.xy), 0));
}
