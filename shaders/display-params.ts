// The display parameters shared by the GPU tone-map, its CPU reference and the host's export: names and numeric codes.
import type { LutApplication } from './lut-apply.js';
import type { Op } from './colour/ops/op.js';

export const DISPLAY_TRANSFORMS = ['linear', 'srgb', 'rec709', 'aces', 'agx', 'pbr-neutral', 'reinhard'] as const;
export type DisplayTransform = (typeof DISPLAY_TRANSFORMS)[number];

/** What the tone-map shows of the assembled RGBA: codes match the WGSL `CH_*` constants. */
export const CHANNEL_VIEWS = ['rgb', 'rgba', 'r', 'g', 'b', 'a', 'luminance'] as const;
export type ChannelView = (typeof CHANNEL_VIEWS)[number];

export interface DisplayParams {
  exposureEv: number;
  offset: number;
  /** Display gamma applied after the transform's encoding: out^(1/gamma); 1 leaves it alone. */
  gamma: number;
  transform: DisplayTransform;
  channelView: ChannelView;
  falseColour: boolean;
  /** Over (any exposed channel >= 1) in red, under (all <= 0) in blue. */
  clipping: boolean;
  /** NaN in magenta, ±Inf in cyan; when off NaN counts as 0 and ±Inf as ±EXPOSED_LIMIT. */
  nanInf: boolean;
  /** A loaded .cube LUT and where it applies; absent or null: none. */
  lut?: LutApplication | null;
  /** HDR display output (an extended-range rgba16float canvas); absent or null: SDR. */
  hdr?: HdrOutput | null;
  /** An OpenColorIO processor (image colour space → display/view) that replaces the view transform; absent or null: none. */
  ocio?: OcioDisplay | null;
}

/** The OCIO processor a view shows through: its ops (the CPU path) and the key of its GPU build. */
export interface OcioDisplay {
  ops: readonly Op[];
  /** The GPU processor's key (shaders/colour/gpu): the tone-map pipelines are cached by it. */
  key: string;
}

/** The `lutMode` code of the OCIO processor in the Display uniform (1-3 are the .cube shapers). */
export const OCIO_LUT_MODE = 4;

/**
 * Scene-referred HDR output: exposed linear 1.0 is shown at `paperWhiteNits`, values above 1 are not clamped; with
 * `rollOff` highlights ease into the display's peak instead of clipping there. The browser maps canvas value 1.0 to
 * the system's SDR white, which the web does not report: SDR_WHITE_NITS (BT.2408 graphics white) stands for it.
 */
export interface HdrOutput {
  paperWhiteNits: number;
  peakNits: number;
  rollOff: boolean;
}

export const SDR_WHITE_NITS = 203;
export const DEFAULT_HDR: HdrOutput = { paperWhiteNits: 203, peakNits: 1000, rollOff: true };

/** Canvas value of exposed linear 1.0, and the largest canvas value the display shows (its headroom). */
export function hdrScale(h: HdrOutput): { scale: number; headroom: number } {
  const scale = Math.max(h.paperWhiteNits, 1) / SDR_WHITE_NITS;
  return { scale, headroom: Math.max(h.peakNits / SDR_WHITE_NITS, scale, 1) };
}

export const DEFAULT_DISPLAY: DisplayParams = {
  exposureEv: 0,
  offset: 0,
  gamma: 1,
  transform: 'srgb',
  channelView: 'rgb',
  falseColour: false,
  clipping: false,
  nanInf: true,
};

export function transformCode(t: DisplayTransform): number {
  return DISPLAY_TRANSFORMS.indexOf(t);
}
export function channelViewCode(c: ChannelView): number {
  return CHANNEL_VIEWS.indexOf(c);
}

/** Flag bits of the `flags` word of the view uniform. */
export const FLAG_FALSE_COLOUR = 1;
export const FLAG_CLIPPING = 2;
export const FLAG_NAN_INF = 4;
export const FLAG_NEAREST = 8;
export const FLAG_PIXEL_GRID = 16;
export const FLAG_OUTLINES = 32;

export function displayFlags(p: DisplayParams): number {
  return (p.falseColour ? FLAG_FALSE_COLOUR : 0) | (p.clipping ? FLAG_CLIPPING : 0) | (p.nanInf ? FLAG_NAN_INF : 0);
}

/** Exposed values are clamped to ±this before any transform, so f32 (GPU) and f64 (CPU) agree on huge inputs. */
export const EXPOSED_LIMIT = 1e9;
/** Checkerboard behind RGBA: square size in canvas pixels and the two greys (display-encoded). */
export const CHECKER_PX = 8;
export const CHECKER_DARK = 0.35;
export const CHECKER_LIGHT = 0.55;
export const NAN_COLOUR: readonly [number, number, number] = [1, 0, 1];
export const INF_COLOUR: readonly [number, number, number] = [0, 1, 1];
export const OVER_COLOUR: readonly [number, number, number] = [1, 0, 0];
export const UNDER_COLOUR: readonly [number, number, number] = [0, 0, 1];

/** False colour: EV zones of luminance relative to 18 % grey; zone i covers [bounds[i-1], bounds[i]). */
export const FALSE_COLOUR_BOUNDS_EV = [-6, -4, -2, -0.5, 0.5, 2, 4, 6] as const;
export const FALSE_COLOUR_COLOURS: readonly (readonly [number, number, number])[] = [
  [0.1, 0, 0.2], // below -6 EV (and zero or negative luminance)
  [0, 0, 1],
  [0, 0.6, 1],
  [0, 0.7, 0.3],
  [0.5, 0.5, 0.5], // middle grey ±0.5 EV
  [0.6, 0.9, 0.2],
  [1, 1, 0],
  [1, 0.5, 0],
  [1, 0, 0], // above +6 EV
];

/** Histogram: bins over log2(value) in [HIST_MIN_LOG2, HIST_MAX_LOG2); values <= 0 and below the range go to bin 0. */
export const HIST_BINS = 256;
export const HIST_MIN_LOG2 = -16;
export const HIST_MAX_LOG2 = 16;
/** Histograms sample about this many pixels along an image's long side (a small MIP level, or a stride): cheap, and plenty. */
export const HIST_SAMPLE_MAX_PX = 512;
/** Rec.709 luminance weights. */
export const LUMA: readonly [number, number, number] = [0.2126, 0.7152, 0.0722];
