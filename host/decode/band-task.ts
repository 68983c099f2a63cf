// The band task: rows of one level decoded in a worker straight into the planes the main thread shares with it.

import type { Box2i, MissingChunks, StageTimings } from '../../codec/index.js';
import { frameSamples, planeView } from './layout.js';
import { withReader } from './reader-cache.js';
import type { TaskContext, TaskOutput } from './task-handler.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface BandTaskArgs {
  path: string;
  part: number;
  lx: number;
  ly: number;
  /** Selected channels (header order is kept); null for every channel. */
  channels: string[] | null;
  /** The whole level the planes are laid out over, and the rows of it this band decodes. */
  frame: Box2i;
  region: Box2i;
  /** One SharedArrayBuffer per selected channel, laid out over `frame` from its first byte (it may be longer). */
  planes: SharedArrayBuffer[];
  /** The level's chunk store (its first bytes: it may be longer): filled while decoding ('fill'), or unpacked from without reading the file ('read'). */
  chunkStore?: { buffer: SharedArrayBuffer; mode: 'fill' | 'read' };
  /** The main thread's parse of the file, where it has one: the worker then does not parse it (header-handoff.ts). */
  handoff?: HeaderHandoff;
  /** Decode every chunk that can be, listing the others (the result's `missing`), rather than fail at the first. */
  tolerant?: boolean;
}

/** A band's stage timings, and with a tolerant decode the chunks of it that could not be read (their pixels zeroed). */
export type BandResult = StageTimings & { missing?: MissingChunks };

/** Decodes rows `region` of a level straight into the shared planes: one band of a level decode. */
export function bandTask(args: BandTaskArgs, ctx: TaskContext): TaskOutput<BandResult> {
  const { value: decoded, read } = withReader(
    args.path,
    (reader) => {
      const part = reader.part(args.part);
      const wanted = args.channels ? new Set(args.channels) : null;
      const selected = part.channels.filter((c) => !wanted || wanted.has(c.name));
      const planes = selected.map((c, i) => planeView(c.pixelType, args.planes[i]!, frameSamples(c, args.frame)));
      return reader.decode({
        part: args.part,
        lx: args.lx,
        ly: args.ly,
        region: args.region,
        ...(args.channels ? { channels: args.channels } : {}),
        into: { frame: args.frame, planes },
        ...(args.chunkStore
          ? {
              chunkStore: {
                bytes: storeView(args.chunkStore.buffer, reader.chunkStoreLayout(args.part, args.lx, args.ly).totalBytes),
                mode: args.chunkStore.mode,
              },
            }
          : {}),
        signal: ctx.signal,
        ...(args.tolerant ? { tolerant: true } : {}),
      });
    },
    args.handoff,
  );
  const { timings, missing } = decoded;
  return { result: { ...timings, readMs: read.readMs, bytesRead: read.bytesRead, ...(missing ? { missing } : {}) }, transfer: [] };
}

/** The store's first `byteLength` bytes; all of it when shorter (the reader then refuses it, saying so). */
function storeView(buffer: SharedArrayBuffer, byteLength: number): Uint8Array {
  return new Uint8Array(buffer, 0, Math.min(byteLength, buffer.byteLength));
}
