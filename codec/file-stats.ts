// A whole file's statistics in the shape `exrview stats --json` prints (DESIGN.md), from the codec alone.

import { ExrError } from './core/errors.js';
import { openFileSource } from './file-source.js';
import { missingRegions } from './missing.js';
import { ExrReader } from './reader.js';
import { channelStats, missingSamples, partSummary, type PartStats } from './stats.js';

/** A file's statistics; `incomplete` where it is still being written (or was cut short): of the chunks present only. */
export interface FileStats {
  parts: PartStats[];
  incomplete?: { chunksPresent: number; chunksTotal: number };
}

/**
 * Every non-deep part decoded in full (level 0); deep parts list their channels without statistics. A file still being
 * written is decoded as far as its chunks are there, its statistics over their pixels; any other damage throws.
 */
export function readerStats(reader: ExrReader): FileStats {
  const incomplete = reader.incomplete;
  const parts = reader.parts.map((part): PartStats => {
    const channelsHeader = part.channels.map((c) => ({
      name: c.name,
      pixelType: c.pixelType,
      xSampling: c.xSampling,
      ySampling: c.ySampling,
    }));
    if (part.isDeep) return { ...partSummary(part), channels: channelsHeader };
    const image = reader.decode({ part: part.index, tolerant: incomplete !== null });
    const failures = image.missing?.failures ?? [];
    // a chunk the tables place that fails is damage, which statistics do not hide
    const damaged = failures.find((f) => reader.offsets[part.index]![f.chunk]! >= 0);
    if (damaged) throw new ExrError('invalid', damaged.reason);
    const boxes = missingRegions(failures);
    return {
      ...partSummary(part),
      channels: channelsHeader.map((header, i) => {
        const channel = image.channels[i]!;
        return { ...header, ...channelStats(channel, boxes.length ? missingSamples(channel, image.region, boxes) : undefined) };
      }),
    };
  });
  return incomplete ? { parts, incomplete: { chunksPresent: incomplete.chunksPresent, chunksTotal: incomplete.chunksTotal } } : { parts };
}

export function fileStatsOf(path: string): FileStats {
  const source = openFileSource(path);
  try {
    return readerStats(ExrReader.open(source));
  } finally {
    source.close();
  }
}
