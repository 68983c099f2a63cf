// Statistics per channel of A, B or a difference image over a region: finite count, mean and M2 (Welford per thread,
// Chan's combination across threads and workgroups), min, max, NaN and Inf counts. Mirrors statsReference() in
// compare-cpu.ts. Needs compare-core.wgsl, reduce-common.wgsl and reduce-passes.wgsl (its two passes run over this partial).

struct StatPartial {
  n: vec4u,
  nan: vec4u,
  inf: vec4u,
  mean: vec4f,
  m2: vec4f,
  lo: vec4f,
  hi: vec4f,
};

alias Partial = StatPartial;

const F32_MAX: f32 = 3.402823466e38;

fn emptyPartial() -> StatPartial {
  var s: StatPartial;
  s.lo = vec4f(F32_MAX);
  s.hi = vec4f(-F32_MAX);
  return s;
}

fn combinePartials(a: StatPartial, b: StatPartial) -> StatPartial {
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

fn accumulatePartial(s: ptr<function, StatPartial>, p: vec2u) {
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
