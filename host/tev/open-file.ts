// tev's OpenImage and ReloadImage name an EXR on disk: its first flat part read into float planes, as a live image.

import { ExrReader, HALF_TO_FLOAT, openFileSource } from '../../codec/index.js';
import type { TevCreateImage, TevLimits } from './packet.js';

/**
 * `channelSelector`: tev's comma-separated list of channel name parts (`diffuse,R`); a channel is kept when it contains
 * any of them (all channels when empty). Subsampled channels are left out: a live image is one size throughout.
 */
export async function readExrAsLive(
  path: string,
  channelSelector: string,
  limits: Pick<TevLimits, 'maxSamples'>,
): Promise<TevCreateImage & { planes: Float32Array[] }> {
  if (!/\.exr$/i.test(path)) throw new Error('exrview opens only OpenEXR files (.exr)');
  const source = openFileSource(path);
  try {
    const reader = ExrReader.open(source);
    const index = reader.parts.findIndex((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
    if (index < 0) throw new Error('it has no flat (non-deep) part');
    const part = reader.part(index);
    const wanted = channelSelector.split(',').filter(Boolean);
    const channels = part.channels
      .filter((c) => c.xSampling === 1 && c.ySampling === 1)
      .filter((c) => wanted.length === 0 || wanted.some((w) => c.name.includes(w)))
      .map((c) => c.name);
    if (channels.length === 0) throw new Error(`no channel matches "${channelSelector}"`);
    if (part.widthPx * part.heightPx * channels.length > limits.maxSamples) {
      throw new Error(`it is ${part.widthPx}×${part.heightPx} × ${channels.length} channels, more than a live image may hold`);
    }
    const decoded = reader.decode({ part: index, channels });
    const planes = decoded.channels.map((c) => {
      if (c.pixelType === 'float') return c.data as Float32Array;
      const out = new Float32Array(c.data.length);
      for (let i = 0; i < out.length; i++) out[i] = c.pixelType === 'half' ? HALF_TO_FLOAT[c.data[i]!]! : c.data[i]!;
      return out;
    });
    return {
      type: 'create-image',
      grabFocus: false,
      name: path,
      widthPx: decoded.widthPx,
      heightPx: decoded.heightPx,
      channelNames: decoded.channels.map((c) => c.name),
      planes,
    };
  } finally {
    source.close();
  }
}
