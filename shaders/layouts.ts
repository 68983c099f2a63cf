// Uniform block layouts (byte offsets mirror the WGSL structs) and the functions that pack them without allocating.
import {
  CHECKER_DARK,
  CHECKER_LIGHT,
  CHECKER_PX,
  FALSE_COLOUR_BOUNDS_EV,
  FALSE_COLOUR_COLOURS,
  channelViewCode,
  displayFlags,
  hdrScale,
  transformCode,
  type DisplayParams,
  OCIO_LUT_MODE,
} from './display-params.js';
import { lutModeCode } from './lut-apply.js';
import type { Lut } from './lut-cube.js';

/** `Display` in tonemap-core.wgsl: 12 words. */
export const DISPLAY_WORDS = 12;
/** `View` in preview.wgsl. */
export const PREVIEW_VIEW_BYTES = 96;
/** `GridView` in grid.wgsl. */
export const GRID_VIEW_BYTES = 64;
/** `Cell` in grid.wgsl: dest + src rects. */
export const GRID_CELL_BYTES = 32;
/** `Palette` in tonemap-core.wgsl. */
export const PALETTE_BYTES = 192;
/** `LutParams` in lut.wgsl. */
export const LUT_PARAMS_BYTES = 48;
/** `Assemble` in assemble.wgsl. */
export const ASSEMBLE_BYTES = 160;

/** A uniform block's CPU copy: one buffer seen as f32, u32 and i32 words. */
export class UniformBlock {
  readonly bytes: ArrayBuffer;
  readonly f32: Float32Array;
  readonly u32: Uint32Array;
  readonly i32: Int32Array;
  constructor(byteLength: number) {
    this.bytes = new ArrayBuffer(byteLength);
    this.f32 = new Float32Array(this.bytes);
    this.u32 = new Uint32Array(this.bytes);
    this.i32 = new Int32Array(this.bytes);
  }
}

export function packDisplay(block: UniformBlock, word: number, p: DisplayParams): void {
  block.f32[word] = Math.pow(2, p.exposureEv);
  block.f32[word + 1] = p.offset;
  block.f32[word + 2] = p.gamma > 0 ? 1 / p.gamma : 1;
  block.u32[word + 3] = transformCode(p.transform);
  block.u32[word + 4] = channelViewCode(p.channelView);
  block.u32[word + 5] = displayFlags(p);
  block.u32[word + 6] = p.ocio ? OCIO_LUT_MODE : lutModeCode(p.lut);
  block.u32[word + 7] = p.hdr ? HDR_ON | (p.hdr.rollOff ? HDR_ROLL_OFF : 0) : 0;
  const h = p.hdr ? hdrScale(p.hdr) : { scale: 1, headroom: 1 };
  block.f32[word + 8] = h.scale;
  block.f32[word + 9] = h.headroom;
  block.u32[word + 10] = 0;
  block.u32[word + 11] = 0;
}

/** Bits of the `hdr` word of Display. */
export const HDR_ON = 1;
export const HDR_ROLL_OFF = 2;

export interface PreviewGeometry {
  /** Canvas px of the data window's top-left corner. */
  originXPx: number;
  originYPx: number;
  /** Image px per canvas px: 1 at 1:1, 0.25 at 400 %. */
  texelsPerPx: number;
  levelCount: number;
  widthPx: number;
  heightPx: number;
  /** Display window relative to the data window origin: min inclusive, max exclusive, image px. */
  displayMinX: number;
  displayMinY: number;
  displayMaxX: number;
  displayMaxY: number;
  background: number;
  /** FLAG_NEAREST | FLAG_PIXEL_GRID | FLAG_OUTLINES. */
  viewFlags: number;
}

export function packPreviewView(block: UniformBlock, p: DisplayParams, g: PreviewGeometry): void {
  packDisplay(block, 0, p);
  const f = block.f32;
  const o = DISPLAY_WORDS;
  f[o] = g.originXPx;
  f[o + 1] = g.originYPx;
  f[o + 2] = g.texelsPerPx;
  f[o + 3] = g.levelCount;
  f[o + 4] = g.widthPx;
  f[o + 5] = g.heightPx;
  f[o + 6] = g.displayMinX;
  f[o + 7] = g.displayMinY;
  f[o + 8] = g.displayMaxX;
  f[o + 9] = g.displayMaxY;
  f[o + 10] = g.background;
  block.u32[o + 11] = g.viewFlags;
}

export function packGridView(
  block: UniformBlock,
  p: DisplayParams,
  canvasWidthPx: number,
  canvasHeightPx: number,
  background: number,
): void {
  packDisplay(block, 0, p);
  const o = DISPLAY_WORDS;
  block.f32[o] = canvasWidthPx;
  block.f32[o + 1] = canvasHeightPx;
  block.f32[o + 2] = background;
  block.f32[o + 3] = 0;
}

export function packPalette(block: UniformBlock): void {
  FALSE_COLOUR_BOUNDS_EV.forEach((b, i) => {
    block.f32[i] = b;
  });
  FALSE_COLOUR_COLOURS.forEach((c, i) => {
    block.f32.set([c[0], c[1], c[2], 1], 8 + i * 4);
  });
  block.f32.set([CHECKER_DARK, CHECKER_LIGHT, CHECKER_PX, 0], 44);
}

export interface AssembleSlot {
  kind: 'constant' | 'float' | 'uint';
  xSampling: number;
  ySampling: number;
  constant: number;
}

export type AssembleMode = 'direct' | 'yc' | 'y';

export function packAssemble(
  block: UniformBlock,
  slots: readonly AssembleSlot[],
  originX: number,
  originY: number,
  widthPx: number,
  heightPx: number,
  mode: AssembleMode,
): void {
  for (let k = 0; k < 4; k++) {
    const s = slots[k] ?? { kind: 'constant', xSampling: 1, ySampling: 1, constant: k === 3 ? 1 : 0 };
    const w = k * 8;
    block.u32[w] = s.kind === 'constant' ? 0 : s.kind === 'float' ? 1 : 2;
    block.i32[w + 1] = s.xSampling;
    block.i32[w + 2] = s.ySampling;
    block.f32[w + 3] = s.constant;
    block.i32[w + 4] = Math.ceil(originX / s.xSampling);
    block.i32[w + 5] = Math.ceil(originY / s.ySampling);
    block.u32[w + 6] = 0;
    block.u32[w + 7] = 0;
  }
  block.i32[32] = originX;
  block.i32[33] = originY;
  block.u32[34] = widthPx;
  block.u32[35] = heightPx;
  block.u32[36] = mode === 'direct' ? 0 : mode === 'yc' ? 1 : 2;
}

/** LutParams for `lut` (null: nothing bound, the shader passes colours through). */
export function packLutParams(block: UniformBlock, lut: Lut | null): void {
  block.f32.set(lut ? [...lut.domainMin, 0, ...lut.domainMax, 0] : [0, 0, 0, 0, 1, 1, 1, 0], 0);
  block.u32[8] = lut ? lut.size : 2;
  block.u32[9] = lut ? (lut.kind === '1d' ? 1 : 2) : 0;
  block.u32[10] = 0;
  block.u32[11] = 0;
}
