// Files still being written: looked at again until they are whole, or reported cut short once they stop changing while
// incomplete; the chunks of one whose header is whole are walked as they land, so that it can be shown meanwhile.
import type { FileEntry } from '../../contract/host-api.js';
import type { SummaryResult } from '../headers/summary.js';
import { makeHandoff, type HeaderHandoff } from '../headers/header-handoff.js';
import type { PartInfo } from '../../codec/index.js';
import type { RenderWalk, RenderWalks } from './render-walks.js';

/** A file being looked at again: what it was at the last look, and since when it has not changed. */
export interface Settling {
  timer: NodeJS.Timeout;
  sizeBytes: number;
  mtimeMs: number;
  stableSinceMs: number;
}

export interface SettlingTiming {
  /** How often a file still being written is looked at again. */
  settlePollMs: number;
  /** A file unchanged this long that is still incomplete is reported as an error (cut short, not being written). */
  settleMs: number;
}

export class IncompleteFiles {
  constructor(
    private readonly timing: SettlingTiming,
    private readonly renderWalks: RenderWalks,
  ) {}

  /**
   * The entry for a file just read (`base`, from `result`), and its walk when it is incomplete with its header whole:
   * an incomplete one is looked at again (`lookAgain`) after settlePollMs, or, unchanged for settleMs, becomes an error
   * entry (the chunks it has can still be shown); a whole or unreadable one is looked at no more.
   */
  settle(
    settling: Map<string, Settling>,
    absPath: string,
    result: SummaryResult,
    base: FileEntry,
    lookAgain: () => void,
  ): { entry: FileEntry; walked: RenderWalk | null } {
    if (result.kind !== 'incomplete') {
      this.stop(settling, absPath);
      return { entry: base, walked: null };
    }
    const previous = settling.get(absPath);
    let entry = base;
    // its header whole: the chunks written so far are walked (on from the last look) and can be shown
    let walked = result.summary ? this.renderWalks.look(absPath) : null;
    const now = Date.now();
    const unchanged = previous && previous.sizeBytes === result.sizeBytes && previous.mtimeMs === result.mtimeMs;
    // first seen: unchanged since its modification time (a file cut short long ago is not being written)
    const stableSinceMs = unchanged ? previous.stableSinceMs : Math.min(now, result.mtimeMs);
    if (now - stableSinceMs >= this.timing.settleMs) {
      // it stopped changing and is still not whole: cut short, not being written
      this.stop(settling, absPath);
      const reason = walked ? `${walked.progress.chunksPresent} of ${walked.progress.chunksTotal} chunks are there` : result.reason;
      walked = null;
      entry = {
        ...entry,
        status: 'error',
        error: `the file is incomplete: ${reason}. It stopped changing before it was complete; write or copy it again`,
      };
      // its header is whole: the chunks it has can be shown (the rest marked as missing)
      if (result.summary) entry.summary = result.summary;
    } else {
      this.start(settling, absPath, { sizeBytes: result.sizeBytes, mtimeMs: result.mtimeMs, stableSinceMs }, lookAgain);
      // the version walked is the one its decodes read (their cache keys and the handed-over parse agree)
      if (walked) {
        const { sizeBytes, mtimeMs } = walked.identity;
        entry = { ...entry, sizeBytes, mtimeMs, summary: result.summary, rendering: walked.progress };
      }
    }
    return { entry, walked };
  }

  private start(settling: Map<string, Settling>, absPath: string, seen: Omit<Settling, 'timer'>, lookAgain: () => void): void {
    const old = settling.get(absPath);
    if (old) clearTimeout(old.timer);
    const timer = setTimeout(lookAgain, this.timing.settlePollMs);
    timer.unref();
    settling.set(absPath, { timer, ...seen });
  }

  /** The file is whole, gone or given up on: no more looks, no more walk. */
  stop(settling: Map<string, Settling>, absPath: string): void {
    this.renderWalks.forget(absPath);
    const s = settling.get(absPath);
    if (!s) return;
    clearTimeout(s.timer);
    settling.delete(absPath);
  }

  /** A folder closed: every file it was looking at again. */
  stopAll(settling: Map<string, Settling>): void {
    for (const s of settling.values()) clearTimeout(s.timer);
    for (const abs of settling.keys()) this.renderWalks.forget(abs);
  }
}

/** The header of a walked file, as the decode planner keeps it (the parse handed over with its identity). */
export function walkedHeader(walked: RenderWalk): {
  sizeBytes: number;
  mtimeMs: number;
  parts: PartInfo[];
  headerBytes: number;
  handoff: HeaderHandoff | null;
} {
  const { parsed, identity } = walked;
  const { sizeBytes, mtimeMs } = identity;
  return { sizeBytes, mtimeMs, parts: parsed.parts, headerBytes: parsed.headerEndByte, handoff: makeHandoff(identity, parsed) };
}
