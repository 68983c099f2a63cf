// Level 0 reduced to fit a page that cannot show it whole: which power of two, the file's own MIP level when it has
// one, else a box filter of the decoded level (each reduced sample the mean of the N×N it covers).
import { PIXEL_TYPE_BYTES } from '../../codec/index.js';
import type { BoxTuple, DecodedPlane, FitWithin, MissingRegions, PartSummary, ReducedLevel } from '../../contract/host-api.js';
import type { LevelImage } from '../decode/levels.js';
import { boxFilterRows } from '../decode/box-filter.js';
import { planeView } from '../decode/layout.js';

/** Over this factor a reduction is refused: the page's limits would make a picture of a few pixels. */
const MAX_FACTOR = 1 << 12;

/** The reduction level 0 of `widthPx` × `heightPx` needs to fit, or null when it fits whole. */
export function reductionFor(
  widthPx: number,
  heightPx: number,
  fit: FitWithin,
): Pick<ReducedLevel, 'factor' | 'over' | 'limit' | 'fullWidthPx' | 'fullHeightPx'> | null {
  const fits = (n: number): boolean => {
    const w = Math.ceil(widthPx / n),
      h = Math.ceil(heightPx / n);
    return w <= fit.maxSidePx && h <= fit.maxSidePx && w * h <= fit.maxPixels;
  };
  if (fits(1)) return null;
  let factor = 2;
  while (!fits(factor)) {
    if (factor >= MAX_FACTOR)
      throw new Error(`${widthPx}×${heightPx} px cannot be reduced to fit ${fit.maxSidePx} px and ${fit.maxPixels} pixels`);
    factor *= 2;
  }
  const overSide = Math.max(widthPx, heightPx) > fit.maxSidePx;
  return {
    factor,
    over: overSide ? 'side' : 'pixels',
    limit: overSide ? fit.maxSidePx : fit.maxPixels,
    fullWidthPx: widthPx,
    fullHeightPx: heightPx,
  };
}

/** The file's own level reduced by `factor` (lx = ly), when its part has MIP (or RIP) levels down that far. */
export function fileLevelFor(part: PartSummary, factor: number): number | null {
  const level = Math.log2(factor);
  if (part.levelMode !== 'mipmapLevels' && part.levelMode !== 'ripmapLevels') return null;
  if (level >= part.levelCount) return null;
  // a RIP map counts x levels: its y levels stop where the height does
  const heightPx = part.dataWindow[3] - part.dataWindow[1] + 1;
  return part.levelMode === 'ripmapLevels' && 2 ** level > heightPx ? null : level;
}

/** A box of level 0 (absolute, inclusive) in the reduced level's pixels. */
export function reducedBox(box: BoxTuple, factor: number): BoxTuple {
  return [Math.floor(box[0] / factor), Math.floor(box[1] / factor), Math.floor(box[2] / factor), Math.floor(box[3] / factor)];
}

/** Windows and missing regions of a level read as the reduced level of `factor` (its data window `widthPx` × `heightPx`). */
export function reducedWindows(
  image: Pick<LevelImage, 'dataWindow' | 'displayWindow' | 'missing'>,
  factor: number,
  widthPx: number,
  heightPx: number,
): Pick<LevelImage, 'dataWindow' | 'displayWindow' | 'missing'> {
  const x0 = Math.floor(image.dataWindow[0] / factor),
    y0 = Math.floor(image.dataWindow[1] / factor);
  const missing: MissingRegions | undefined = image.missing && {
    ...image.missing,
    regions: image.missing.regions.map((b) => reducedBox(b, factor)),
  };
  return {
    dataWindow: [x0, y0, x0 + widthPx - 1, y0 + heightPx - 1],
    displayWindow: reducedBox(image.displayWindow, factor),
    ...(missing ? { missing } : {}),
  };
}

/** A plane box-filtered by `factor` into a new plane of exactly its size (uint samples take their box's first). */
export function boxFilterPlane(plane: DecodedPlane, factor: number): DecodedPlane {
  const inW = plane.widthSamples,
    inH = plane.heightSamples;
  const outW = Math.ceil(inW / factor),
    outH = Math.ceil(inH / factor);
  const src = planeView(plane.pixelType, plane.data, inW * inH);
  const data = planeView(plane.pixelType, new ArrayBuffer(outW * outH * PIXEL_TYPE_BYTES[plane.pixelType]), outW * outH);
  boxFilterRows(plane.pixelType, src, inW, inH, [{ factor, data, firstRow: 0 }]);
  return { ...plane, widthSamples: outW, heightSamples: outH, data: data.buffer as ArrayBuffer };
}
