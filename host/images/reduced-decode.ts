// A decode request whose level 0 does not fit the page (DecodeRequest.fitWithin): answered with a reduced level, the
// file's own MIP level when it has one, else level 0 box-filtered as it streams through in bands (reduced-stream.ts).
import type { DecodedImage, DecodeRequest, PartSummary } from '../../contract/host-api.js';
import { fileLevelFor, reducedWindows, reductionFor } from './reduced-level.js';
import { bandRowsFor, streamBoxFilter } from './reduced-stream.js';
import type { CropDecode } from './region-decode.js';
import { SUB_REQUEST } from '../decode/broker.js';

export type LevelDecode = (request: DecodeRequest, lease: boolean) => Promise<{ image: DecodedImage; release(): void }>;

/** The reduced level `request` asks for, or null when its level 0 fits (or it names another level, or a deep part). */
export async function decodeReduced(
  request: DecodeRequest,
  part: PartSummary,
  lease: boolean,
  decode: LevelDecode,
  crop: CropDecode,
): Promise<{ image: DecodedImage; release(): void } | null> {
  if (!request.fitWithin || (request.lx ?? 0) !== 0 || (request.ly ?? 0) !== 0) return null;
  if (part.type === 'deepscanline' || part.type === 'deeptile') return null;
  const [x0, y0, x1, y1] = part.dataWindow;
  const r = reductionFor(x1 - x0 + 1, y1 - y0 + 1, request.fitWithin);
  if (!r) return null;
  const t0 = performance.now();
  const whole: DecodeRequest = { ...request };
  delete whole.fitWithin;
  const level = fileLevelFor(part, r.factor);
  if (level !== null) {
    const got = await decode({ ...whole, lx: level, ly: level }, lease);
    const image = got.image;
    // the level's windows as level 0's scaled: the preview places it like any image of that size
    const windows = reducedWindows(
      { ...image, dataWindow: part.dataWindow, displayWindow: part.displayWindow },
      r.factor,
      image.widthPx,
      image.heightPx,
    );
    return { image: { ...image, ...windows, reduced: { ...r, from: 'mip-level' } }, release: got.release };
  }
  // level 0 is never held: bands of it are decoded as crops and filtered as they land
  const channels = part.channels.filter((c) => !request.channels || request.channels.includes(c.name));
  const timings = { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, bytesRead: 0 };
  const streamed = await streamBoxFilter(part.dataWindow, r.factor, bandRowsFor(x1 - x0 + 1, channels, r.factor), async (box, index) => {
    const got = await crop(box, `${request.requestId}${SUB_REQUEST}band ${index}`);
    for (const k of ['readMs', 'decompressMs', 'unpackMs', 'queueMs', 'bytesRead'] as const) timings[k] += got.image.timings[k];
    return got;
  });
  const widthPx = Math.ceil((x1 - x0 + 1) / r.factor),
    heightPx = Math.ceil((y1 - y0 + 1) / r.factor);
  const level0 = {
    dataWindow: part.dataWindow,
    displayWindow: part.displayWindow,
    ...(streamed.missing ? { missing: streamed.missing } : {}),
  };
  const image: DecodedImage = {
    fileId: request.fileId,
    part: request.part,
    lx: 0,
    ly: 0,
    ...reducedWindows(level0, r.factor, widthPx, heightPx),
    widthPx,
    heightPx,
    planes: streamed.planes,
    source: 'decode',
    timings: { ...timings, hostMs: performance.now() - t0 },
    reduced: { ...r, from: 'box-filter' },
  };
  return { image, release: () => {} };
}
