// Histograms of one MIP level: log2 luminance and log2 R, G, B in 256 bins each; non-finite values are skipped.

const BINS: u32 = 256u;
const MIN_LOG2: f32 = -16.0;
const MAX_LOG2: f32 = 16.0;
const LUMA = vec3f(0.2126, 0.7152, 0.0722);

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var<storage, read_write> bins: array<atomic<u32>, 1024>;

fn finite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }

fn binOf(v: f32) -> u32 {
  if (v <= 0.0) { return 0u; }
  let t = (log2(v) - MIN_LOG2) / (MAX_LOG2 - MIN_LOG2);
  return u32(clamp(floor(t * f32(BINS)), 0.0, f32(BINS - 1u)));
}

fn count(k: u32, v: f32) {
  if (finite(v)) { atomicAdd(&bins[k * BINS + binOf(v)], 1u); }
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  let size = textureDimensions(src);
  if (id.x >= size.x || id.y >= size.y) { return; }
  let p = textureLoad(src, vec2i(id.xy), 0);
  count(0u, LUMA.x * p.x + LUMA.y * p.y + LUMA.z * p.z);
  count(1u, p.x);
  count(2u, p.y);
  count(3u, p.z);
}
