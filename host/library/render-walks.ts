// Files still being written, walked as they grow: each look walks the chunks on from where the last look stopped
// (refreshParsed), and the parse is handed to the decode workers so that they place the chunks without a walk of their own.

import { ExrReader, openFileSource, refreshParsed, type ParsedFile } from '../../codec/index.js';
import type { RenderProgress } from '../../contract/host-api.js';
import type { FileIdentity } from '../headers/header-handoff.js';

export interface RenderWalk {
  progress: RenderProgress;
  parsed: ParsedFile;
  identity: FileIdentity;
}

export class RenderWalks {
  private readonly walks = new Map<string, { parsed: ParsedFile; inode: number }>();
  /** Bytes read by the looks (tests: a look reads the tables and what was added since, not the file again). */
  bytesRead = 0;

  /**
   * The chunks of the file written so far, or null where it is whole now (its tables are filled) or cannot be walked
   * (the header is not all there, or is damaged: the library's summary says why).
   */
  look(absPath: string): RenderWalk | null {
    let source;
    try {
      source = openFileSource(absPath);
    } catch {
      this.walks.delete(absPath);
      return null;
    }
    try {
      const held = this.walks.get(absPath);
      // the same file grown (or rewritten in place: refreshParsed walks a shorter one afresh); another file starts over
      const parsed = held && held.inode === source.identity.inode ? refreshParsed(source, held.parsed) : ExrReader.open(source).parsed;
      if (!parsed.walk) {
        this.walks.delete(absPath);
        return null;
      }
      this.walks.set(absPath, { parsed, inode: source.identity.inode });
      const { chunksPresent, chunksTotal } = parsed.walk;
      return { progress: { chunksPresent, chunksTotal }, parsed, identity: { sizeBytes: source.sizeBytes, ...source.identity } };
    } catch {
      this.walks.delete(absPath);
      return null;
    } finally {
      this.bytesRead += source.stats.bytesRead;
      source.close();
    }
  }

  /** The offset tables of the file as last walked (a negative entry: that chunk is not written yet); null when not walked. */
  chunksThere(absPath: string): ParsedFile['offsets'] | null {
    return this.walks.get(absPath)?.parsed.offsets ?? null;
  }

  forget(absPath: string): void {
    this.walks.delete(absPath);
  }
}
