// A chunk's uncompressed layout as the native kernels take it: one Int32Array per block shape, cached.
//
// [channelCount, rowCount, channelCount x (widthSamples, heightSamples, pixelType, pLinear),
//  rowCount x channel index]: the rows are the chunk's line runs in output order (line by line,
// channels in header order), as BlockLayout in types.ts defines them. The C side checks the counts
// add up (native/src/context.c) and derives every offset from them.

import { invalid } from '../core/errors.js';
import { floorMod, sampleCount } from '../core/sampling.js';
import { PIXEL_TYPES, type BlockLayout, type Channel } from '../core/types.js';

const CHANNEL_WORDS = 4;
/** Shapes kept per channel list: a scanline part has one or two, a tiled part one per tile column and level edge. */
const MAX_SHAPES_PER_CHANNEL_LIST = 256;
/** Channel lists kept (by what the layout depends on): a folder of renders has a handful. */
const MAX_CHANNEL_LISTS = 64;

/**
 * Shapes by what a layout depends on (each channel's sampling, type and pLinear; not names), not by the channel array:
 * every open of a file makes a new array, and a worker opens each file of a folder for its first band. Keyed by the
 * array, every open built its layouts again, often enough for V8 to compile buildLayout mid-decode in each worker, on
 * the worker's own thread.
 */
const byChannels = new WeakMap<readonly Channel[], Map<string, Int32Array>>();
const bySignature = new Map<string, Map<string, Int32Array>>();

function shapesFor(channels: readonly Channel[]): Map<string, Int32Array> {
  let shapes = byChannels.get(channels);
  if (shapes) return shapes;
  const signature = channels.map((c) => `${c.xSampling},${c.ySampling},${c.pixelType},${c.pLinear ? 1 : 0}`).join(';');
  shapes = bySignature.get(signature);
  if (!shapes) {
    if (bySignature.size >= MAX_CHANNEL_LISTS) bySignature.clear();
    bySignature.set(signature, (shapes = new Map()));
  }
  byChannels.set(channels, shapes);
  return shapes;
}

/** The layout of `block` for the native kernels (shared between calls: do not modify). */
export function nativeLayout(block: BlockLayout): Int32Array {
  const shapes = shapesFor(block.channels);
  // Which lines carry which channel depends on y0 only when a channel is subsampled vertically, and a line's samples on
  // x0 only when one is subsampled horizontally: a tiled part's tiles are then one or two shapes, not one per column
  // (built per column, buildLayout ran often enough to be compiled mid-decode in each worker)
  const xDependent = block.channels.some((c) => c.xSampling !== 1);
  const yDependent = block.channels.some((c) => c.ySampling !== 1);
  const key = `${xDependent ? block.x0 : ''}:${yDependent ? block.y0 : ''}:${block.widthPx}:${block.heightPx}`;
  let layout = shapes.get(key);
  if (!layout) {
    if (shapes.size >= MAX_SHAPES_PER_CHANNEL_LIST) shapes.clear();
    layout = buildLayout(block);
    shapes.set(key, layout);
  }
  return layout;
}

function buildLayout(block: BlockLayout): Int32Array {
  const { channels, x0, y0, widthPx, heightPx } = block;
  if (!Number.isInteger(widthPx) || !Number.isInteger(heightPx) || widthPx < 0 || heightPx < 0) {
    throw invalid(`bad block size ${widthPx}x${heightPx}`);
  }
  let rowCount = 0;
  const heights = channels.map((channel) => {
    const { xSampling, ySampling } = channel;
    if (!Number.isInteger(xSampling) || !Number.isInteger(ySampling) || xSampling < 1 || ySampling < 1) {
      throw invalid(`channel ${channel.name} has bad sampling ${xSampling}x${ySampling}`);
    }
    const heightSamples = sampleCount(ySampling, y0, y0 + heightPx - 1);
    rowCount += heightSamples;
    return heightSamples;
  });
  const rowsAt = 2 + CHANNEL_WORDS * channels.length;
  const layout = new Int32Array(rowsAt + rowCount);
  layout[0] = channels.length;
  layout[1] = rowCount;
  channels.forEach((channel, c) => {
    const at = 2 + CHANNEL_WORDS * c;
    layout[at] = sampleCount(channel.xSampling, x0, x0 + widthPx - 1);
    layout[at + 1] = heights[c]!;
    layout[at + 2] = PIXEL_TYPES.indexOf(channel.pixelType);
    layout[at + 3] = channel.pLinear ? 1 : 0;
  });
  let row = rowsAt;
  for (let y = y0; y < y0 + heightPx; y++) {
    for (let c = 0; c < channels.length; c++) if (floorMod(y, channels[c]!.ySampling) === 0) layout[row++] = c;
  }
  return layout;
}
