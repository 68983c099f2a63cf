// Open folders: scan for EXR files, header summaries, and live updates from the watcher (added, removed, changed, renamed, incomplete).

import { stat } from 'node:fs/promises';
import { basename, dirname, relative, sep } from 'node:path';
import type { PartInfo } from '../../codec/index.js';
import type { FileEntry, FolderInfo, HostEvent, SequenceInfo } from '../../contract/host-api.js';
import { framesPerSecondValue, listSequences } from './sequence-list.js';
import { parseFrameName } from './sequences.js';
import { readSummary, type SummaryResult } from '../headers/summary.js';
import type { TreeWatcher } from './watcher.js';
import { watchFolder } from './folder-watch.js';
import { RenderWalks } from './render-walks.js';
import { IncompleteFiles, walkedHeader, type Settling } from './incomplete-files.js';
import { fsReason } from '../io/fs-reason.js';
import {
  FIRST_FILES,
  SCAN_CONCURRENCY,
  findExrFiles,
  forEachLimited,
  isExrName,
  readAnnouncingBatches,
  sortEntries,
  sortPaths,
} from './folder-scan.js';
import type { HeaderHandoff } from '../headers/header-handoff.js';

export interface LibraryOptions {
  onEvent(event: HostEvent): void;
  /** A file changed or went away: drop what the caches hold for it. */
  onInvalidate(absPath: string): void;
  /** A whole file's header, as read for its summary: kept so that planning its decodes reads nothing. */
  onHeader?(
    absPath: string,
    header: { sizeBytes: number; mtimeMs: number; parts: PartInfo[]; headerBytes: number; handoff: HeaderHandoff | null },
  ): void;
  /** Browser mode: false for a path outside the served folder (after following symlinks). */
  allowPath(absPath: string): Promise<boolean>;
  /** What the user sees for a folder (absolute path, or a name relative to the served folder). */
  displayPath(absPath: string): string;
  /** Quiet time before a changed path is looked at. */
  watchDebounceMs: number;
  /** How often a file still being written is looked at again. */
  settlePollMs: number;
  /** A file unchanged this long that is still incomplete is reported as an error (cut short, not being written). */
  settleMs: number;
  /** How often a folder whose file events cannot be trusted (a network mount) is looked at. */
  pollIntervalMs: number;
}

export const DEFAULT_LIBRARY_TIMING = { watchDebounceMs: 100, settlePollMs: 500, settleMs: 5000, pollIntervalMs: 1000 };

/** Frames of a sequence being rendered arrive one after another: one 'sequences-changed' for a burst of them. */
const SEQUENCES_CHANGED_DELAY_MS = 100;

interface Folder {
  info: FolderInfo;
  root: string;
  entries: Map<string, FileEntry>;
  settling: Map<string, Settling>;
  watcher: TreeWatcher | null;
  /** Per-path chains so two looks at one file never interleave. */
  busy: Map<string, Promise<void>>;
  closed: boolean;
  /** The folder itself is gone (deleted or moved away): reported once. */
  rootGone: boolean;
  /** A 'sequences-changed' event waiting to go out. */
  sequencesTimer: NodeJS.Timeout | null;
}

export class Library {
  private readonly folders = new Map<string, Folder>();
  private readonly fileIds = new Map<string, string>();
  private readonly filesById = new Map<string, { folder: Folder; absPath: string }>();
  /** Each file's `framesPerSecond`, read with its header (sequences take their rate from their first frame). */
  private readonly framesPerSecond = new Map<string, number | null>();
  /** Sequence ids by folder and pattern: the same sequence keeps its id while the host runs. */
  private readonly sequenceIds = new Map<string, string>();
  private nextSequence = 1;
  private nextFolder = 1;
  private nextFile = 1;
  /** Files still being written whose header is whole: their chunks walked as they land. */
  readonly renderWalks = new RenderWalks();
  private readonly incomplete: IncompleteFiles;

  constructor(private readonly options: LibraryOptions) {
    this.incomplete = new IncompleteFiles(options, this.renderWalks);
  }

  private fileIdFor(absPath: string): string {
    let id = this.fileIds.get(absPath);
    if (!id) {
      id = `f${(this.nextFile++).toString(36)}`;
      this.fileIds.set(absPath, id);
    }
    return id;
  }

  /**
   * Scans the folder (header summaries of every EXR) and starts watching it. `root` is absolute and already allowed.
   * Progressive: returns once the first FIRST_FILES files in name order are read; the rest come as 'files-added' events.
   */
  async openFolder(root: string, recursive: boolean, progressive = false): Promise<FolderInfo> {
    for (const f of this.folders.values()) if (f.root === root && f.info.recursive === recursive) return f.info;
    const info: FolderInfo = { id: `d${(this.nextFolder++).toString(36)}`, displayPath: this.options.displayPath(root), recursive };
    const folder: Folder = {
      info,
      root,
      entries: new Map(),
      settling: new Map(),
      watcher: null,
      busy: new Map(),
      closed: false,
      rootGone: false,
      sequencesTimer: null,
    };
    // watch first, so a file written during the scan is not missed
    const watch = watchFolder(root, {
      recursive,
      debounceMs: this.options.watchDebounceMs,
      pollIntervalMs: this.options.pollIntervalMs,
      wanted: isExrName,
      onPath: (p) => void this.serial(folder, p, () => this.look(folder, p)),
      onError: (message) => this.options.onEvent({ type: 'folder-error', folderId: info.id, message }),
      onPolling: (message) => {
        info.polling = message;
        this.options.onEvent({ type: 'folder-error', folderId: info.id, message });
      },
    });
    folder.watcher = watch.watcher;
    if (watch.polling) info.polling = watch.polling;
    this.folders.set(info.id, folder);
    try {
      // in name order, so that the first files read are the first screen's
      const paths = sortPaths(root, await findExrFiles(root, folder.info));
      const first = progressive ? paths.slice(0, FIRST_FILES) : paths;
      await forEachLimited(first, SCAN_CONCURRENCY, (p) => this.serial(folder, p, () => this.refresh(folder, p, false)));
      if (first.length < paths.length) void this.scanRest(folder, paths.slice(first.length));
    } catch (error) {
      this.closeFolder(info.id);
      throw error;
    }
    return info;
  }

  /** The rest of a progressive open: read in name order, announced in batches, the sequences listed again at the end. */
  private async scanRest(folder: Folder, paths: readonly string[]): Promise<void> {
    await readAnnouncingBatches(
      paths,
      async (p) => {
        await this.serial(folder, p, () => this.refresh(folder, p, false));
        return folder.entries.get(p);
      },
      (files) => {
        if (!folder.closed) this.options.onEvent({ type: 'files-added', folderId: folder.info.id, files });
      },
    );
    const frame = paths.find((p) => parseFrameName(basename(p)));
    if (frame && !folder.closed) this.sequencesTouched(folder, frame);
  }

  closeFolder(folderId: string): void {
    const folder = this.folders.get(folderId);
    if (!folder) return;
    folder.closed = true;
    folder.watcher?.close();
    this.incomplete.stopAll(folder.settling);
    if (folder.sequencesTimer) clearTimeout(folder.sequencesTimer);
    for (const abs of folder.entries.keys()) this.filesById.delete(this.fileIdFor(abs));
    this.folders.delete(folderId);
  }

  folderInfos(): FolderInfo[] {
    return [...this.folders.values()].map((f) => f.info);
  }

  listFiles(folderId: string): FileEntry[] {
    const folder = this.folders.get(folderId);
    if (!folder) throw new Error(`folder ${folderId} is not open (it was closed, or the host restarted): open it again`);
    return sortEntries([...folder.entries.values()]);
  }

  /** The folder's frame sequences (their files stay in listFiles too). */
  listSequences(folderId: string): SequenceInfo[] {
    const folder = this.folders.get(folderId);
    if (!folder) throw new Error(`folder ${folderId} is not open (it was closed, or the host restarted): open it again`);
    return listSequences({
      folderId,
      entries: folder.entries.values(),
      idOf: (pattern) => {
        const key = `${folderId}\0${pattern}`;
        let id = this.sequenceIds.get(key);
        if (!id) this.sequenceIds.set(key, (id = `s${(this.nextSequence++).toString(36)}`));
        return id;
      },
      framesPerSecondOf: (fileId) => this.framesPerSecond.get(fileId) ?? null,
    });
  }

  /** A frame came, went or changed after the scan: the folder's sequences are to be listed again (once per burst). */
  private sequencesTouched(folder: Folder, absPath: string): void {
    if (folder.sequencesTimer || !parseFrameName(basename(absPath))) return;
    folder.sequencesTimer = setTimeout(() => {
      folder.sequencesTimer = null;
      if (!folder.closed) this.options.onEvent({ type: 'sequences-changed', folderId: folder.info.id });
    }, SEQUENCES_CHANGED_DELAY_MS);
    folder.sequencesTimer.unref();
  }

  /** The file behind an id, while its folder is open. */
  file(fileId: string): { entry: FileEntry; absPath: string; folderId: string } | undefined {
    const found = this.filesById.get(fileId);
    if (!found) return undefined;
    const entry = found.folder.entries.get(found.absPath);
    return entry ? { entry, absPath: found.absPath, folderId: found.folder.info.id } : undefined;
  }

  /** The files before and after this one in its folder's order (for prefetch). */
  neighbours(fileId: string): string[] {
    const found = this.filesById.get(fileId);
    if (!found) return [];
    const list = sortEntries([...found.folder.entries.values()]).filter((e) => e.status === 'ok');
    const i = list.findIndex((e) => e.id === fileId);
    if (i < 0) return [];
    return [list[i + 1], list[i - 1]].filter((e): e is FileEntry => e !== undefined).map((e) => e.id);
  }

  close(): void {
    for (const id of [...this.folders.keys()]) this.closeFolder(id);
  }

  private serial(folder: Folder, absPath: string, work: () => Promise<void>): Promise<void> {
    const previous = folder.busy.get(absPath) ?? Promise.resolve();
    const next = previous.then(work, work).catch((error: unknown) => {
      this.options.onEvent({ type: 'folder-error', folderId: folder.info.id, message: `${absPath}: ${(error as Error).message}` });
    });
    folder.busy.set(absPath, next);
    void next.then(() => {
      if (folder.busy.get(absPath) === next) folder.busy.delete(absPath);
    });
    return next;
  }

  /** A watcher report: a file or folder appeared, changed or went away. */
  private async look(folder: Folder, absPath: string): Promise<void> {
    if (folder.closed) return;
    let isDir = false;
    let exists = true;
    try {
      isDir = (await stat(absPath)).isDirectory();
    } catch {
      exists = false;
    }
    if (!exists) {
      this.removeUnder(folder, absPath);
      // the watcher names the folder's own deletion unreliably (Linux reports it under the folder's base name): check the root itself
      if (!folder.rootGone && !(await stat(folder.root).catch(() => null))) {
        folder.rootGone = true;
        this.removeUnder(folder, folder.root);
        this.options.onEvent({
          type: 'folder-error',
          folderId: folder.info.id,
          message: `folder ${folder.info.displayPath} no longer exists (it was deleted or moved): its images are gone from the list; open it again when it is back`,
        });
      }
      return;
    }
    if (isDir) {
      if (absPath !== folder.root && !folder.info.recursive) return;
      // a folder appeared, was renamed or changed: bring the entries under it up to date
      const found = new Set(await findExrFiles(absPath, folder.info, folder.root).catch(() => []));
      const prefix = absPath + sep;
      for (const known of [...folder.entries.keys()]) {
        if ((known.startsWith(prefix) || dirname(known) === absPath) && !found.has(known)) this.remove(folder, known);
      }
      for (const p of found) if (!folder.entries.has(p)) void this.serial(folder, p, () => this.refresh(folder, p, true));
      return;
    }
    if (!isExrName(basename(absPath))) return;
    if (!folder.info.recursive && dirname(absPath) !== folder.root) return;
    await this.refresh(folder, absPath, true);
  }

  private removeUnder(folder: Folder, absPath: string): void {
    const prefix = absPath + sep;
    for (const known of [...folder.entries.keys()]) if (known === absPath || known.startsWith(prefix)) this.remove(folder, known);
  }

  private remove(folder: Folder, absPath: string): void {
    const entry = folder.entries.get(absPath);
    if (!entry) return;
    folder.entries.delete(absPath);
    this.incomplete.stop(folder.settling, absPath);
    this.filesById.delete(entry.id);
    this.framesPerSecond.delete(entry.id);
    this.options.onInvalidate(absPath);
    this.options.onEvent({ type: 'files-removed', folderId: folder.info.id, fileIds: [entry.id] });
    this.sequencesTouched(folder, absPath);
  }

  /** Reads the file's header again and reports what changed. */
  private async refresh(folder: Folder, absPath: string, announce: boolean): Promise<void> {
    if (folder.closed) return;
    if (!(await this.options.allowPath(absPath))) return;
    let result: SummaryResult;
    try {
      result = await readSummary(absPath);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.remove(folder, absPath);
        return;
      }
      const message = fsReason(error);
      result = { kind: 'error', sizeBytes: 0, mtimeMs: 0, reason: `cannot read the file: ${message}` };
    }
    if (folder.closed) return;
    const lookAgain = () => void this.serial(folder, absPath, () => this.refresh(folder, absPath, true));
    const { entry, walked } = this.incomplete.settle(folder.settling, absPath, result, this.entryFrom(folder, absPath, result), lookAgain);
    const previous = folder.entries.get(absPath);
    const keepHeader = () => {
      if (result.kind === 'ok') this.options.onHeader?.(absPath, result);
      else if (walked) this.options.onHeader?.(absPath, walkedHeader(walked));
    };
    if (previous && sameEntry(previous, entry)) return keepHeader();
    folder.entries.set(absPath, entry);
    this.filesById.set(entry.id, { folder, absPath });
    if (result.kind === 'ok')
      this.framesPerSecond.set(
        entry.id,
        framesPerSecondValue(result.parts[0]?.attributes.find((a) => a.name === 'framesPerSecond')?.value),
      );
    // after what the caches held for the file's previous version is dropped
    if (previous) this.options.onInvalidate(absPath);
    keepHeader();
    if (!announce && !previous) return;
    this.options.onEvent({ type: previous ? 'files-changed' : 'files-added', folderId: folder.info.id, files: [entry] });
    this.sequencesTouched(folder, absPath);
  }

  private entryFrom(folder: Folder, absPath: string, result: SummaryResult): FileEntry {
    const entry: FileEntry = {
      id: this.fileIdFor(absPath),
      folderId: folder.info.id,
      relativePath: relative(folder.root, absPath).split(sep).join('/'),
      name: basename(absPath),
      sizeBytes: result.sizeBytes,
      mtimeMs: result.mtimeMs,
      status: result.kind,
    };
    if (result.kind === 'ok') entry.summary = result.summary;
    if (result.kind === 'error') entry.error = result.reason;
    return entry;
  }
}

function sameEntry(a: FileEntry, b: FileEntry): boolean {
  return a.sizeBytes === b.sizeBytes && a.mtimeMs === b.mtimeMs && a.status === b.status && a.error === b.error;
}
