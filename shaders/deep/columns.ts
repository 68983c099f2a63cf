// A deep sample set as the host sends it (raw channels, counts) turned into the composite's columns: numbers per
// sample, Z and ZBack picked out, each channel's role. Pure.
import { halfToFloat } from '../tonemap-cpu.js';
import { deepRoles, type DeepSampleColumns } from './range-composite.js';

/** The host's `DeepSampleSet` as far as the composite needs it (samples sorted by depth within each pixel). */
export interface RawDeepSamples {
  widthPx: number;
  heightPx: number;
  sampleCounts: ArrayBuffer;
  channels: readonly { name: string; pixelType: 'half' | 'float' | 'uint'; data: ArrayBuffer }[];
}

/** Every sample of a channel as float32 (half widened exactly, uint rounded to the nearest float). */
export function channelNumbers(channel: RawDeepSamples['channels'][number]): Float32Array {
  if (channel.pixelType === 'float') return new Float32Array(channel.data);
  const src = channel.pixelType === 'half' ? new Uint16Array(channel.data) : new Uint32Array(channel.data);
  const out = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) out[i] = channel.pixelType === 'half' ? halfToFloat(src[i]!) : src[i]!;
  return out;
}

export function columnsOf(set: RawDeepSamples): DeepSampleColumns {
  const counts = new Uint32Array(set.sampleCounts);
  const offsets = new Uint32Array(counts.length + 1);
  for (let i = 0; i < counts.length; i++) offsets[i + 1] = offsets[i]! + counts[i]!;
  const values = set.channels.map(channelNumbers);
  const zAt = set.channels.findIndex((c) => c.name === 'Z');
  const zBackAt = set.channels.findIndex((c) => c.name === 'ZBack');
  const total = offsets[counts.length]!;
  // without Z every sample is at depth 0: the range then holds all of them or none
  const z = zAt >= 0 ? values[zAt]! : new Float32Array(total);
  return {
    widthPx: set.widthPx,
    heightPx: set.heightPx,
    offsets,
    z,
    zBack: zBackAt >= 0 ? values[zBackAt]! : z,
    values,
    roles: deepRoles(set.channels),
  };
}
