// A live image as the viewer sees a file: its grid entry and summary, its header, its planes as a decode, its thumbnail.

import { floatToHalf, partLayers, type Channel } from '../../codec/index.js';
import type { DecodedImage, FileEntry, FileHeader, FileSummary, PixelRegion, Thumbnail } from '../../contract/host-api.js';
import type { LiveImage } from './live-images.js';

/** The folder id live images are listed under, whichever folder the grid shows. */
export const LIVE_FOLDER_ID = 'tev';
const ID_PREFIX = 'tev:';

export const liveFileId = (name: string): string => ID_PREFIX + encodeURIComponent(name);
export const isLiveFileId = (fileId: string): boolean => fileId.startsWith(ID_PREFIX);
export const liveNameOf = (fileId: string): string => decodeURIComponent(fileId.slice(ID_PREFIX.length));

const channelsOf = (image: LiveImage): Channel[] =>
  image.channelNames.map((name) => ({ name, pixelType: 'float', pLinear: false, xSampling: 1, ySampling: 1 }));

export function liveSummary(image: LiveImage): FileSummary {
  const box: [number, number, number, number] = [0, 0, image.widthPx - 1, image.heightPx - 1];
  const channels = channelsOf(image);
  return {
    widthPx: image.widthPx,
    heightPx: image.heightPx,
    multipart: false,
    views: [],
    parts: [
      {
        index: 0,
        name: '',
        type: 'scanlineimage',
        view: null,
        compression: 'none',
        dataWindow: box,
        displayWindow: box,
        channels: channels.map((c) => ({ name: c.name, pixelType: 'float', xSampling: 1, ySampling: 1 })),
        layers: partLayers(channels, []).layers.map((l) => ({ name: l.name, view: l.view, channels: l.channels.map((c) => c.name) })),
        tiled: false,
        levelMode: null,
        levelCount: 1,
        hasPreview: false,
      },
    ],
  };
}

export function liveEntry(image: LiveImage): FileEntry {
  // the grid shows the last part of a path-like name, as it does a file's
  const name = image.name.split(/[/\\]/).filter(Boolean).pop() ?? image.name;
  return {
    id: liveFileId(image.name),
    folderId: LIVE_FOLDER_ID,
    relativePath: image.name,
    name: name || 'untitled',
    sizeBytes: image.planes.length * image.widthPx * image.heightPx * 4,
    mtimeMs: image.updatedMs,
    status: 'ok',
    live: 'tev',
    summary: liveSummary(image),
  };
}

export function liveHeader(image: LiveImage, fileId: string): FileHeader {
  const box = `(0, 0) - (${image.widthPx - 1}, ${image.heightPx - 1})`;
  return {
    fileId,
    version: 2,
    multipart: false,
    parts: [
      {
        index: 0,
        attributes: [
          { name: 'source', type: 'string', text: `sent over tev's protocol (live, ${image.version} changes)` },
          { name: 'channels', type: 'chlist', text: image.channelNames.map((c) => `${c} float`).join(', ') },
          { name: 'compression', type: 'compression', text: 'none' },
          { name: 'dataWindow', type: 'box2i', text: box },
          { name: 'displayWindow', type: 'box2i', text: box },
          ...(image.vectorCommands.length
            ? [{ name: 'tev:vectorGraphics', type: 'string', text: `${image.vectorCommands.length} commands` }]
            : []),
        ],
      },
    ],
    ...(image.vectorCommands.length ? { vectorGraphics: image.vectorCommands } : {}),
  };
}

/**
 * The planes asked for (all by default), whole or the crop `region` (an update's tiles: the data window is the crop's).
 * Whole planes are copied unless `share`: a shared plane may change while it travels, which a transport sending it at
 * once may allow (the page then shows newer tiles, and the change event that follows refreshes it), but nothing that
 * keeps the image may.
 */
export function liveDecode(image: LiveImage, fileId: string, channels?: string[], share = false, region?: PixelRegion): DecodedImage {
  const wanted = channels ?? image.channelNames;
  const missing = wanted.filter((c) => !image.channelNames.includes(c));
  if (missing.length) throw new Error(`${image.name} has no channel ${missing.join(', ')}: pick one of ${image.channelNames.join(', ')}`);
  const box: [number, number, number, number] = [0, 0, image.widthPx - 1, image.heightPx - 1];
  if (region && (region.xPx + region.widthPx > image.widthPx || region.yPx + region.heightPx > image.heightPx)) {
    throw new Error(
      `the region ${region.widthPx}×${region.heightPx} at (${region.xPx}, ${region.yPx}) is outside ${image.name} ` +
        `(${image.widthPx}×${image.heightPx}): ask for a region inside it`,
    );
  }
  const w = region?.widthPx ?? image.widthPx;
  const h = region?.heightPx ?? image.heightPx;
  const plane = (name: string): Float32Array => image.planes[image.channelNames.indexOf(name)]!;
  return {
    fileId,
    part: 0,
    lx: 0,
    ly: 0,
    dataWindow: region ? [region.xPx, region.yPx, region.xPx + w - 1, region.yPx + h - 1] : box,
    displayWindow: box,
    widthPx: w,
    heightPx: h,
    planes: wanted.map((name) => ({
      name,
      pixelType: 'float',
      xSampling: 1,
      ySampling: 1,
      widthSamples: w,
      heightSamples: h,
      data: region ? cropOf(plane(name), image.widthPx, region) : planeBuffer(plane(name), share),
    })),
    ...(region ? { region } : {}),
    source: 'decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs: 0, bytesRead: 0 },
  };
}

/** A crop's rows out of a whole plane `widthPx` wide. */
function cropOf(plane: Float32Array, widthPx: number, r: PixelRegion): ArrayBuffer {
  const out = new Float32Array(r.widthPx * r.heightPx);
  for (let row = 0; row < r.heightPx; row++) {
    const from = (r.yPx + row) * widthPx + r.xPx;
    out.set(plane.subarray(from, from + r.widthPx), row * r.widthPx);
  }
  return out.buffer;
}

/** The plane's own buffer when it is exactly the plane and may be shared, else a copy. */
function planeBuffer(plane: Float32Array, share: boolean): ArrayBuffer {
  const whole = plane.byteOffset === 0 && plane.byteLength === plane.buffer.byteLength && plane.buffer instanceof ArrayBuffer;
  return share && whole ? (plane.buffer as ArrayBuffer) : plane.slice().buffer;
}

/** The planes a thumbnail shows: the first layer's R, G, B and A, or its first channel as grey. */
function thumbnailPlanes(image: LiveImage): (Float32Array | null)[] {
  const first = liveSummary(image).parts[0]!.layers[0]!.channels;
  const plane = (suffix: string): Float32Array | null => {
    const name = first.find((c) => c.split('.').pop()?.toUpperCase() === suffix);
    return name === undefined ? null : image.planes[image.channelNames.indexOf(name)]!;
  };
  const [r, g, b, a] = ['R', 'G', 'B', 'A'].map(plane);
  if (r || g || b) return [r ?? null, g ?? null, b ?? null, a ?? null];
  const grey = image.planes[image.channelNames.indexOf(first[0]!)]!;
  return [grey, grey, grey, null];
}

/** Box-filtered to `longSidePx` (never enlarged), half RGBA as the host's thumbnails are. */
export function liveThumbnail(image: LiveImage, fileId: string, longSidePx: number): Thumbnail {
  const started = performance.now();
  const { widthPx: w, heightPx: h } = image;
  const scale = Math.min(1, Math.max(1, Math.round(longSidePx)) / Math.max(w, h));
  const tw = Math.max(1, Math.round(w * scale));
  const th = Math.max(1, Math.round(h * scale));
  const planes = thumbnailPlanes(image);
  const out = new Uint16Array(tw * th * 4);
  for (let ty = 0; ty < th; ty++) {
    const y0 = Math.floor((ty * h) / th);
    const y1 = Math.max(y0 + 1, Math.floor(((ty + 1) * h) / th));
    for (let tx = 0; tx < tw; tx++) {
      const x0 = Math.floor((tx * w) / tw);
      const x1 = Math.max(x0 + 1, Math.floor(((tx + 1) * w) / tw));
      const n = (y1 - y0) * (x1 - x0);
      for (let c = 0; c < 4; c++) {
        const p = planes[c];
        let sum = 0;
        if (p) for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += p[y * w + x]!;
        out[(ty * tw + tx) * 4 + c] = floatToHalf(p ? sum / n : c === 3 ? 1 : 0);
      }
    }
  }
  const hostMs = performance.now() - started;
  return {
    fileId,
    widthPx: tw,
    heightPx: th,
    rgbaHalf: out.buffer,
    source: 'full-decode',
    timings: { readMs: 0, decompressMs: 0, unpackMs: 0, queueMs: 0, hostMs, bytesRead: 0 },
  };
}
