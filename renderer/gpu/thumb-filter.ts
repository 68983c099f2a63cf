// Shrinking a thumbnail to its atlas cell without aliasing: an area-weighted box filter in linear light (the host's values are linear). Pure.
import { floatToHalf, halfToFloat } from '../../shaders/tonemap-cpu.js';

export { floatToHalf };

let table: Float32Array | null = null;
function halfTable(): Float32Array {
  table ??= new Float32Array(65536).map((_, h) => halfToFloat(h));
  return table;
}

/** The size that fits (w, h) into a square of `maxSide`, keeping the aspect ratio; never enlarged, at least 1 px. */
export function fitSize(widthPx: number, heightPx: number, maxSide: number): { widthPx: number; heightPx: number } {
  const scale = Math.min(1, maxSide / Math.max(widthPx, heightPx));
  return { widthPx: Math.max(1, Math.round(widthPx * scale)), heightPx: Math.max(1, Math.round(heightPx * scale)) };
}

/** For each output index along one axis: the source indices it covers and their weights (overlap lengths, summing to 1). */
function axisWeights(src: number, dst: number): { first: number; weights: Float64Array }[] {
  const ratio = src / dst;
  const out: { first: number; weights: Float64Array }[] = [];
  for (let d = 0; d < dst; d++) {
    const a = d * ratio,
      b = Math.min(src, (d + 1) * ratio);
    const first = Math.floor(a),
      last = Math.min(src - 1, Math.ceil(b) - 1);
    const weights = new Float64Array(last - first + 1);
    for (let s = first; s <= last; s++) weights[s - first] = (Math.min(b, s + 1) - Math.max(a, s)) / ratio;
    out.push({ first, weights });
  }
  return out;
}

/**
 * Interleaved half RGBA (w × h) averaged down to (dw × dh): every source pixel counts by the area it covers, so detail
 * finer than a cell becomes its mean instead of aliasing. Separable: rows first, then columns, in float.
 */
export function boxDownsampleHalfRgba(
  src: Uint16Array,
  widthPx: number,
  heightPx: number,
  dstWidthPx: number,
  dstHeightPx: number,
): Uint16Array<ArrayBuffer> {
  const lut = halfTable();
  const xs = axisWeights(widthPx, dstWidthPx),
    ys = axisWeights(heightPx, dstHeightPx);
  const rows = new Float32Array(dstWidthPx * heightPx * 4);
  for (let y = 0; y < heightPx; y++) {
    for (let dx = 0; dx < dstWidthPx; dx++) {
      const { first, weights } = xs[dx]!;
      const o = (y * dstWidthPx + dx) * 4;
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let k = 0; k < weights.length; k++) sum += lut[src[(y * widthPx + first + k) * 4 + c]!]! * weights[k]!;
        rows[o + c] = sum;
      }
    }
  }
  const out = new Uint16Array(dstWidthPx * dstHeightPx * 4);
  for (let dy = 0; dy < dstHeightPx; dy++) {
    const { first, weights } = ys[dy]!;
    for (let dx = 0; dx < dstWidthPx; dx++) {
      const o = (dy * dstWidthPx + dx) * 4;
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let k = 0; k < weights.length; k++) sum += rows[((first + k) * dstWidthPx + dx) * 4 + c]! * weights[k]!;
        out[o + c] = floatToHalf(sum);
      }
    }
  }
  return out;
}
