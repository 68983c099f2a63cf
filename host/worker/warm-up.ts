// Warms a fresh decode worker: small images in each compression the writer makes, written to temporary files, decoded
// a few times in bands as band tasks decode, and summed into thumbnail bins (the thumbnail path's own chunk reading and
// box filter).
//
// A fresh worker runs the codec's TypeScript in V8's interpreter until the JIT has compiled it, which on a session's
// first folder costs about as much again as the decoding; workers started ahead of need (pool.start) pay it before the
// first job instead. DWA, mostly TypeScript, comes as a small DWAA file (the writer does
// not write DWA); B44 and the lossless codecs run in the native kernels where those loaded; HTJ2K's WebAssembly is left
// to load on first use rather than in every worker of every session.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  reserveTransientChunks,
  reserveTransientReads,
  ExrReader,
  memorySource,
  openFileSource,
  type ByteSource,
  writeExr,
  type Compression,
  PIXEL_TYPE_BYTES,
} from '../../codec/index.js';
import { flagSignal } from '../decode/flag-signal.js';
import { layoutSums } from '../thumbnails/band-sums.js';
import { frameSamples, planeView } from '../decode/layout.js';
import { bandBinRows } from '../thumbnails/binned-decode.js';
import { channelsOf, chooseThumbnailChannels } from '../thumbnails/channels.js';
import { thumbnailBand } from '../thumbnails/job.js';
import { sharedToneMapMemo, type ToneMapView } from '../thumbnails/tone-map.js';
import { DEFAULT_DISPLAY } from '../../shaders/display-params.js';
import { WARM_UP_DWAA_BASE64 } from './warm-up-dwa.js';
import { makeHandoff, takeHandoff } from '../headers/header-handoff.js';
import { makeWarmUpFolder, removeWarmUpFolder } from './warm-up-folder.js';

const WARM_COMPRESSIONS: Compression[] = ['zip', 'zips', 'piz', 'rle', 'pxr24', 'none'];
const WIDTH_PX = 256;
const HEIGHT_PX = 64;
/** Decodes of each image; EXRVIEW_WARM_UP_ROUNDS sets another count (for measuring what warming buys). */
const ROUNDS = Number(process.env.EXRVIEW_WARM_UP_ROUNDS) > 0 ? Number(process.env.EXRVIEW_WARM_UP_ROUNDS) : 3;
/**
 * The DWAA image is decoded this many times more: its two chunks call the per-chunk driver (decodeLossyKernel) too few
 * times in the plain rounds for V8 to optimise it, which workers then did in their first real DWA bands.
 */
const DWA_ROUNDS_FACTOR = 4;

/** Never set: a signal of the shape a task's is (flag-signal.ts). */
const NOT_ABORTED = flagSignal(new Int32Array(new SharedArrayBuffer(4)));

/**
 * A thumbnail of the whole image as one band task makes it: summed into its slot, then finished in place. 128x32 (2x2
 * pixels a bin), not 16x4: the finishing loops (adding up, means, halves) then run enough to be compiled here rather
 * than in a worker's first real thumbnails, of which each worker makes only a few a folder.
 */
const THUMB_WIDTH_PX = 128;
const THUMB_HEIGHT_PX = 32;

/**
 * The thumbnails are tone-mapped too, as the finishing worker does for `exrview thumbs` and the viewer, so that loop is
 * compiled before the first real thumbnail; and encoded as PNGs, so that the thread's compressor and PNG buffers are
 * made here. Its own memo table: a view's shared one is filled by whoever uses that view.
 */
const WARM_VIEW: ToneMapView = { params: { ...DEFAULT_DISPLAY, nanInf: false }, memo: sharedToneMapMemo() };

function sumThumbnailBins(reader: ExrReader, names: string[]): void {
  const part = reader.part(0);
  const choice = chooseThumbnailChannels(names);
  const channels = channelsOf(choice);
  const rows = { yMin: part.dataWindow.yMin, yMax: part.dataWindow.yMax };
  const layout = layoutSums(channels.length, THUMB_WIDTH_PX, THUMB_HEIGHT_PX, [bandBinRows(part, part.levels[0]!, THUMB_HEIGHT_PX, rows)]);
  const sums = { buffer: new SharedArrayBuffer(layout.byteLength), layout, band: 0, choice };
  thumbnailBand(
    reader,
    {
      path: '',
      part: 0,
      lx: 0,
      ly: 0,
      channels,
      widthPx: THUMB_WIDTH_PX,
      heightPx: THUMB_HEIGHT_PX,
      rows,
      sums,
      view: WARM_VIEW,
      png: true,
    },
    NOT_ABORTED,
  );
}

/** The warm-up images, as files: RGBA half and a float Z in each compression the writer makes, then the small DWAA file. */
export function warmUpImages(widthPx = WIDTH_PX, heightPx = HEIGHT_PX): { compression: Compression; bytes: Uint8Array }[] {
  const count = widthPx * heightPx;
  const half = Uint16Array.from({ length: count }, (_, i) => 0x3c00 + (i % 1024));
  const float = Float32Array.from({ length: count }, (_, i) => i / count);
  const channels = [
    ...['A', 'B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data: half })),
    { name: 'Z', pixelType: 'float' as const, data: float },
  ];
  const dataWindow = { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: heightPx - 1 };
  return [
    ...WARM_COMPRESSIONS.map((compression) => ({ compression, bytes: writeExr([{ compression, dataWindow, channels }]) })),
    { compression: 'dwaa' as const, bytes: new Uint8Array(Buffer.from(WARM_UP_DWAA_BASE64, 'base64')) },
  ];
}

/**
 * Rows of a warm-up band (a multiple of every scanline chunk height): a band task decodes its rows into shared planes
 * (decode/band-task.ts), so the warm-up does too, through the same path; whole-image decodes went through the allocating one.
 */
const BAND_ROWS = 32;

/**
 * One more image, tall and narrow, of one-line chunks, decoded once: the reader's chunk loop and its callbacks run per
 * chunk, and a real band has hundreds of chunks where the small images have a few: without it they were compiled in
 * each worker's first real bands. Not made into a thumbnail: on an image narrower than its thumbnail that bought nothing.
 */
const TALL_HEIGHT_PX = 1024;
function tallImage(): Uint8Array {
  const widthPx = 8;
  const data = Uint16Array.from({ length: widthPx * TALL_HEIGHT_PX }, (_, i) => 0x3c00 + (i % 1024));
  const channels = ['B', 'G', 'R'].map((name) => ({ name, pixelType: 'half' as const, data }));
  return writeExr([{ compression: 'none', dataWindow: { xMin: 0, yMin: 0, xMax: widthPx - 1, yMax: TALL_HEIGHT_PX - 1 }, channels }]);
}

/** Decodes each warm-up image ROUNDS times (the tall one once), in bands into shared planes, and sums it into thumbnail bins (not the tall one); throws what the codec throws. */
export function warmUpCodec(): void {
  const images = [
    ...warmUpImages().map(({ compression, bytes }) => ({
      bytes,
      rounds: compression === 'dwaa' ? ROUNDS * DWA_ROUNDS_FACTOR : ROUNDS,
      thumbnail: true,
    })),
    { bytes: tallImage(), rounds: 1, thumbnail: false },
  ];
  const dir = makeWarmUpFolder();
  try {
    images.forEach(({ bytes, rounds, thumbnail }, index) => {
      const { reader, close } = handedOverReader(bytes, dir, String(index));
      try {
        const part = reader.part(0);
        const channels = part.channels.map((c) => c.name);
        const frame = part.dataWindow;
        const planes = part.channels.map((c) =>
          planeView(c.pixelType, new SharedArrayBuffer(frameSamples(c, frame) * PIXEL_TYPE_BYTES[c.pixelType]), frameSamples(c, frame)),
        );
        for (let round = 0; round < rounds; round++) {
          for (let yMin = frame.yMin; yMin <= frame.yMax; yMin += BAND_ROWS) {
            const region = { xMin: frame.xMin, xMax: frame.xMax, yMin, yMax: Math.min(frame.yMax, yMin + BAND_ROWS - 1) };
            reader.decode({ part: 0, lx: 0, ly: 0, region, into: { frame, planes }, signal: NOT_ABORTED });
          }
          if (thumbnail) sumThumbnailBins(reader, channels);
        }
      } finally {
        close();
      }
    });
  } finally {
    removeWarmUpFolder(dir);
  }
}

/**
 * A reader over the image as a band's is made: over a file (a source of the shape a band's reader reads through), from
 * the main thread's parse handed over (header-handoff.ts). Its objects then have the shapes a band's have (a deserialized
 * object's, not the parser's), and the decode code compiled here is the code the bands run: warmed on the parser's
 * objects, it was thrown away and compiled again at the first real bands (V8's "wrong map" deoptimisations of
 * chunkPlace, uncompressedBytes and the binning loops, every worker); warmed on an in-memory source, the reader's chunk
 * loop was (at its first read from a file). In memory only where no temporary file can be written.
 */
function handedOverReader(bytes: Uint8Array, dir: string | null, name: string): { reader: ExrReader; close(): void } {
  let source: ByteSource & { close?(): void } = memorySource(bytes);
  let identity = { sizeBytes: bytes.length, mtimeMs: 0, inode: 0 };
  if (dir) {
    try {
      const path = join(dir, `${name}.exr`);
      writeFileSync(path, bytes);
      const file = openFileSource(path);
      source = file;
      identity = { sizeBytes: file.sizeBytes, ...file.identity };
    } catch {
      // a full disk: this image from memory, as without a folder
    }
  }
  const reader = ExrReader.fromParsed(source, takeHandoff(makeHandoff(identity, ExrReader.open(source).parsed), identity)!);
  return { reader, close: () => source.close?.() };
}

/**
 * The thread's reused read and chunk buffers, made at their working size: a band of a 4K render reads 1-3 MB and its
 * chunks decompress to about 1 MB each (2 MB with float channels). Grown on first use instead, a fresh worker faulted
 * them in page by page, and in steps, during its first bands.
 */
const READ_BUFFER_BYTES = 4 << 20;
const CHUNK_BUFFER_BYTES = 2 << 20;

/** warmUpCodec, timed (ms), after making the thread's reused buffers. Never throws: warming is best effort. */
export function warmUpDecoder(): number {
  const t0 = performance.now();
  try {
    reserveTransientReads(READ_BUFFER_BYTES);
    reserveTransientChunks(CHUNK_BUFFER_BYTES);
    warmUpCodec();
  } catch {
    // a codec bug shows in the real decode, with its file and chunk; warming is no place to report it
  }
  return performance.now() - t0;
}
