// Level 0 box-filtered without ever holding it: bands of whole chunks decoded as crops (two in flight, so the workers
// decode the next while this thread filters one), each filtered into the small level and let go at once. The host's
// memory is two bands and the reduced level, whatever the image's size.
import type { BoxTuple, ChannelSummary, DecodedImage, DecodedPlane, MissingRegions } from '../../contract/host-api.js';
import { boxFilterPlane } from './reduced-level.js';
import type { LevelImage } from '../decode/levels.js';

/** Uncompressed bytes a band aims at: large enough to keep every worker busy, small next to any RAM budget. */
const BAND_BYTES = 64 << 20;
/** Bands start on multiples of this many rows: a whole number of chunks of any compression (DWAB's 256 lines, tiles up to it). */
const CHUNK_ROWS = 256;

const PIXEL_BYTES = { half: 2, float: 4, uint: 4 } as const;

/** Rows per band for these channels over `widthPx`: a multiple of the factor and of CHUNK_ROWS. */
export function bandRowsFor(widthPx: number, channels: readonly ChannelSummary[], factor: number): number {
  const rowBytes = channels.reduce((sum, c) => sum + (widthPx / c.xSampling / c.ySampling) * PIXEL_BYTES[c.pixelType], 0);
  const unit = lcm(
    lcm(CHUNK_ROWS, factor),
    channels.reduce((l, c) => lcm(l, c.ySampling * factor), 1),
  );
  return unit * Math.max(1, Math.floor(BAND_BYTES / Math.max(1, rowBytes) / unit));
}

/** Decodes one band (absolute, inclusive box of level 0); `index` tells bands apart (their request ids). */
export type BandDecode = (box: BoxTuple, index: number) => Promise<{ image: DecodedImage; release(): void }>;

/**
 * Level 0 of `dataWindow` box-filtered by `factor`, decoded band by band. The planes are those of level 0 reduced
 * (each sample the mean of those it covers, as boxFilterLevel's), its windows still level 0's (see reducedWindows).
 */
export async function streamBoxFilter(
  dataWindow: BoxTuple,
  factor: number,
  bandRows: number,
  decodeBand: BandDecode,
): Promise<Pick<LevelImage, 'planes' | 'missing'> & { bands: number }> {
  const [x0, y0, x1, y1] = dataWindow;
  const starts: number[] = [];
  for (let y = y0; y <= y1; y += bandRows) starts.push(y);
  const band = (i: number) => decodeBand([x0, starts[i]!, x1, Math.min(y1, starts[i]! + bandRows - 1)], i);
  const outRows = Math.ceil((y1 - y0 + 1) / factor);
  // planes sampled on every row are written in place as bands land (no second copy of the level); others are joined
  let out: { plane: DecodedPlane; rows: number; parts: ArrayBuffer[]; whole: Uint8Array | null }[] | null = null;
  const missing: MissingRegions[] = [];
  let next: ReturnType<BandDecode> | null = band(0);
  try {
    for (let i = 0; next; i++) {
      const got = await next;
      next = i + 1 < starts.length ? band(i + 1) : null;
      try {
        const filtered = got.image.planes.map((p) => boxFilterPlane(p, factor));
        out ??= filtered.map((p) => ({
          plane: p,
          rows: 0,
          parts: [],
          whole: p.ySampling === 1 ? new Uint8Array(outRows * p.widthSamples * PIXEL_BYTES[p.pixelType]) : null,
        }));
        filtered.forEach((p, c) => {
          const o = out![c]!;
          if (o.whole) o.whole.set(new Uint8Array(p.data), o.rows * p.widthSamples * PIXEL_BYTES[p.pixelType]);
          else o.parts.push(p.data as ArrayBuffer);
          o.rows += p.heightSamples;
        });
        if (got.image.missing) missing.push(got.image.missing);
      } finally {
        got.release();
      }
    }
  } catch (e) {
    // a band decoding ahead is let go of as soon as it lands
    void next?.then(
      (got) => got.release(),
      () => {},
    );
    throw e;
  }
  const planes = out!.map(({ plane, rows, parts, whole }) => ({
    ...plane,
    heightSamples: rows,
    data: whole ? (whole.buffer as ArrayBuffer) : concat(parts),
  }));
  return { planes, ...(missing.length ? { missing: mergeMissing(missing) } : {}), bands: starts.length };
}

function concat(parts: readonly ArrayBuffer[]): ArrayBuffer {
  const bytes = new Uint8Array(parts.reduce((s, p) => s + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(new Uint8Array(p), at);
    at += p.byteLength;
  }
  return bytes.buffer;
}

/** The bands' missing chunks as one image's: every region, the first reason, the counts summed. */
function mergeMissing(all: readonly MissingRegions[]): MissingRegions {
  const first = all[0]!;
  return {
    ...first,
    regions: all.flatMap((m) => m.regions),
    chunksRead: all.reduce((s, m) => s + m.chunksRead, 0),
    chunksTotal: all.reduce((s, m) => s + m.chunksTotal, 0),
  };
}

function lcm(a: number, b: number): number {
  const gcd = (x: number, y: number): number => (y === 0 ? x : gcd(y, x % y));
  return (a * b) / gcd(a, b);
}
