// What one fuzz case does: open the bytes and decode every part (every level's first and last, deep parts too), then classify the outcome.

import { flattenDeep } from '../../../codec/deep-flatten.js';
import { decodeDeep } from '../../../codec/deep.js';
import { ExrError } from '../../../codec/core/errors.js';
import { partLayers, previewOf } from '../../../codec/layers.js';
import { lumaChromaKind, lumaChromaToRgba } from '../../../codec/luma-chroma.js';
import { ExrReader } from '../../../codec/reader.js';
import { channelStats } from '../../../codec/stats.js';
import type { ByteSource } from '../../../codec/source.js';

export type Verdict = 'decoded' | 'refused' | 'crash';

export interface Outcome {
  verdict: Verdict;
  /** The error kind for refusals; the error class for crashes. */
  kind?: string;
  reason?: string;
}

/** Marks a read outside the file: the ByteSource contract says the reader never asks for one. */
const CONTRACT = 'fuzz: read outside the file';

/** Like the file source: exact reads inside the file, anything else is a reader bug (not damage). */
export function strictSource(bytes: Uint8Array): ByteSource {
  return {
    sizeBytes: bytes.length,
    readAt(byteOffset, byteLength) {
      if (
        !Number.isSafeInteger(byteOffset) ||
        !Number.isSafeInteger(byteLength) ||
        byteOffset < 0 ||
        byteLength < 0 ||
        byteOffset + byteLength > bytes.length
      ) {
        throw new TypeError(`${CONTRACT}: ${byteLength} bytes at ${byteOffset} of ${bytes.length}`);
      }
      return bytes.subarray(byteOffset, byteOffset + byteLength);
    },
  };
}

/**
 * The codec wraps whatever it throws into an ExrError (asExrError), so a TypeError from a missing
 * check would pass as a refusal. These reasons are engine errors that a typed check should have
 * caught first: they count as crashes.
 */
const ENGINE_REASON = new RegExp(
  [
    CONTRACT,
    'Cannot read properties of',
    'Cannot set properties of',
    'is not a function',
    'is not iterable',
    'is not defined',
    'Maximum call stack',
    'Invalid typed array length',
    'Invalid array length',
    'Array buffer allocation failed',
    'Out of memory',
    'BigInt',
    'must be of type',
  ].join('|'),
);

export function exercise(bytes: Uint8Array): Outcome {
  try {
    const reader = ExrReader.open(strictSource(bytes));
    for (const part of reader.parts) {
      if (part.isDeep) {
        const image = decodeDeep(reader, { part: part.index });
        flattenDeep(image);
        continue;
      }
      // what the host derives from a header: layers, views, the preview
      partLayers(part.channels, part.attributes);
      previewOf(part.attributes);
      const image = reader.decode({ part: part.index });
      for (const channel of image.channels) channelStats(channel);
      if (lumaChromaKind(part.channels.map((c) => c.name))) lumaChromaToRgba(image, part.chromaticities);
      // the smallest level too: a different chunk geometry with every level mode
      const last = part.levels[part.levels.length - 1];
      if (last && (last.lx !== 0 || last.ly !== 0)) reader.decode({ part: part.index, lx: last.lx, ly: last.ly });
      // a region that starts and ends inside chunks, and one channel: the paths the viewer's tiles and the thumbnails take
      const w = part.dataWindow;
      const region = {
        xMin: w.xMin + ((w.xMax - w.xMin) >> 2),
        yMin: w.yMin + ((w.yMax - w.yMin) >> 2),
        xMax: w.xMax - ((w.xMax - w.xMin) >> 3),
        yMax: w.yMax - ((w.yMax - w.yMin) >> 3),
      };
      const first = part.channels[part.channels.length - 1];
      reader.decode({ part: part.index, region, ...(first ? { channels: [first.name] } : {}) });
    }
    return { verdict: 'decoded' };
  } catch (error) {
    return classify(error);
  }
}

/** A thrown value as a verdict: an ExrError with a real reason is a refusal; anything else is a crash. */
export function classify(error: unknown): Outcome {
  if (error instanceof ExrError) {
    if (ENGINE_REASON.test(error.reason) || error.reason.length === 0)
      return { verdict: 'crash', kind: `ExrError(${error.kind})`, reason: error.reason };
    return { verdict: 'refused', kind: error.kind, reason: error.reason };
  }
  const e = error as Error;
  return {
    verdict: 'crash',
    kind: e?.constructor?.name ?? typeof error,
    reason: `${e?.message ?? String(error)}\n${(e?.stack ?? '').split('\n').slice(1, 6).join('\n')}`,
  };
}

/** A reason text (e.g. one a caller turned into a plain message) that is an engine error, not a typed refusal. */
export const isEngineReason = (reason: string): boolean => ENGINE_REASON.test(reason);
