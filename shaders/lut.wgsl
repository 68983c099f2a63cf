// A loaded .cube LUT on the GPU (group 2, beside the palette): manual trilinear (3D) or linear (1D) interpolation of
// an rgba32float texture_3d, written like applyLut() in lut-apply.ts. Manual because rgba32float is not filterable
// in core WebGPU and hardware filtering weights carry only 8 fractional bits on some GPUs.

struct LutParams {
  domainMin: vec4f,   // xyz
  domainMax: vec4f,   // xyz
  size: u32,          // entries per axis (3D) or in all (1D)
  kind: u32,          // 0 none bound, 1 1D (texture size x 1 x 1), 2 3D
  _pad0: u32,
  _pad1: u32,
};

@group(2) @binding(1) var<uniform> lutParams: LutParams;
@group(2) @binding(2) var lutTexture: texture_3d<f32>;

const LUT_LOG_MIN_EV: f32 = -10.0;
const LUT_LOG_MAX_EV: f32 = 6.5;

fn lutLogShaper(v: vec3f) -> vec3f {
  let ev = log2(max(v, vec3f(exp2(-24.0))) / 0.18);
  return clamp((ev - LUT_LOG_MIN_EV) / (LUT_LOG_MAX_EV - LUT_LOG_MIN_EV), vec3f(0.0), vec3f(1.0));
}

fn lutAt(i: vec3i) -> vec3f { return textureLoad(lutTexture, i, 0).xyz; }

fn applyLut(c: vec3f) -> vec3f {
  let n = i32(lutParams.size);
  let t = clamp((c - lutParams.domainMin.xyz) / (lutParams.domainMax.xyz - lutParams.domainMin.xyz), vec3f(0.0), vec3f(1.0));
  let p = t * f32(n - 1);
  let i = min(vec3i(floor(p)), vec3i(n - 2));
  let f = p - vec3f(i);
  if (lutParams.kind == 1u) {
    let r = mix(lutAt(vec3i(i.x, 0, 0)).x, lutAt(vec3i(i.x + 1, 0, 0)).x, f.x);
    let g = mix(lutAt(vec3i(i.y, 0, 0)).y, lutAt(vec3i(i.y + 1, 0, 0)).y, f.y);
    let b = mix(lutAt(vec3i(i.z, 0, 0)).z, lutAt(vec3i(i.z + 1, 0, 0)).z, f.z);
    return vec3f(r, g, b);
  }
  if (lutParams.kind != 2u) { return c; }
  let c00 = mix(lutAt(i), lutAt(i + vec3i(1, 0, 0)), f.x);
  let c10 = mix(lutAt(i + vec3i(0, 1, 0)), lutAt(i + vec3i(1, 1, 0)), f.x);
  let c01 = mix(lutAt(i + vec3i(0, 0, 1)), lutAt(i + vec3i(1, 0, 1)), f.x);
  let c11 = mix(lutAt(i + vec3i(0, 1, 1)), lutAt(i + vec3i(1, 1, 1)), f.x);
  return mix(mix(c00, c10, f.y), mix(c01, c11, f.y), f.z);
}
