// HTJ2K256 and HTJ2K32 compression (OpenEXR 3.4): a small header mapping codestream components to
// the chunk's channels, then one JPEG 2000 codestream (j2k.ts) holding the whole chunk.
//
// Chunk layout, integers big-endian:
//   u16 magic 0x4854 ("HT")
//   u32 PLEN, the payload length
//   payload: u16 NCH, then NCH x u16: the channel (header order) of each codestream component,
//            then any bytes a later writer adds
//   the codestream (SOC .. EOC)
// Each channel is one component of the chunk's size divided by the channel's sampling; half
// channels are 16-bit and float channels 32-bit signed components with the binary complement
// non-linearity, so their sample bits are the value's bits; uint channels are 32-bit unsigned.

import { invalid } from '../core/errors.js';
import { sampleCount } from '../core/sampling.js';
import { PIXEL_TYPE_BYTES, type BlockLayout } from '../core/types.js';
import { decodeWithOpenjph } from './htj2k-openjph.js';
import { decodeJ2k, inspectJ2k, type J2kSize } from './j2k.js';

const MAGIC = 0x4854;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const PREFIX_BYTES = 6;

export interface HtChunkHeader {
  /** File channel (header order) of each codestream component. */
  channelOfComponent: number[];
  /** Where the codestream starts in the chunk. */
  codestreamStart: number;
}

/** Reads and checks the chunk header; `channels` is how many the chunk holds. */
export function readHtChunkHeader(src: Uint8Array, channels: number): HtChunkHeader {
  if (src.length < PREFIX_BYTES + 2) throw invalid(`HTJ2K chunk of ${src.length} bytes is too short for its header`);
  const magic = (src[0]! << 8) | src[1]!;
  if (magic !== MAGIC) throw invalid(`HTJ2K chunk starts with 0x${magic.toString(16).padStart(4, '0')}, not the "HT" magic number`);
  const payloadBytes = src[2]! * 0x1000000 + ((src[3]! << 16) | (src[4]! << 8) | src[5]!);
  if (payloadBytes > src.length - PREFIX_BYTES)
    throw invalid(`HTJ2K chunk header claims ${payloadBytes} bytes, the chunk holds ${src.length - PREFIX_BYTES} after it`);
  const count = (src[6]! << 8) | src[7]!;
  if (payloadBytes < 2 + 2 * count) throw invalid(`HTJ2K chunk header of ${payloadBytes} bytes cannot map ${count} channels`);
  if (count !== channels) throw invalid(`HTJ2K chunk maps ${count} channels, the part has ${channels}`);
  const channelOfComponent: number[] = [];
  const seen = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const channel = (src[8 + 2 * i]! << 8) | src[9 + 2 * i]!;
    if (channel >= count || seen[channel])
      throw invalid(`HTJ2K chunk maps component ${i} to channel ${channel}, which is out of range or taken`);
    seen[channel] = 1;
    channelOfComponent.push(channel);
  }
  const codestreamStart = PREFIX_BYTES + payloadBytes;
  if (codestreamStart >= src.length) throw invalid('HTJ2K chunk holds no codestream after its header');
  return { channelOfComponent, codestreamStart };
}

/**
 * Half channels without subsampling through OpenJPH (htj2k-openjph.ts), once j2k.ts has checked
 * every header and code-block length (damage is reported the same way on both paths); null
 * where the stream is not plain 16-bit signed binary-complement samples or OpenJPH is unavailable.
 */
function decodeHalves(
  codestream: Uint8Array,
  block: BlockLayout,
  channelOfComponent: number[],
  check: (size: J2kSize) => void,
  expectedBytes: number,
): Uint8Array | null {
  const info = inspectJ2k(codestream, check);
  if (!info.components.every((comp, i) => comp.bitDepth === 16 && comp.signed && info.nltType3[i])) return null;
  const n = info.components.length;
  const { widthPx: w, heightPx: h } = block;
  if (2 * w * h * n !== expectedBytes) return null;
  const decoded = decodeWithOpenjph(codestream, w, h, n);
  if (!decoded) return null;
  const { samples, indexOf, step } = decoded;
  const componentOfChannel = new Int32Array(n);
  channelOfComponent.forEach((channel, component) => (componentOfChannel[channel] = component));
  const out = new Uint8Array(expectedBytes);
  const out16 = new Uint16Array(out.buffer, 0, expectedBytes >> 1);
  let pos = 0;
  for (let y = 0; y < h; y++) {
    for (let c = 0; c < n; c++) {
      let i = indexOf(componentOfChannel[c]!, y);
      for (let x = 0; x < w; x++, i += step) out16[pos++] = samples[i]! & 0xffff;
    }
  }
  if (!LITTLE_ENDIAN) swapBytes(out);
  return out;
}

function swapBytes(out: Uint8Array): void {
  for (let i = 0; i < out.length; i += 2) {
    const low = out[i]!;
    out[i] = out[i + 1]!;
    out[i + 1] = low;
  }
}

export function decompressHtj2k(src: Uint8Array, block: BlockLayout, expectedBytes: number): Uint8Array {
  const channels = block.channels;
  const { channelOfComponent, codestreamStart } = readHtChunkHeader(src, channels.length);
  const x1 = block.x0 + block.widthPx - 1;
  const y1 = block.y0 + block.heightPx - 1;
  const widths = channels.map((ch) => sampleCount(ch.xSampling, block.x0, x1));
  const heights = channels.map((ch) => sampleCount(ch.ySampling, block.y0, y1));

  // the codestream must describe this chunk exactly before it may size anything
  const check = (size: J2kSize) => {
    if (size.width !== block.widthPx || size.height !== block.heightPx) {
      throw invalid(`HTJ2K codestream is ${size.width}x${size.height}, the chunk ${block.widthPx}x${block.heightPx}`);
    }
    if (size.components.length !== channels.length)
      throw invalid(`HTJ2K codestream has ${size.components.length} components for ${channels.length} channels`);
    size.components.forEach((comp, i) => {
      const c = channelOfComponent[i]!;
      const ch = channels[c]!;
      if (comp.width !== widths[c] || comp.height !== heights[c] || comp.dx !== ch.xSampling || comp.dy !== ch.ySampling) {
        throw invalid(
          `HTJ2K component ${i} (${comp.width}x${comp.height}, sampling ${comp.dx}x${comp.dy}) does not match channel "${ch.name}"`,
        );
      }
    });
  };
  const codestream = src.subarray(codestreamStart);
  const fast = channels.every((ch) => ch.pixelType === 'half' && ch.xSampling === 1 && ch.ySampling === 1)
    ? decodeHalves(codestream, block, channelOfComponent, check, expectedBytes)
    : null;
  if (fast) return fast;
  const image = decodeJ2k(codestream, check);

  // lay the planes out as the chunk's scanlines: per line, each channel with samples on it; every
  // sample starts at an even byte, so the output is written in 16-bit units
  const out = new Uint8Array(expectedBytes);
  const out16 = new Uint16Array(out.buffer, 0, expectedBytes >> 1);
  const planeOfChannel = new Array<Int32Array | Float64Array>(channels.length);
  image.components.forEach((comp, i) => (planeOfChannel[channelOfComponent[i]!] = comp.data));
  const rowOfChannel = new Int32Array(channels.length);
  let pos = 0;
  for (let y = block.y0; y <= y1; y++) {
    for (let c = 0; c < channels.length; c++) {
      const ch = channels[c]!;
      if (ch.ySampling !== 1 && y - Math.floor(y / ch.ySampling) * ch.ySampling !== 0) continue;
      const w = widths[c]!;
      const plane = planeOfChannel[c]!;
      const start = rowOfChannel[c]! * w;
      rowOfChannel[c]!++;
      const units = PIXEL_TYPE_BYTES[ch.pixelType] >> 1;
      if (2 * (pos + w * units) > expectedBytes) throw invalid('HTJ2K chunk decodes to more bytes than the chunk holds');
      // OpenEXR keeps the low 16 or 32 bits of each reconstructed sample
      if (units === 1) {
        for (let x = 0; x < w; x++) out16[pos++] = plane[start + x]! & 0xffff;
      } else {
        for (let x = 0; x < w; x++, pos += 2) {
          const v = plane[start + x]! >>> 0;
          out16[pos] = v & 0xffff;
          out16[pos + 1] = v >>> 16;
        }
      }
    }
  }
  if (!LITTLE_ENDIAN) swapBytes(out);
  pos *= 2;
  if (pos !== expectedBytes) throw invalid(`HTJ2K chunk decodes to ${pos} bytes, expected ${expectedBytes}`);
  return out;
}
