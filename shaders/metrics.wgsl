// Comparison metrics of A against B per channel: sums of A−B, |A−B| and (A−B)² over finite pairs, the largest |A−B|
// and where (first in row order on ties), differing pixels, NaN/Inf in either. Mirrors metricsReference() in
// compare-cpu.ts. Needs compare-core.wgsl, reduce-common.wgsl and reduce-passes.wgsl (its two passes run over this partial).

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

alias Partial = MetricPartial;

fn emptyPartial() -> MetricPartial {
  var m: MetricPartial;
  m.maxAbs = vec4f(-1.0);
  m.maxAt = vec4u(0xffffffffu);
  m.peak = vec4f(-3.402823466e38);
  return m;
}

fn combinePartials(a: MetricPartial, b: MetricPartial) -> MetricPartial {
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

fn accumulatePartial(m: ptr<function, MetricPartial>, p: vec2u) {
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
