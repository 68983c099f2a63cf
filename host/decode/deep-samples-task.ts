// The deep samples worker task: one pixel's samples (decoding only the chunk that holds it) or every pixel's, in file
// order or sorted by depth, with the part's depth extent.

import { ExrError, ExrReader, HALF_TO_FLOAT, decodeDeep, openFileSource, type DeepImage, type AbortSignalLike } from '../../codec/index.js';
import type { BoxTuple, DeepSampleSet, DeepSamplesRequest } from '../../contract/host-api.js';

export interface DeepSamplesTaskArgs extends Omit<DeepSamplesRequest, 'fileId'> {
  path: string;
  /** Refuse more samples than this (default MAX_SAMPLES). */
  maxSamples?: number;
}

export type DeepSamplesTaskResult = Omit<DeepSampleSet, 'fileId'>;

/** More samples than this at once are refused: 2^26 samples of a few channels are GiBs to hold and send. */
const MAX_SAMPLES = 2 ** 26;

export function deepSamplesTask(
  args: DeepSamplesTaskArgs,
  ctx: { signal: AbortSignalLike },
): { result: DeepSamplesTaskResult; transfer: ArrayBuffer[] } {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    if (args.part < 0 || args.part >= reader.parts.length) {
      throw new Error(`the file has no part ${args.part} (it has ${reader.parts.length}): pick one of its parts`);
    }
    const part = reader.part(args.part);
    if (!part.isDeep) throw new Error(`part ${args.part} is not deep: only a deep part has samples to list`);
    const dw = part.dataWindow;
    const pixel = args.pixel;
    if (pixel && (pixel.xPx < dw.xMin || pixel.xPx > dw.xMax || pixel.yPx < dw.yMin || pixel.yPx > dw.yMax)) {
      const window = `(${dw.xMin}, ${dw.yMin})–(${dw.xMax}, ${dw.yMax})`;
      throw new Error(`pixel (${pixel.xPx}, ${pixel.yPx}) is outside the data window ${window}: pick a pixel of the image`);
    }
    const maxSamples = args.maxSamples ?? MAX_SAMPLES;
    let deep: DeepImage;
    try {
      deep = decodeDeep(reader, {
        part: args.part,
        ...(pixel ? { region: { xMin: pixel.xPx, yMin: pixel.yPx, xMax: pixel.xPx, yMax: pixel.yPx } } : {}),
        ...(args.channels ? { channels: args.channels } : {}),
        signal: ctx.signal,
        maxSamples,
      });
    } catch (error) {
      if (!(error instanceof ExrError) || error.kind === 'aborted') throw error;
      if (error.message.includes(`more than ${maxSamples} deep samples`)) {
        throw new Error(
          `the part holds more than ${maxSamples} samples, more than the depth range takes at once: the sample list and the flattened view still work`,
        );
      }
      const where = pixel ? `the chunk holding pixel (${pixel.xPx}, ${pixel.yPx})` : 'the deep samples';
      throw new Error(
        `${where} could not be read: ${error.message}. The file is damaged there; the flattened view shows what could be read`,
      );
    }
    const result = sampleSet(deep, args.sortByDepth === true);
    return { result, transfer: [result.sampleCounts, result.fileIndex, result.depthIndex, ...result.channels.map((c) => c.data)] };
  } finally {
    source.close();
  }
}

function numbersOf(channel: DeepImage['channels'][number] | undefined): ((i: number) => number) | null {
  if (!channel) return null;
  const data = channel.data;
  return channel.pixelType === 'half' ? (i) => HALF_TO_FLOAT[data[i]!]! : (i) => data[i]!;
}

/** Depth order: Z, then ZBack, then file order (as the flattened view composites). */
export function depthOrder(deep: DeepImage): { order: Uint32Array; extent: [number, number] | null } {
  const z = numbersOf(deep.channels.find((c) => c.name === 'Z'));
  const zBack = numbersOf(deep.channels.find((c) => c.name === 'ZBack'));
  const order = new Uint32Array(deep.totalSamples);
  let near = Infinity;
  let far = -Infinity;
  const scratch: number[] = [];
  for (let p = 0; p < deep.sampleCounts.length; p++) {
    const start = deep.sampleOffsets[p]!;
    const count = deep.sampleCounts[p]!;
    scratch.length = count;
    for (let k = 0; k < count; k++) scratch[k] = k;
    if (z) {
      const back = zBack ?? z;
      scratch.sort((a, b) => z(start + a) - z(start + b) || back(start + a) - back(start + b) || a - b);
      for (let k = 0; k < count; k++) {
        const front = z(start + k);
        const rear = Math.max(front, back(start + k));
        if (front < near) near = front;
        if (rear > far) far = rear;
      }
    }
    for (let k = 0; k < count; k++) order[start + k] = scratch[k]!;
  }
  return { order, extent: z && near <= far ? [near, far] : null };
}

function sampleSet(deep: DeepImage, sortByDepth: boolean): DeepSamplesTaskResult {
  const { order, extent } = depthOrder(deep);
  const channels = deep.channels.map((c) => {
    const data = c.data;
    if (!sortByDepth) return { name: c.name, pixelType: c.pixelType, data: data.buffer as ArrayBuffer };
    const sorted = new (data.constructor as Uint16ArrayConstructor | Float32ArrayConstructor | Uint32ArrayConstructor)(data.length);
    for (let p = 0; p < deep.sampleCounts.length; p++) {
      const start = deep.sampleOffsets[p]!;
      for (let k = 0; k < deep.sampleCounts[p]!; k++) sorted[start + k] = data[start + order[start + k]!]!;
    }
    return { name: c.name, pixelType: c.pixelType, data: sorted.buffer as ArrayBuffer };
  });
  // both orders, whichever the samples are in: the list marks depth order, the GPU needs neither
  const fileIndex = sortByDepth ? order : new Uint32Array(deep.totalSamples);
  const depthIndex = new Uint32Array(deep.totalSamples);
  for (let p = 0; p < deep.sampleCounts.length; p++) {
    const start = deep.sampleOffsets[p]!;
    for (let k = 0; k < deep.sampleCounts[p]!; k++) {
      if (sortByDepth) depthIndex[start + k] = k;
      else {
        fileIndex[start + k] = k;
        depthIndex[start + order[start + k]!] = k;
      }
    }
  }
  const r = deep.region;
  const region: BoxTuple = [r.xMin, r.yMin, r.xMax, r.yMax];
  return {
    part: deep.part,
    region,
    widthPx: deep.widthPx,
    heightPx: deep.heightPx,
    sampleCounts: deep.sampleCounts.buffer as ArrayBuffer,
    channels,
    fileIndex: fileIndex.buffer as ArrayBuffer,
    depthIndex: depthIndex.buffer as ArrayBuffer,
    depthExtent: extent,
  };
}
