// Folders into the store: listing a folder's files and sequences, opening one (by path or the host's dialog), and
// showing a folder the shell opened with a named file selected. Each failure says what to do.
import type { FileEntry, FolderInfo, HostApi, SequenceInfo } from '../host-client/api-types.js';
import type { AppStore, StoreActions } from '../state/store.js';

export interface FolderListing {
  folderId: string;
  files: FileEntry[];
  sequences: SequenceInfo[];
}

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class Folders {
  constructor(
    private readonly api: HostApi,
    private readonly store: AppStore,
    private readonly actions: StoreActions,
  ) {}

  async load(folderId: string): Promise<void> {
    this.apply(await this.list(folderId));
  }

  /** The folder's files and sequences from the host, not yet shown (the app's start fetches them while the GPU starts). */
  async list(folderId: string): Promise<FolderListing> {
    const files = await this.api.listFiles(folderId);
    return { folderId, files, sequences: await this.api.listSequences(folderId) };
  }

  /** A listing into the store: the grid shows it. */
  apply({ folderId, files: listed, sequences }: FolderListing): void {
    // a folder still being read (a progressive open) announces its files as it goes: those that came in while the
    // listing was on its way stay (events and replies travel apart); a file an event changed meanwhile (a render that
    // stopped, cut short) keeps the event's entry, since every change sends one and the last to arrive is the newest
    const inListing = new Set(listed.map((f) => f.id));
    const announced = new Map(
      this.store
        .getState()
        .library.files.filter((f) => f.folderId === folderId)
        .map((f) => [f.id, f]),
    );
    const arrived = [...announced.values()].filter((f) => !inListing.has(f.id));
    const files = [...listed.map((f) => announced.get(f.id) ?? f), ...arrived];
    const before = this.store.getState();
    this.actions.setSequences(sequences);
    this.actions.setFiles(folderId, files);
    // another folder: the image of the last one leaves the preview (and its figures the panels) until one is picked
    const current = before.image.currentFileId;
    if (current !== null && (before.library.folderId !== folderId || !files.some((f) => f.id === current))) this.actions.selectFile(null);
    this.actions.setUi({
      status: `${files.length} files${sequences.length ? `, ${sequences.length} sequence${sequences.length === 1 ? '' : 's'}` : ''}`,
    });
  }

  async loadSequences(folderId: string): Promise<void> {
    try {
      this.actions.setSequences(await this.api.listSequences(folderId));
    } catch (e) {
      this.actions.setUi({ status: `could not list the folder's sequences: ${reasonOf(e)}. Open the folder again.` });
    }
  }

  private remember(folder: FolderInfo): void {
    this.actions.setFolders([folder, ...this.store.getState().library.folders.filter((f) => f.id !== folder.id)]);
  }

  /** A folder the Electron shell already opened (menu, recent, drop, OS): list it, and show the named file when given. */
  async show(folder: FolderInfo, selectFileName?: string): Promise<void> {
    this.remember(folder);
    try {
      await this.load(folder.id);
    } catch (e) {
      this.actions.setUi({
        status: `could not list ${folder.displayPath}: ${reasonOf(e)}. Check the folder is readable, then open it again.`,
      });
      return;
    }
    if (selectFileName === undefined) return;
    const file = this.store.getState().library.files.find((f) => f.relativePath === selectFileName || f.name === selectFileName);
    if (file) this.actions.selectFile(file.id);
    else
      this.actions.setUi({ status: `${selectFileName} is not in ${folder.displayPath} (yet): it shows in the grid once it is readable` });
  }

  async open(path?: string): Promise<void> {
    try {
      const folder = await this.api.openFolder(path);
      if (!folder) return;
      this.remember(folder);
      await this.load(folder.id);
    } catch (e) {
      this.actions.setUi({ status: `could not open ${path ?? 'folder'}: ${reasonOf(e)}` });
    }
  }
}
