// A decode request whose level 0 does not fit the page (DecodeRequest.fitWithin): answered with a reduced level, the
// file's own MIP level when it has one, else level 0 box-filtered (its full planes released as soon as it is filtered).
import type { DecodedImage, DecodeRequest, PartSummary } from '../../contract/host-api.js';
import { boxFilterLevel, fileLevelFor, reducedWindows, reductionFor } from './reduced-level.js';

export type LevelDecode = (request: DecodeRequest, lease: boolean) => Promise<{ image: DecodedImage; release(): void }>;

/** The reduced level `request` asks for, or null when its level 0 fits (or it names another level, or a deep part). */
export async function decodeReduced(
  request: DecodeRequest,
  part: PartSummary,
  lease: boolean,
  decode: LevelDecode,
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
  const full = await decode(whole, true);
  let filtered: ReturnType<typeof boxFilterLevel>;
  try {
    filtered = boxFilterLevel(full.image, r.factor);
  } finally {
    full.release();
  }
  const image: DecodedImage = {
    ...full.image,
    ...filtered,
    timings: { ...full.image.timings, hostMs: full.image.timings.hostMs + (performance.now() - t0) },
    reduced: { ...r, from: 'box-filter' },
  };
  return { image, release: () => {} };
}
