// The two passes metrics.wgsl and stats.wgsl share, over the partial each of them defines: `Partial` (an alias of its
// struct), emptyPartial(), combinePartials() (associative: workgroups fold in any order) and accumulatePartial() for one
// region pixel. Needs reduce-common.wgsl.

@group(0) @binding(3) var<storage, read_write> partials: array<Partial>;
@group(0) @binding(4) var<storage, read_write> result: array<Partial>;

var<workgroup> scratch: array<Partial, WG_THREADS>;

// Folds the workgroup's 64 partials into scratch[0] (a tree: each step halves the live threads).
fn foldScratch(li: u32) {
  workgroupBarrier();
  for (var s = WG_THREADS / 2u; s > 0u; s >>= 1u) {
    if (li < s) { scratch[li] = combinePartials(scratch[li], scratch[li + s]); }
    workgroupBarrier();
  }
}

@compute @workgroup_size(8, 8)
fn partial(
  @builtin(workgroup_id) wg: vec3u,
  @builtin(local_invocation_id) lid: vec3u,
  @builtin(local_invocation_index) li: u32,
  @builtin(num_workgroups) groups: vec3u,
) {
  var acc = emptyPartial();
  let base = wg.xy * (WG_SIDE * TILE) + lid.xy * TILE;
  for (var dy = 0u; dy < TILE; dy++) {
    for (var dx = 0u; dx < TILE; dx++) {
      let p = base + vec2u(dx, dy);
      if (p.x < params.regionSize.x && p.y < params.regionSize.y) { accumulatePartial(&acc, p); }
    }
  }
  scratch[li] = acc;
  foldScratch(li);
  if (li == 0u) { partials[wg.y * groups.x + wg.x] = scratch[0]; }
}

@compute @workgroup_size(64)
fn finish(@builtin(local_invocation_index) li: u32) {
  var acc = emptyPartial();
  for (var i = li; i < params.partialCount; i += WG_THREADS) { acc = combinePartials(acc, partials[i]); }
  scratch[li] = acc;
  foldScratch(li);
  if (li == 0u) { result[0] = scratch[0]; }
}
