// `exrview stats FILE --json`: every non-deep part decoded in full (level 0), per-channel statistics.

import { channelStats, ExrReader, openFileSource, partSummary, type PartStats } from '../exr/index.js';

export function fileStats(path: string): { parts: PartStats[] } {
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const parts = reader.parts.map((part): PartStats => {
      const channelsHeader = part.channels.map((c) => ({
        name: c.name,
        pixelType: c.pixelType,
        xSampling: c.xSampling,
        ySampling: c.ySampling,
      }));
      if (part.isDeep) return { ...partSummary(part), channels: channelsHeader };
      const image = reader.decode({ part: part.index });
      const channels = channelsHeader.map((header, i) => ({ ...header, ...channelStats(image.channels[i]!) }));
      return { ...partSummary(part), channels };
    });
    return { parts };
  } finally {
    source.close();
  }
}
