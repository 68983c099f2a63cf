// Binning shared by histogram.wgsl and histogram-pair.wgsl: log2 luminance and log2 R, G, B in 256 bins each over
// [2^-16, 2^16); values <= 0 go to bin 0, non-finite values are skipped; and the cells left out. The including shader
// declares `bins`.

const BINS: u32 = 256u;
const MIN_LOG2: f32 = -16.0;
const MAX_LOG2: f32 = 16.0;
const HIST_LUMA = vec3f(0.2126, 0.7152, 0.0722);

fn histFinite(v: f32) -> bool { return (bitcast<u32>(v) & 0x7f800000u) != 0x7f800000u; }

fn binOf(v: f32) -> u32 {
  if (v <= 0.0) { return 0u; }
  let t = (log2(v) - MIN_LOG2) / (MAX_LOG2 - MIN_LOG2);
  return u32(clamp(floor(t * f32(BINS)), 0.0, f32(BINS - 1u)));
}

fn countValue(k: u32, v: f32) {
  if (histFinite(v)) { atomicAdd(&bins[k * BINS + binOf(v)], 1u); }
}

fn countPixel(p: vec4f) {
  countValue(0u, HIST_LUMA.x * p.x + HIST_LUMA.y * p.y + HIST_LUMA.z * p.z);
  countValue(1u, p.x);
  countValue(2u, p.y);
  countValue(3u, p.z);
}

// A damaged image's missing pixels are left out by the *Skipping entry points: the cells of the sampled grid to skip
// (histogram-skip.ts), as inclusive boxes, or as a mask of the grid when there are more than the boxes hold. The plain
// entry points never read these (a whole image costs what it did).
struct SkipCells {
  count: u32,
  useMask: u32,
  pad0: u32,
  pad1: u32,
  boxes: array<vec4u, 64>,
}

@group(0) @binding(4) var<storage, read> skip: SkipCells;
@group(0) @binding(5) var skipMask: texture_2d<u32>;

fn skipped(cell: vec2u) -> bool {
  if (skip.useMask != 0u) { return textureLoad(skipMask, vec2i(cell), 0).r != 0u; }
  for (var i = 0u; i < skip.count; i++) {
    let b = skip.boxes[i];
    if (all(cell >= b.xy) && all(cell <= b.zw)) { return true; }
  }
  return false;
}
