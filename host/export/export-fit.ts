// How large an image export encodes: level 0 where it fits the encoder and the host's memory for an export, else the
// largest reduced level that does (the file's own MIP level, or level 0 box-filtered as it streams), said in the result.
import { PIXEL_TYPE_BYTES } from '../../codec/index.js';
import type { FitWithin, PartSummary, ReducedLevel } from '../../contract/host-api.js';

/** libvips' default input limit, which sharp keeps: 0x3FFF × 0x3FFF pixels. */
export const ENCODER_MAX_PIXELS = 0x3fff * 0x3fff;
/** JPEG's largest side; PNG's is larger, but one limit keeps both formats' exports the same size. */
export const ENCODER_MAX_SIDE_PX = 65535;
/** Bytes an 8-bit export holds per pixel besides the decoded planes: the assembled RGBA (float, worst case), RGBA8, the encoder's copy. */
const WORKING_BYTES_PER_PX = 16 + 4 + 4;

/** The fit an export of this part asks its decode for, or null when level 0 is encoded whole. */
export function exportFit(part: PartSummary, channels: readonly string[], memoryBytes: number): FitWithin | null {
  const [x0, y0, x1, y1] = part.dataWindow;
  const widthPx = x1 - x0 + 1,
    heightPx = y1 - y0 + 1;
  const planeBytes = part.channels.filter((c) => channels.includes(c.name)).reduce((n, c) => n + PIXEL_TYPE_BYTES[c.pixelType], 0);
  const memoryPixels = Math.floor(memoryBytes / (planeBytes + WORKING_BYTES_PER_PX));
  const maxPixels = Math.min(ENCODER_MAX_PIXELS, memoryPixels);
  if (widthPx * heightPx <= maxPixels && Math.max(widthPx, heightPx) <= ENCODER_MAX_SIDE_PX) return null;
  return { maxSidePx: ENCODER_MAX_SIDE_PX, maxPixels };
}

/** What the result says of an export written reduced: its size against level 0's, and why. */
export function reducedExportNote(reduced: ReducedLevel, widthPx: number, heightPx: number, memoryBytes: number): string {
  const how = reduced.from === 'mip-level' ? "the file's own MIP level" : 'box-filtered from level 0 as it was read';
  const megapixels = (n: number): string => (n >= 1e7 ? `${Math.round(n / 1e6)} megapixels` : `${n.toLocaleString('en-US')} pixels`);
  const why =
    reduced.over === 'side'
      ? `a side over the ${ENCODER_MAX_SIDE_PX} px an 8-bit export takes`
      : reduced.limit >= ENCODER_MAX_PIXELS
        ? `over the ${megapixels(ENCODER_MAX_PIXELS)} the PNG/JPEG encoder takes`
        : `over the ${megapixels(reduced.limit)} the host's memory for an export holds (${bytesText(memoryBytes)})`;
  return (
    `written at 1/${reduced.factor} size (${widthPx}×${heightPx} of ${reduced.fullWidthPx}×${reduced.fullHeightPx} px, ${how}): ` +
    `level 0 is ${megapixels(reduced.fullWidthPx * reduced.fullHeightPx)}, ${why}`
  );
}

export const bytesText = (bytes: number): string =>
  bytes >= 2 ** 30
    ? `${(bytes / 2 ** 30).toFixed(1)} GB`
    : bytes >= 2 ** 20
      ? `${(bytes / 2 ** 20).toFixed(1)} MB`
      : `${(bytes / 2 ** 10).toFixed(1)} kB`;

/** Bytes of a flat part's level 0 in these channels (every channel when null), decoded. */
export function layerBytes(part: PartSummary, channels: readonly string[] | null): number {
  const [x0, y0, x1, y1] = part.dataWindow;
  const pixels = (x1 - x0 + 1) * (y1 - y0 + 1);
  return part.channels
    .filter((c) => !channels || channels.includes(c.name))
    .reduce((n, c) => n + (pixels / (c.xSampling * c.ySampling)) * PIXEL_TYPE_BYTES[c.pixelType], 0);
}
