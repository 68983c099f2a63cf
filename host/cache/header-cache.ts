// The parsed headers of files by path and version (size, mtime): the library reads every header as it lists a folder,
// and planning a thumbnail or a decode of the same file then reads nothing (a header read is four file operations on
// the thread pool the encoders and cache writes share, and the workers wait for the plan).

import type { PartInfo } from '../../codec/index.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';
import { readHeader } from '../headers/summary.js';
import { RamCache } from './ram-cache.js';

interface Kept {
  sizeBytes: number;
  mtimeMs: number;
  parts: PartInfo[];
  /** The whole parse for the decode workers, where the offset tables were read (header-handoff.ts). */
  handoff: HeaderHandoff | null;
}

/** Parsed headers cost a few times their bytes on disk in objects: a bound on what one entry holds. */
const OBJECT_OVERHEAD_BYTES = 4096;

export class HeaderCache {
  /** By path: one version of a file at a time. */
  private readonly kept: RamCache<Kept>;
  hits = 0;
  reads = 0;

  /** `budgetBytes`: about 2,000 4K renders' headers at the default. */
  constructor(budgetBytes = 32 << 20) {
    this.kept = new RamCache<Kept>(budgetBytes);
  }

  /** Keeps a header just read (the least recently used go past the budget). */
  put(
    path: string,
    sizeBytes: number,
    mtimeMs: number,
    parts: PartInfo[],
    headerBytes: number,
    handoff: HeaderHandoff | null = null,
  ): void {
    this.kept.set(path, { sizeBytes, mtimeMs, parts, handoff }, 2 * headerBytes + (handoff?.byteLength ?? 0) + OBJECT_OVERHEAD_BYTES);
  }

  /** The header of exactly this version of the file, or null. */
  get(path: string, sizeBytes: number, mtimeMs: number): PartInfo[] | null {
    const kept = this.kept.peek(path);
    if (!kept || kept.sizeBytes !== sizeBytes || kept.mtimeMs !== mtimeMs) return null;
    // most recently used now
    this.kept.get(path);
    this.hits++;
    return kept.parts;
  }

  /** The handoff kept with exactly this version of the file's header, or null (not read yet, or its tables were not). */
  handoffOf(path: string, sizeBytes: number, mtimeMs: number): HeaderHandoff | null {
    const kept = this.kept.peek(path);
    return kept && kept.sizeBytes === sizeBytes && kept.mtimeMs === mtimeMs ? kept.handoff : null;
  }

  /** The kept header, else read now and kept: an array when no file had to be read. */
  partsOf(path: string, sizeBytes: number, mtimeMs: number): PartInfo[] | Promise<PartInfo[]> {
    const kept = this.get(path, sizeBytes, mtimeMs);
    if (kept) return kept;
    this.reads++;
    return readHeader(path).then(({ parts, headerBytes, handoff }) => {
      this.put(path, sizeBytes, mtimeMs, parts, headerBytes, handoff);
      return parts;
    });
  }

  forget(path: string): void {
    this.kept.delete(path);
  }

  get sizeBytes(): number {
    return this.kept.sizeBytes;
  }
}
