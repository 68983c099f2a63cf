// What metrics.wgsl, stats.wgsl and histogram-pair.wgsl share: the region they reduce, the two layers' placement, the tiling.
// A workgroup of 8x8 threads covers 32x32 region pixels (each thread a 4x4 tile, in row order); the reductions' pass 1
// (`partial`, reduce-passes.wgsl) writes one partial per workgroup, pass 2 (`finish`, one workgroup) folds them into result[0].

struct ReduceParams {
  regionMin: vec2i,     // absolute px in A's pixel space
  regionSize: vec2u,
  aMin: vec2i,          // A's data window origin (absolute)
  aSize: vec2i,
  bMin: vec2i,          // B's data window origin in A's pixel space (display-window alignment applied)
  bSize: vec2i,
  valueMode: u32,       // stats: 0 A, 1 B, 2.. difference metric code + 2
  partialCount: u32,    // finish: how many partials pass 1 wrote
  threshold: f32,       // metrics: |A-B| above this counts as differing
  sampleStep: u32,      // histogram-pair: every sampleStep-th pixel each way (the reductions read every pixel)
};

const TILE: u32 = 4u;
const WG_SIDE: u32 = 8u;
const WG_THREADS: u32 = 64u;

@group(0) @binding(0) var<uniform> params: ReduceParams;
@group(0) @binding(1) var texA: texture_2d<f32>;
@group(0) @binding(2) var texB: texture_2d<f32>;

// A layer's value at an absolute pixel: 0 outside its data window.
fn fetchAt(t: texture_2d<f32>, p: vec2i, origin: vec2i, size: vec2i) -> vec4f {
  let q = p - origin;
  if (any(q < vec2i(0)) || any(q >= size)) { return vec4f(0.0); }
  return textureLoad(t, q, 0);
}

fn fetchA(p: vec2i) -> vec4f { return fetchAt(texA, p, params.aMin, params.aSize); }
fn fetchB(p: vec2i) -> vec4f { return fetchAt(texB, p, params.bMin, params.bSize); }
