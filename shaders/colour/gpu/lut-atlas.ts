// Packs a processor's LUT tables into the two textures ocio-luts.wgsl reads: 1D tables in rows of one 2D texture,
// 3D tables stacked along z of one 3D texture (rgba32float: full float precision, alpha unused).
import type { Lut1DOp, Lut3DOp } from '../ops/op.js';

/** Entries per row of the 1D texture (OCIO_LUT1D_ROW in ocio-luts.wgsl); within every device's 2D size limit. */
export const LUT1D_ROW_TEXELS = 4096;

export interface TextureData {
  widthPx: number;
  heightPx: number;
  depthPx: number;
  /** RGBA float32, x fastest. */
  rgba: Float32Array<ArrayBuffer>;
}

/** Where a 1D table starts (entry index into the wrapped rows) and, for an inverse, each channel's sign. */
export interface Lut1DPlacement {
  start: number;
  sign: [number, number, number];
}

export class LutAtlas {
  /** RGB tables (3 values an entry) and RGBA tables (4, from add1dRgba), in texel order. */
  private readonly tables1d: { values: Float32Array; channels: 3 | 4 }[] = [];
  private entries1d = 0;
  private readonly tables3d: { size: number; values: Float32Array }[] = [];
  private depth3d = 0;

  /** Adds a 1D table; an inverse is stored made increasing (reversals flat, negated when it falls), as the search wants. */
  add1d(op: Lut1DOp): Lut1DPlacement {
    const start = this.entries1d;
    const values = Float32Array.from(op.values);
    const sign: [number, number, number] = [1, 1, 1];
    if (op.direction === 'inverse') {
      const n = op.length;
      for (let c = 0; c < 3; c++) {
        const increasing = values[(n - 1) * 3 + c]! >= values[c]!;
        sign[c] = increasing ? 1 : -1;
        for (let k = 0; k < n; k++) values[k * 3 + c] = sign[c]! * values[k * 3 + c]!;
        for (let k = 1; k < n; k++) values[k * 3 + c] = Math.max(values[k * 3 + c]!, values[(k - 1) * 3 + c]!);
      }
    }
    this.tables1d.push({ values, channels: 3 });
    this.entries1d += op.length;
    return { start, sign };
  }

  /** Adds a table of RGBA entries (4 values each, all read by ocioLut1dAt4); returns the entry it starts at. */
  add1dRgba(values: Float32Array): number {
    const start = this.entries1d;
    this.tables1d.push({ values, channels: 4 });
    this.entries1d += values.length / 4;
    return start;
  }

  /** Adds a 3D table; returns the depth at which it starts. */
  add3d(op: Lut3DOp): number {
    const z0 = this.depth3d;
    this.tables3d.push({ size: op.size, values: op.values });
    this.depth3d += op.size;
    return z0;
  }

  texture1d(): TextureData {
    const widthPx = Math.max(1, Math.min(LUT1D_ROW_TEXELS, this.entries1d));
    const heightPx = Math.max(1, Math.ceil(this.entries1d / LUT1D_ROW_TEXELS));
    const rgba = new Float32Array(widthPx * heightPx * 4);
    let at = 0;
    for (const { values, channels } of this.tables1d) {
      if (channels === 4) {
        rgba.set(values, at * 4);
        at += values.length / 4;
      } else {
        for (let k = 0; k < values.length / 3; k++, at++) rgba.set([values[k * 3]!, values[k * 3 + 1]!, values[k * 3 + 2]!, 1], at * 4);
      }
    }
    return { widthPx, heightPx, depthPx: 1, rgba };
  }

  texture3d(): TextureData {
    const side = Math.max(1, ...this.tables3d.map((t) => t.size));
    const depthPx = Math.max(1, this.depth3d);
    const rgba = new Float32Array(side * side * depthPx * 4);
    let z0 = 0;
    for (const { size: n, values } of this.tables3d) {
      // table index (r·n + g)·n + b → texel (b, g, z0 + r)
      for (let r = 0; r < n; r++)
        for (let g = 0; g < n; g++)
          for (let b = 0; b < n; b++) {
            const from = ((r * n + g) * n + b) * 3;
            rgba.set([values[from]!, values[from + 1]!, values[from + 2]!, 1], (((z0 + r) * side + g) * side + b) * 4);
          }
      z0 += n;
    }
    return { widthPx: side, heightPx: side, depthPx, rgba };
  }
}
