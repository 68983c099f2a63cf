// A whole file's statistics in the shape `exrview stats --json` prints (DESIGN.md), from the codec alone.

import { openFileSource } from './file-source.js';
import { ExrReader } from './reader.js';
import { channelStats, partSummary, type PartStats } from './stats.js';

/** Every non-deep part decoded in full (level 0); deep parts list their channels without statistics. */
export function readerStats(reader: ExrReader): { parts: PartStats[] } {
  const parts = reader.parts.map((part): PartStats => {
    const channelsHeader = part.channels.map((c) => ({
      name: c.name,
      pixelType: c.pixelType,
      xSampling: c.xSampling,
      ySampling: c.ySampling,
    }));
    if (part.isDeep) return { ...partSummary(part), channels: channelsHeader };
    const image = reader.decode({ part: part.index });
    return { ...partSummary(part), channels: channelsHeader.map((header, i) => ({ ...header, ...channelStats(image.channels[i]!) })) };
  });
  return { parts };
}

export function fileStatsOf(path: string): { parts: PartStats[] } {
  const source = openFileSource(path);
  try {
    return readerStats(ExrReader.open(source));
  } finally {
    source.close();
  }
}
