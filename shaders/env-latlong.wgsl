// An environment map as a filterable rgba16float lat-long texture for three.js, drawn from the engine's cached
// rgba32float layer on the GPU (nothing fetched, decoded or uploaded again). A lat-long source is copied; a cube map in
// OpenEXR's layout (six square faces stacked vertically: +X, -X, +Y, -Y, +Z, -Z) is resampled through OpenEXR's
// LatLongMap / CubeMap conventions (ImfEnvmap.cpp). NaN becomes 0 and values clamp to the half range, so one bad
// texel cannot poison the prefiltered environment. Rows come out bottom-up: three.js samples equirect maps with v = 0
// at the nadir, where OpenEXR keeps the zenith in row 0.

struct EnvParams {
  kind: u32,        // 0 lat-long, 1 cube
  faceSizePx: u32,  // cube: size of a face
  _pad0: u32,
  _pad1: u32,
};

@group(0) @binding(0) var<uniform> params: EnvParams;
@group(0) @binding(1) var source: texture_2d<f32>;

const PI: f32 = 3.141592653589793;
const HALF_MAX: f32 = 65504.0;

@vertex
fn vs(@builtin(vertex_index) i: u32) -> @builtin(position) vec4f {
  let p = vec2f(f32((i << 1u) & 2u), f32(i & 2u));
  return vec4f(p * 2.0 - 1.0, 0.0, 1.0);
}

fn clean(c: vec4f) -> vec4f {
  var o = c;
  for (var k = 0; k < 4; k++) {
    let bits = bitcast<u32>(o[k]) & 0x7fffffffu;
    if (bits > 0x7f800000u) { o[k] = 0.0; }
    o[k] = clamp(o[k], -HALF_MAX, HALF_MAX);
  }
  return o;
}

// OpenEXR CubeMap::faceAndPixelPosition then pixelPosition: the stacked-image texel seen in direction d.
fn cubeTexel(d: vec3f, sof: f32) -> vec2f {
  let a = abs(d);
  var face = 0u;
  var pif = vec2f(0.0);
  if (a.x >= a.y && a.x >= a.z) {
    pif = (vec2f(d.y, d.z) / a.x + 1.0) * 0.5 * (sof - 1.0);
    face = select(1u, 0u, d.x > 0.0);
  } else if (a.y >= a.z) {
    pif = (vec2f(d.x, d.z) / a.y + 1.0) * 0.5 * (sof - 1.0);
    face = select(3u, 2u, d.y > 0.0);
  } else {
    pif = (vec2f(d.x, d.y) / a.z + 1.0) * 0.5 * (sof - 1.0);
    face = select(5u, 4u, d.z > 0.0);
  }
  let minY = f32(face) * sof;
  let maxX = sof - 1.0;
  let maxY = minY + sof - 1.0;
  switch (face) {
    case 0u: { return vec2f(pif.y, maxY - pif.x); }
    case 1u: { return vec2f(maxX - pif.y, maxY - pif.x); }
    case 2u: { return vec2f(pif.x, maxY - pif.y); }
    case 3u: { return vec2f(pif.x, minY + pif.y); }
    case 4u: { return vec2f(maxX - pif.x, maxY - pif.y); }
    default: { return vec2f(pif.x, maxY - pif.y); }
  }
}

@fragment
fn fs(@builtin(position) pos: vec4f) -> @location(0) vec4f {
  let rows = i32(textureDimensions(source, 0).y);
  if (params.kind == 0u) {
    return clean(textureLoad(source, vec2i(i32(pos.x), rows - 1 - i32(pos.y)), 0));
  }
  let sof = f32(params.faceSizePx);
  // OpenEXR LatLongMap::latLong(dataWindow, pixel) over a 4 sof x 2 sof output (flipped, as above), then direction()
  let size = vec2f(4.0 * sof, 2.0 * sof);
  let t = (vec2f(pos.x, size.y - pos.y) - 0.5) / max(size - 1.0, vec2f(1.0));
  let latitude = -PI * (t.y - 0.5);
  let longitude = -2.0 * PI * (t.x - 0.5);
  let d = vec3f(sin(longitude) * cos(latitude), sin(latitude), cos(longitude) * cos(latitude));
  let texel = vec2i(round(cubeTexel(d, sof)));
  return clean(textureLoad(source, texel, 0));
}
