// Comparison metrics of A against B per channel: sums of A−B, |A−B| and (A−B)² over finite pairs, the largest |A−B|
// and where (first in row order on ties), differing pixels, NaN/Inf in either. Mirrors metricsReference() in
// compare-reference.ts. Needs compare-core.wgsl and reduce-common.wgsl.

struct MetricPartial {
  n: vec4u,
  nanA: vec4u,
  infA: vec4u,
  nanB: vec4u,
  infB: vec4u,
  differ: vec4u,
  maxAt: vec4u,
  sum: vec4f,
  sumAbs: vec4f,
  sumSq: vec4f,
  maxAbs: vec4f,
  pixelsDiffer: vec4u,  // x: pixels where any channel differs
  peak: vec4f,          // largest value of A or B over finite pairs (oiiotool's PSNR peak, with 1)
};

@group(0) @binding(3) var<storage, read_write> partials: array<MetricPartial>;
@group(0) @binding(4) var<storage, read_write> result: array<MetricPartial>;

var<workgroup> scratch: array<MetricPartial, 64>;

fn emptyMetric() -> MetricPartial {
  var m: MetricPartial;
  m.maxAbs = vec4f(-1.0);
  m.maxAt = vec4u(0xffffffffu);
  m.peak = vec4f(-3.402823466e38);
  return m;
}

fn combineMetric(a: MetricPartial, b: MetricPartial) -> MetricPartial {
  var m: MetricPartial;
  m.n = a.n + b.n; m.nanA = a.nanA + b.nanA; m.infA = a.infA + b.infA; m.nanB = a.nanB + b.nanB; m.infB = a.infB + b.infB;
  m.differ = a.differ + b.differ; m.pixelsDiffer = a.pixelsDiffer + b.pixelsDiffer;
  m.sum = a.sum + b.sum; m.sumAbs = a.sumAbs + b.sumAbs; m.sumSq = a.sumSq + b.sumSq;
  let takeB = (b.maxAbs > a.maxAbs) | ((b.maxAbs == a.maxAbs) & (b.maxAt < a.maxAt));
  m.maxAbs = select(a.maxAbs, b.maxAbs, takeB);
  m.maxAt = select(a.maxAt, b.maxAt, takeB);
  m.peak = max(a.peak, b.peak);
  return m;
}

fn accumulateMetric(m: ptr<function, MetricPartial>, p: vec2u) {
  let abs2 = vec2i(p) + params.regionMin;
  let a = fetchA(abs2);
  let b = fetchB(abs2);
  let index = p.y * params.regionSize.x + p.x;
  var anyDiff = false;
  for (var c = 0u; c < 4u; c++) {
    let va = a[c];
    let vb = b[c];
    if (cmpIsNan(va)) { (*m).nanA[c] += 1u; } else if (cmpIsInf(va)) { (*m).infA[c] += 1u; }
    if (cmpIsNan(vb)) { (*m).nanB[c] += 1u; } else if (cmpIsInf(vb)) { (*m).infB[c] += 1u; }
    if (cmpFinite(va) && cmpFinite(vb)) {
      let d = va - vb;
      let ad = abs(d);
      (*m).n[c] += 1u;
      (*m).sum[c] += d;
      (*m).sumAbs[c] += ad;
      (*m).sumSq[c] += d * d;
      (*m).peak[c] = max((*m).peak[c], max(va, vb));
      if (ad > (*m).maxAbs[c]) { (*m).maxAbs[c] = ad; (*m).maxAt[c] = index; }
      if (ad > params.threshold) { (*m).differ[c] += 1u; anyDiff = true; }
    } else {
      let same = (cmpIsNan(va) && cmpIsNan(vb)) || (!cmpIsNan(va) && !cmpIsNan(vb) && va == vb);
      if (!same) { (*m).differ[c] += 1u; anyDiff = true; }
    }
  }
  if (anyDiff) { (*m).pixelsDiffer.x += 1u; }
}

@compute @workgroup_size(8, 8)
fn partial(@builtin(workgroup_id) wg: vec3u, @builtin(local_invocation_id) lid: vec3u, @builtin(local_invocation_index) li: u32, @builtin(num_workgroups) groups: vec3u) {
  var acc = emptyMetric();
  let base = wg.xy * (WG_SIDE * TILE) + lid.xy * TILE;
  for (var dy = 0u; dy < TILE; dy++) {
    for (var dx = 0u; dx < TILE; dx++) {
      let p = base + vec2u(dx, dy);
      if (p.x < params.regionSize.x && p.y < params.regionSize.y) { accumulateMetric(&acc, p); }
    }
  }
  scratch[li] = acc;
  workgroupBarrier();
  for (var s = WG_THREADS / 2u; s > 0u; s >>= 1u) {
    if (li < s) { scratch[li] = combineMetric(scratch[li], scratch[li + s]); }
    workgroupBarrier();
  }
  if (li == 0u) { partials[wg.y * groups.x + wg.x] = scratch[0]; }
}

@compute @workgroup_size(64)
fn finish(@builtin(local_invocation_index) li: u32) {
  var acc = emptyMetric();
  for (var i = li; i < params.partialCount; i += WG_THREADS) { acc = combineMetric(acc, partials[i]); }
  scratch[li] = acc;
  workgroupBarrier();
  for (var s = WG_THREADS / 2u; s > 0u; s >>= 1u) {
    if (li < s) { scratch[li] = combineMetric(scratch[li], scratch[li + s]); }
    workgroupBarrier();
  }
  if (li == 0u) { result[0] = scratch[0]; }
}
