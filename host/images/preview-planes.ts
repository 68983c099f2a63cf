// The planes a file's first preview takes, from its header summary alone: what the host makes plane memory ready for.

import type { FileEntry, PartSummary } from '../../contract/host-api.js';
import { frameBytes } from '../playback/frame-bytes.js';

/** The first flat part and its first layer (RGBA first): what a preview shows first, and what a prefetch decodes. */
export function firstPreview(summary: FileEntry['summary']): { part: PartSummary; channels: string[] } | null {
  const part = summary?.parts.find((p) => p.type === 'scanlineimage' || p.type === 'tiledimage');
  const layer = part?.layers[0];
  return part && layer ? { part, channels: layer.channels } : null;
}

/** Bytes of each plane of the file's first preview (level 0), header order; empty when it has none (deep, unreadable). */
export function previewPlaneBytes(entry: Pick<FileEntry, 'status' | 'summary'>): number[] {
  const first = entry.status === 'ok' ? firstPreview(entry.summary) : null;
  if (!first) return [];
  return first.part.channels.filter((c) => first.channels.includes(c.name)).map((c) => frameBytes(first.part, [c.name])!);
}

/** The plane sizes of the largest first preview among the files: buffers made for them serve the smaller ones' planes too. */
export function largestPreviewPlanes(entries: readonly Pick<FileEntry, 'status' | 'summary'>[]): number[] {
  let best: number[] = [];
  let bestBytes = 0;
  for (const entry of entries) {
    const planes = previewPlaneBytes(entry);
    const bytes = planes.reduce((a, b) => a + b, 0);
    if (bytes > bestBytes) [best, bestBytes] = [planes, bytes];
  }
  return best;
}
