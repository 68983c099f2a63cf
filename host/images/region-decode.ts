// A decode request for a crop of level 0 (DecodeRequest.region): the detail of an image too large for the page, zoomed
// in past its reduced level. Only the chunks the crop touches are read; the reply is the crop alone.
import type { BoxTuple, DecodedImage, DecodeRequest, PartSummary } from '../../contract/host-api.js';

/** Decodes a crop (absolute, inclusive) of level 0 of the request's part and channels, under its own request id. */
export type CropDecode = (box: BoxTuple, requestId: string) => Promise<{ image: DecodedImage; release(): void }>;

/** The crop `request.region` asks for, clipped to the part's data window, decoded alone and echoed as `region`. */
export async function decodeRegion(
  request: DecodeRequest,
  part: PartSummary,
  crop: CropDecode,
): Promise<{ image: DecodedImage; release(): void }> {
  const r = request.region!;
  if (part.type === 'deepscanline' || part.type === 'deeptile')
    throw new Error('a region of a deep image cannot be decoded alone: ask for the whole image (no region)');
  if ((request.lx ?? 0) !== 0 || (request.ly ?? 0) !== 0) throw new Error('a region is a crop of level 0: ask for it without lx and ly');
  const box = clipToWindow(r, part.dataWindow);
  if (!box)
    throw new Error(
      `the region ${r.widthPx}×${r.heightPx} px at (${r.xPx}, ${r.yPx}) lies outside the image's data window ` +
        `(${part.dataWindow.join(', ')}): ask for a region inside it`,
    );
  const got = await crop(box, request.requestId);
  const region = { xPx: box[0], yPx: box[1], widthPx: box[2] - box[0] + 1, heightPx: box[3] - box[1] + 1 };
  return { image: { ...got.image, region }, release: got.release };
}

/** A region clipped to a window (absolute, inclusive), or null when they do not meet. */
export function clipToWindow(r: { xPx: number; yPx: number; widthPx: number; heightPx: number }, window: BoxTuple): BoxTuple | null {
  const x0 = Math.max(window[0], r.xPx),
    y0 = Math.max(window[1], r.yPx);
  const x1 = Math.min(window[2], r.xPx + r.widthPx - 1),
    y1 = Math.min(window[3], r.yPx + r.heightPx - 1);
  return x1 < x0 || y1 < y0 ? null : [x0, y0, x1, y1];
}
