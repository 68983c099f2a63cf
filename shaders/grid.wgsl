// The thumbnail grid: every visible thumbnail in one instanced draw from one rgba16float atlas, tone-mapped like the preview.

struct GridView {
  display: Display,
  canvasSize: vec2f,
  background: f32,
  _pad: f32,
};

// One visible thumbnail: destination rect in canvas px, source rect in atlas texels.
struct Cell {
  dest: vec4f,  // x, y, w, h
  src: vec4f,   // x, y, w, h
};

@group(0) @binding(0) var<uniform> view: GridView;
@group(0) @binding(1) var<storage, read> cells: array<Cell>;
@group(1) @binding(0) var atlas: texture_2d<f32>;
@group(2) @binding(0) var<uniform> palette: Palette;

struct VOut {
  @builtin(position) pos: vec4f,
  @location(0) @interpolate(flat) cell: u32,
};

@vertex
fn vs(@builtin(vertex_index) v: u32, @builtin(instance_index) inst: u32) -> VOut {
  let corner = vec2f(f32(v & 1u), f32((v >> 1u) & 1u));
  let d = cells[inst].dest;
  let p = d.xy + corner * d.zw;
  var out: VOut;
  out.pos = vec4f(p.x / view.canvasSize.x * 2.0 - 1.0, 1.0 - p.y / view.canvasSize.y * 2.0, 0.0, 1.0);
  out.cell = inst;
  return out;
}

@fragment
fn fs(in: VOut) -> @location(0) vec4f {
  let c = cells[in.cell];
  let t = (in.pos.xy - c.dest.xy) / c.dest.zw;
  let texel = vec2i(floor(c.src.xy + clamp(t, vec2f(0.0), vec2f(0.9999)) * c.src.zw));
  let raw = textureLoad(atlas, texel, 0);
  return vec4f(toneMapPixel(raw, floor(in.pos.xy), view.display), 1.0);
}
