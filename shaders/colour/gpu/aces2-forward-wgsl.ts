// The ACES 2.0 output transform's forward direction as WGSL (the preview's): transform.ts's steps, analytic, with logs
// shared and quotients folded into few reciprocals; the shared functions and the inverse are in aces2-wgsl.ts.

/** The forward functions (WGSL), after ACES2_WGSL's shared ones. */
export const ACES2_FORWARD_WGSL = /* wgsl */ `
// The forward tone scale of the achromatic response A > 0, analytic as OCIO's: Y straight from A (no J → A), the tone
// scale's pow and the post-adaptation compression's 0.42 in one exp2, then J' from A'. Returns (Jts, (Jts / J)^(1/γ),
// (Jts / J max)^(1/γ), √((Jts / J max)² + sat threshold)); the powers are A' / A and A' / A(J max), 1/γ being 1/cz.
fn aces2ToneFwd(A: f32, p: Aces2Params) -> vec4f {
  let ra = clamp(p.inCam.awJ * A, OCIO_FLT_MIN, 0.99);
  // log2 of Y·F_L = (27.13 ra / (1 - ra))^(1/0.42)
  let log2Y = (log2(ACES2_NL_OFFSET * ra) - log2(1.0 - ra)) * (1.0 / 0.42);
  // log2 f = log2 m2 + g log2(Y / (Y + s2))
  let log2F = p.log2M2 + p.g * (log2Y - log2(exp2(log2Y) + p.s2FlN));
  // (Y_ts·F_L)^0.42 with Y_ts = 100 f² / (f + t1)
  let q = exp2(0.42 * (p.log2FlNR + 2.0 * log2F - log2(exp2(log2F) + p.t1)));
  // A' = q / (27.13 + q) / A_w,J; one reciprocal gives A' and A' / A
  let r = p.inCam.invAwJ * q / ((ACES2_NL_OFFSET + q) * A);
  let aTs = r * A;
  let Jts = 100.0 * exp2(p.inCam.cz * log2(max(aTs, OCIO_FLT_MIN)));
  let nJ = Jts * p.invLimitJMax;
  return vec4f(Jts, r, aTs * p.invAJMax, sqrt(nJ * nJ + p.satThr));
}

// the toe with its k1, k2, k3 worked out: branch-free, as its caller has the k3s from one reciprocal
fn aces2ToeFwdK(x: f32, limit: f32, k1: f32, k2: f32, k3: f32) -> f32 {
  let minusB = k3 * x - k1;
  return select(0.5 * (minusB + sqrt(minusB * minusB + 4.0 * k2 * k3 * x)), x, x > limit);
}
// aces2Chroma forward with the tone scale's powers of Jts; the two toes' k3 quotients share one reciprocal
fn aces2ChromaFwd(M: f32, tone: vec4f, mNorm: f32, reachM: f32, p: Aces2Params) -> f32 {
  if (M == 0.0) { return M; }
  let nJ = tone.x * p.invLimitJMax;
  let snJ = max(0.0, 1.0 - nJ);
  let invNorm = 1.0 / mNorm;
  let limit = tone.z * reachM * invNorm;
  let limitSat = limit - 0.001;
  let satK1In = snJ * p.sat;
  let satK2 = max(tone.w, 0.001);
  let satK1 = sqrt(satK1In * satK1In + satK2 * satK2);
  let comprK1In = nJ * p.compr;
  let comprK2 = max(snJ, 0.001);
  let comprK1 = sqrt(comprK1In * comprK1In + comprK2 * comprK2);
  let r = 1.0 / ((limitSat + satK2) * (limit + comprK2));
  let satK3 = (limitSat + satK1) * (limit + comprK2) * r;
  let comprK3 = (limit + comprK1) * (limitSat + satK2) * r;
  var m = M * tone.y * invNorm;
  m = limit - aces2ToeFwdK(limit - m, limitSat, satK1, satK2, satK3);
  m = aces2ToeFwdK(m, limit, comprK1, comprK2, comprK3);
  return m * mNorm;
}

// -2c and b ± √(b² - 4ac) of aces2SolveJ: the caller divides, two solves sharing a reciprocal
fn aces2SolveJParts(J: f32, M: f32, focusJ: f32, invFocusJ: f32, maxJ: f32, invGain: f32) -> vec2f {
  let mScaled = M * invGain;
  let a = mScaled * invFocusJ;
  let below = J < focusJ;
  let b = select(-(1.0 + mScaled + maxJ * a), 1.0 - mScaled, below);
  let c = select(maxJ * mScaled + J, -J, below);
  let root = sqrt(b * b - 4.0 * a * c);
  return vec2f(-2.0 * c, b + select(-root, root, below));
}
// threshold + scale nd / (1 + nd) with scale = R G / (R - G) and nd = X / scale is threshold + X R G / (R G + X (R - G))
fn aces2RemapFwd(M: f32, gamutM: f32, reachM: f32) -> f32 {
  let proportion = max(gamutM / reachM, 0.75);
  let threshold = proportion * gamutM;
  if (M <= threshold || proportion >= 1.0) { return M; }
  let R = reachM - threshold;
  let G = gamutM - threshold;
  let X = M - threshold;
  return threshold + X * R * G / (R * G + X * (R - G));
}
// aces2CompressGamut forward. The hull lines jRef (jAxis / jRef)^γ are exp2(γ log2 jAxis + (1 - γ) log2 jRef), the
// reach line sharing log2 jSource; the lines' quotients and the smooth minimum's 1 / s share one reciprocal.
fn aces2GamutFwd(jmh: vec3f, reachM: f32, hg: Aces2Hue, p: Aces2Params) -> vec3f {
  let J = jmh.x;
  let M = jmh.y;
  if (J <= 0.0) { return vec3f(0.0, 0.0, jmh.z); }
  if (M <= 0.0 || J > p.limitJMax) { return vec3f(J, 0.0, jmh.z); }
  let gain = aces2FocusGain(J, hg.threshold, p);
  let r0 = 1.0 / (gain * hg.focusJ);
  let invGain = hg.focusJ * r0;
  let invFocusJ = gain * r0;
  let source = aces2SolveJParts(J, M, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let cusp = aces2SolveJParts(hg.cuspJ, hg.cuspM, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let r1 = 1.0 / (source.y * cusp.y);
  let jSource = source.x * cusp.y * r1;
  let jCusp = cusp.x * source.y * r1;
  let slope = aces2Slope(jSource, hg.focusJ, invFocusJ, p.limitJMax, invGain);
  let log2Source = log2(jSource);
  let lowerN = hg.cuspM * exp2(p.lowerHullGammaInv * log2Source + (1.0 - p.lowerHullGammaInv) * log2(jCusp));
  let upperN = hg.cuspM * exp2(hg.gammaTopInv * log2(max(p.limitJMax - jSource, OCIO_FLT_MIN)) +
    (1.0 - hg.gammaTopInv) * log2(max(p.limitJMax - jCusp, OCIO_FLT_MIN)));
  let lowerD = hg.cuspJ - slope * hg.cuspM;
  let upperD = p.limitJMax - hg.cuspJ + slope * hg.cuspM;
  let s = 0.12 * hg.cuspM;
  let r2 = 1.0 / (lowerD * upperD * s);
  let lower = lowerN * upperD * s * r2;
  let upper = upperN * lowerD * s * r2;
  let invS = lowerD * upperD * r2;
  let over = max(s - abs(lower - upper), 0.0);
  let gamutM = min(lower, upper) - over * over * over * invS * invS * (1.0 / 6.0);
  if (gamutM <= 0.0) { return vec3f(J, 0.0, jmh.z); }
  // the remap leaves M up to at least 0.75 of the gamut's M as it is: no need of the reach boundary there
  var remapped = M;
  if (M > 0.75 * gamutM) {
    let reachBoundary = exp2(p.modelGammaInv * log2Source + p.log2JMaxRest) * reachM / (p.limitJMax - slope * reachM);
    remapped = aces2RemapFwd(M, gamutM, reachBoundary);
  }
  return vec3f(jSource + remapped * slope, remapped, jmh.z);
}

fn aces2OutputForward(rgb: vec3f, p: Aces2Params) -> vec3f {
  let aab = aces2RgbToAab(rgb, p.inCam);
  // no light: J, M and the tonescaled J are 0, and so is the output (as the CPU's steps come out)
  if (aab.x <= 0.0) { return vec3f(0.0); }
  let tone = aces2ToneFwd(aab.x, p);
  let neutral = aab.y == 0.0 && aab.z == 0.0;
  let h = aces2WrapHalfTurns(select(aces2Atan2(aab.z, aab.y), 0.0, neutral) * ACES2_DEGREES_PER_RADIAN);
  let hg = aces2HueGamut(h, p);
  // M and 1 / M from one inverse square root; cos h and sin h are a / M and b / M (no trig: the CPU's cos and sin of the
  // wrapped degrees agree to f32 rounding). Where a² + b² underflows M is 0, and its hue moves nothing.
  let mm = aab.y * aab.y + aab.z * aab.z;
  let invM = select(inverseSqrt(mm), 0.0, mm == 0.0);
  let M = mm * invM;
  let cosH = select(aab.y * invM, 1.0, neutral);
  let sinH = aab.z * invM;
  let reachM = aces2ReachM(h, p);
  let mNorm = aces2ChromaNorm(cosH, sinH, p.scale);
  let toned = vec3f(tone.x, aces2ChromaFwd(M, tone, mNorm, reachM, p), h);
  return aces2FromJMh(aces2GamutFwd(toned, reachM, hg, p), cosH, sinH, p.outCam);
}
`;
