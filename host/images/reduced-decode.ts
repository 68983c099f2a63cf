// A decode request whose level 0 does not fit the page (DecodeRequest.fitWithin): answered with a reduced level, the
// file's own MIP level when it has one, else level 0 box-filtered by the workers as they decode it (reduced-pass.ts).
// A request with `refineWithin` gets a small level first: the finer one the page asks for next is made in the same pass
// and held for it (reduced-hold.ts), so the file is decoded once.
import type { DecodedImage, DecodeRequest, PartSummary, ReducedLevel } from '../../contract/host-api.js';
import { fileLevelFor, reducedWindows, reductionFor } from './reduced-level.js';
import type { ReducedHold } from './reduced-hold.js';
import type { ReducedPass, ReducedPlanes } from '../decode/reduced-pass.js';
import { missingOf } from '../decode/levels.js';

export type LevelDecode = (request: DecodeRequest, lease: boolean) => Promise<{ image: DecodedImage; release(): void }>;

/** One pass over level 0 reduced by each of `factors` (finest first). */
export type ReduceDecode = (factors: readonly number[]) => Promise<{ pass: ReducedPass; queueMs: number }>;

export interface ReducedSources {
  decode: LevelDecode;
  reduce: ReduceDecode;
  hold: ReducedHold;
  /** The file version, part and channels the request names: what a held level is kept under. */
  holdKey: string;
}

/** The reduced level `request` asks for, or null when its level 0 fits (or it names another level, or a deep part). */
export async function decodeReduced(
  request: DecodeRequest,
  part: PartSummary,
  lease: boolean,
  sources: ReducedSources,
): Promise<{ image: DecodedImage; release(): void } | null> {
  if (!request.fitWithin || (request.lx ?? 0) !== 0 || (request.ly ?? 0) !== 0) return null;
  if (part.type === 'deepscanline' || part.type === 'deeptile') return null;
  const [x0, y0, x1, y1] = part.dataWindow;
  const widthPx = x1 - x0 + 1,
    heightPx = y1 - y0 + 1;
  const r = reductionFor(widthPx, heightPx, request.fitWithin);
  if (!r) return null;
  const t0 = performance.now();
  // the finer level the page asks for next: a small first level is smaller than the page's limits only to come sooner,
  // so what it says it was over is the page's own limit, not the small request's
  const refine = request.refineWithin ? reductionFor(widthPx, heightPx, request.refineWithin) : null;
  const said = refine ? { ...r, over: refine.over, limit: refine.limit } : r;
  const level = fileLevelFor(part, r.factor);
  if (level !== null) {
    const whole: DecodeRequest = { ...request, lx: level, ly: level };
    delete whole.fitWithin;
    delete whole.refineWithin;
    const got = await sources.decode(whole, lease);
    const image = got.image;
    // the level's windows as level 0's scaled: the preview places it like any image of that size
    const windows = reducedWindows(
      { ...image, dataWindow: part.dataWindow, displayWindow: part.displayWindow },
      r.factor,
      image.widthPx,
      image.heightPx,
    );
    return { image: { ...image, ...windows, reduced: { ...said, from: 'mip-level' } }, release: got.release };
  }
  const held = sources.hold.take(sources.holdKey, r.factor);
  if (held) {
    const image = await held;
    return { image: { ...image, source: 'ram-cache', timings: { ...image.timings, hostMs: performance.now() - t0 } }, release: () => {} };
  }
  // the finer level, made in this pass where the file has no level of that size itself
  const refineFactor =
    refine && refine.factor < r.factor && r.factor % refine.factor === 0 && fileLevelFor(part, refine.factor) === null
      ? refine.factor
      : null;
  const passed = sources.reduce(refineFactor ? [refineFactor, r.factor] : [r.factor]);
  const imageOf = (levelAt: number, reduced: Omit<ReducedLevel, 'from'>) =>
    passed.then(({ pass, queueMs }) => reducedImage(request, part, pass, pass.levels[levelAt]!, reduced, queueMs, t0));
  if (refine && refineFactor) sources.hold.put(sources.holdKey, refineFactor, imageOf(0, refine));
  const image = await imageOf(refineFactor ? 1 : 0, said);
  return { image, release: () => {} };
}

function reducedImage(
  request: DecodeRequest,
  part: PartSummary,
  pass: ReducedPass,
  level: ReducedPlanes,
  reduced: Omit<ReducedLevel, 'from'>,
  queueMs: number,
  t0: number,
): DecodedImage {
  const missing = pass.missing ? missingOf(pass.missing) : undefined;
  const level0 = { dataWindow: part.dataWindow, displayWindow: part.displayWindow, ...(missing ? { missing } : {}) };
  const { readMs, decompressMs, unpackMs, bytesRead, filterMs } = pass.timings;
  return {
    fileId: request.fileId,
    part: request.part,
    lx: 0,
    ly: 0,
    ...reducedWindows(level0, level.factor, level.widthPx, level.heightPx),
    widthPx: level.widthPx,
    heightPx: level.heightPx,
    planes: level.planes.map((p) => ({
      name: p.name,
      pixelType: p.pixelType,
      xSampling: p.xSampling,
      ySampling: p.ySampling,
      widthSamples: p.widthSamples,
      heightSamples: p.heightSamples,
      data: p.data.buffer as SharedArrayBuffer,
    })),
    source: 'decode',
    timings: { readMs, decompressMs, unpackMs, queueMs, bytesRead, filterMs, hostMs: performance.now() - t0 },
    reduced: { ...reduced, from: 'box-filter' },
  };
}
