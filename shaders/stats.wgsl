// Statistics per channel of A, B or a difference image over a region: finite count, mean and M2 (Welford per thread,
// Chan's combination across threads and workgroups), min, max, NaN and Inf counts. Mirrors statsReference() in
// compare-reference.ts. Needs compare-core.wgsl and reduce-common.wgsl.

struct StatPartial {
  n: vec4u,
  nan: vec4u,
  inf: vec4u,
  mean: vec4f,
  m2: vec4f,
  lo: vec4f,
  hi: vec4f,
};

const F32_MAX: f32 = 3.402823466e38;

@group(0) @binding(3) var<storage, read_write> partials: array<StatPartial>;
@group(0) @binding(4) var<storage, read_write> result: array<StatPartial>;

var<workgroup> scratch: array<StatPartial, 64>;

fn emptyStat() -> StatPartial {
  var s: StatPartial;
  s.lo = vec4f(F32_MAX);
  s.hi = vec4f(-F32_MAX);
  return s;
}

fn combineStat(a: StatPartial, b: StatPartial) -> StatPartial {
  var s: StatPartial;
  s.n = a.n + b.n; s.nan = a.nan + b.nan; s.inf = a.inf + b.inf;
  s.lo = min(a.lo, b.lo); s.hi = max(a.hi, b.hi);
  for (var c = 0u; c < 4u; c++) {
    if (a.n[c] == 0u) { s.mean[c] = b.mean[c]; s.m2[c] = b.m2[c]; continue; }
    if (b.n[c] == 0u) { s.mean[c] = a.mean[c]; s.m2[c] = a.m2[c]; continue; }
    let na = f32(a.n[c]);
    let nb = f32(b.n[c]);
    let n = na + nb;
    let delta = b.mean[c] - a.mean[c];
    // weighted, not a.mean + delta·nb/n: delta overflows f32 where the means are huge and of opposite sign
    s.mean[c] = a.mean[c] * (na / n) + b.mean[c] * (nb / n);
    s.m2[c] = a.m2[c] + b.m2[c] + delta * delta * (na * (nb / n));
  }
  return s;
}

fn statValue(a: vec4f, b: vec4f) -> vec4f {
  if (params.valueMode == 0u) { return a; }
  if (params.valueMode == 1u) { return b; }
  return differenceVec(params.valueMode - 2u, a, b);
}

fn accumulateStat(s: ptr<function, StatPartial>, p: vec2u) {
  let abs2 = vec2i(p) + params.regionMin;
  let v = statValue(fetchA(abs2), fetchB(abs2));
  for (var c = 0u; c < 4u; c++) {
    let x = v[c];
    if (cmpIsNan(x)) { (*s).nan[c] += 1u; continue; }
    if (cmpIsInf(x)) { (*s).inf[c] += 1u; continue; }
    (*s).n[c] += 1u;
    let n = f32((*s).n[c]);
    let delta = x - (*s).mean[c];
    // mean + x/n − mean/n, not mean + delta/n: delta overflows f32 for huge values of opposite sign
    (*s).mean[c] = (*s).mean[c] - (*s).mean[c] / n + x / n;
    (*s).m2[c] += delta * (x - (*s).mean[c]);
    (*s).lo[c] = min((*s).lo[c], x);
    (*s).hi[c] = max((*s).hi[c], x);
  }
}

@compute @workgroup_size(8, 8)
fn partial(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) li: u32, @builtin(num_workgroups) groups: vec3u) {
  var acc = emptyStat();
  let base = wg.xy * (WG_SIDE * TILE) + lid.xy * TILE;
  for (var dy = 0u; dy < TILE; dy++) {
    for (var dx = 0u; dx < TILE; dx++) {
      let p = base + vec2u(dx, dy);
      if (p.x < params.regionSize.x && p.y < params.regionSize.y) { accumulateStat(&acc, p); }
    }
  }
  scratch[li] = acc;
  workgroupBarrier();
  for (var s = WG_THREADS / 2u; s > 0u; s >>= 1u) {
    if (li < s) { scratch[li] = combineStat(scratch[li], scratch[li + s]); }
    workgroupBarrier();
  }
  if (li == 0u) { partials[wg.y * groups.x + wg.x] = scratch[0]; }
}

@compute @workgroup_size(64)
fn finish(@builtin(local_invocation_index) li: u32) {
  var acc = emptyStat();
  for (var i = li; i < params.partialCount; i += WG_THREADS) { acc = combineStat(acc, partials[i]); }
  scratch[li] = acc;
  workgroupBarrier();
  for (var s = WG_THREADS / 2u; s > 0u; s >>= 1u) {
    if (li < s) { scratch[li] = combineStat(scratch[li], scratch[li + s]); }
    workgroupBarrier();
  }
  if (li == 0u) { result[0] = scratch[0]; }
}
