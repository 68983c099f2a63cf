// The deep decode worker task: decode a deep part and flatten it (front-to-back "over") for display, keeping the sample counts.

import { ExrReader, openFileSource, type DecodedImage, decodeDeep, flattenDeep, type AbortSignalLike } from '../../codec/index.js';

export interface DeepFlatTaskArgs {
  path: string;
  part: number;
  lx?: number;
  ly?: number;
  channels?: string[];
  /** Decode every chunk that can be, listing the others in the image's `missing` (the codec fails when none can be). */
  tolerant?: boolean;
}

export interface DeepFlatTaskResult {
  image: DecodedImage;
  sampleCounts: Uint32Array;
}

export function deepFlatTask(
  args: DeepFlatTaskArgs,
  ctx: { signal: AbortSignalLike },
): { result: DeepFlatTaskResult; transfer: ArrayBuffer[] } {
  const source = openFileSource(args.path);
  try {
    const reader = ExrReader.open(source);
    const deep = decodeDeep(reader, {
      part: args.part,
      lx: args.lx ?? 0,
      ly: args.ly ?? args.lx ?? 0,
      ...(args.channels ? { channels: args.channels } : {}),
      signal: ctx.signal,
      ...(args.tolerant ? { tolerant: true } : {}),
    });
    const image = flattenDeep(deep);
    image.timings.readMs = source.stats.readMs;
    image.timings.bytesRead = source.stats.bytesRead;
    const sampleCounts = deep.sampleCounts;
    const transfer = [...image.channels.map((c) => c.data.buffer as ArrayBuffer), sampleCounts.buffer as ArrayBuffer];
    return { result: { image, sampleCounts }, transfer: [...new Set(transfer)] };
  } finally {
    source.close();
  }
}
