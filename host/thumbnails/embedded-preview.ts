// A file's embedded preview image (OpenEXR's `preview` attribute) as a provisional thumbnail: 8-bit display values back to linear half RGBA.

import { floatToHalf, type PartInfo } from '../../codec/index.js';

// The preview encoding of OpenEXR's tools (exrmakepreview, at exposure 0): x = 2^2.47393 * linear; above 1, a
// logarithmic knee; then v = clamp(84.66 * x^0.4545, 0, 255), truncated. 0.18 comes out as 84, 255 stands for about 5.7.
const PREVIEW_GAIN = 2 ** 2.47393;
const PREVIEW_KNEE = 0.184874;
const PREVIEW_SCALE = 84.66;
const PREVIEW_EXPONENT = 0.4545;

/** The linear value the encoding maps to exactly `v` (before truncation to a byte). */
function linearAt(v: number): number {
  let x = (v / PREVIEW_SCALE) ** (1 / PREVIEW_EXPONENT);
  if (x > 1) x = 1 + (Math.exp((x - 1) * PREVIEW_KNEE) - 1) / PREVIEW_KNEE;
  return x / PREVIEW_GAIN;
}

/**
 * Linear half for each of the 256 preview values: the middle of the range of linear values the byte
 * stands for (0 for 0; 255, which stands for everything from about 5.7 up, at the bottom of its range).
 */
const LINEAR_HALF_OF_BYTE: Uint16Array = Uint16Array.from({ length: 256 }, (_, v) =>
  floatToHalf(v === 0 ? 0 : v === 255 ? linearAt(255) : linearAt(v + 0.5)),
);
/** Alpha is stored linearly: 0..255 for 0..1. */
const ALPHA_HALF_OF_BYTE: Uint16Array = Uint16Array.from({ length: 256 }, (_, v) => floatToHalf(v / 255));

export interface PreviewThumbnail {
  widthPx: number;
  heightPx: number;
  /** Linear half RGBA, interleaved, rows top to bottom. */
  rgbaHalf: ArrayBuffer;
}

/** The first part's preview with a size to show, as linear half RGBA; null when no part has one. */
export function embeddedPreview(parts: readonly PartInfo[]): PreviewThumbnail | null {
  const preview = parts.find((p) => p.preview && p.preview.widthPx > 0 && p.preview.heightPx > 0)?.preview;
  if (!preview) return null;
  const out = new Uint16Array(preview.widthPx * preview.heightPx * 4);
  const rgba = preview.rgba;
  for (let i = 0; i < out.length; i += 4) {
    out[i] = LINEAR_HALF_OF_BYTE[rgba[i]!]!;
    out[i + 1] = LINEAR_HALF_OF_BYTE[rgba[i + 1]!]!;
    out[i + 2] = LINEAR_HALF_OF_BYTE[rgba[i + 2]!]!;
    out[i + 3] = ALPHA_HALF_OF_BYTE[rgba[i + 3]!]!;
  }
  return { widthPx: preview.widthPx, heightPx: preview.heightPx, rgbaHalf: out.buffer };
}

/** The preview byte of a linear value (the encoding the table above undoes): for writing previews, and for tests. */
export function previewByte(linear: number): number {
  let x = PREVIEW_GAIN * Math.max(0, linear);
  if (x > 1) x = 1 + Math.log((x - 1) * PREVIEW_KNEE + 1) / PREVIEW_KNEE;
  return Math.trunc(Math.max(0, Math.min(255, PREVIEW_SCALE * x ** PREVIEW_EXPONENT)));
}
