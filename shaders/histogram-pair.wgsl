// Histograms of what a compare mode shows, from two layers at level 0: A, B, or the magnitude of a difference image
// (params.valueMode as the statistics'), over every sampleStep-th pixel of the region each way. Needs
// compare-core.wgsl, reduce-common.wgsl and histogram-bins.wgsl. Mirrors pairHistogramReference().

@group(0) @binding(3) var<storage, read_write> bins: array<atomic<u32>, 1024>;

fn countSample(cell: vec2u) {
  let at = vec2i(cell * max(params.sampleStep, 1u)) + params.regionMin;
  let a = fetchA(at);
  let b = fetchB(at);
  if (params.valueMode == 0u) { countPixel(a); return; }
  if (params.valueMode == 1u) { countPixel(b); return; }
  // the signed error's histogram is of |A − B|, on the same log2 axis as the others
  countPixel(abs(differenceVec(params.valueMode - 2u, a, b)));
}

fn inRegion(cell: vec2u) -> bool {
  let p = cell * max(params.sampleStep, 1u);
  return p.x < params.regionSize.x && p.y < params.regionSize.y;
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (inRegion(id.xy)) { countSample(id.xy); }
}

// A or B damaged: a sample on a missing pixel of either (its cell in `skip`) is left out.
@compute @workgroup_size(8, 8)
fn mainSkipping(@builtin(global_invocation_id) id: vec3u) {
  if (inRegion(id.xy) && !skipped(id.xy)) { countSample(id.xy); }
}
