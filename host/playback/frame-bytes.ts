// What one frame takes in RAM once decoded: the planes of the channels a player shows, from the header summary alone.

import { sampleCount } from '../../codec/index.js';
import type { PartSummary } from '../../contract/host-api.js';

const SAMPLE_BYTES = { half: 2, float: 4, uint: 4 } as const;

/**
 * Bytes of the planes of `channels` of a part's level 0, or of level 0 reduced by `factor` (each side 1/factor, rounded
 * up, as reduced levels are); null when the part is unknown or deep.
 */
export function frameBytes(part: PartSummary | undefined, channels: readonly string[], factor = 1): number | null {
  if (!part || part.type === 'deepscanline' || part.type === 'deeptile') return null;
  const [x0, y0] = part.dataWindow;
  const x1 = x0 + Math.ceil((part.dataWindow[2] - x0 + 1) / factor) - 1;
  const y1 = y0 + Math.ceil((part.dataWindow[3] - y0 + 1) / factor) - 1;
  let bytes = 0;
  for (const c of part.channels) {
    if (!channels.includes(c.name)) continue;
    bytes += sampleCount(c.xSampling, x0, x1) * sampleCount(c.ySampling, y0, y1) * SAMPLE_BYTES[c.pixelType];
  }
  return bytes;
}
