// The one store: typed slices (library, view, image, ui) and actions callable outside React.
// Per-pointer-move values (pan/zoom, the pixel under the cursor) live here too but no component subscribes to them.
import { createStore } from 'zustand/vanilla';
import type { DecodedImage, FileEntry, FileHeader, FolderInfo, SequenceInfo } from '../host-client/api-types.js';
import type { LoopMode } from '../playback/clock.js';
import { DEFAULT_DISPLAY, DEFAULT_HDR, type DisplayParams, type HdrOutput } from '../../shaders/display-params.js';
import type { PanZoom } from '../model/view-geometry.js';
import type { ChannelPick } from '../model/layer-choice.js';
import { pruneSelection, type Selection } from './selection.js';
import type { ExportOutcome } from './export-outcome.js';
import { initialCompare, initialInspect, type CompareSlice, type InspectSlice } from './compare-state.js';
import type { CompareMode } from '../../shaders/compare-params.js';
import { defaultLayout, type LayoutSlice } from './layout.js';
import { initialColour, type ColourSlice } from './colour.js';
import { initialCryptomatte, type CryptomatteSlice } from './cryptomatte.js';
import { channelForNextImage, initialExpressions, type ExpressionsSlice } from './expressions.js';

export type SortKey = 'name' | 'mtime' | 'size';

export interface LibrarySlice {
  folders: FolderInfo[];
  folderId: string | null;
  files: FileEntry[];
  /** The folder's frame sequences: each shows as one grid item (its files are in `files` too). */
  sequences: SequenceInfo[];
  filter: string;
  sort: SortKey;
  thumbsDone: number;
  thumbsTotal: number;
  recent: string[];
  /** Selected file ids (multi-select in the grid); the focused one is image.currentFileId. */
  selection: string[];
  /** Where Shift ranges start. */
  anchor: string | null;
}

export interface ViewSlice {
  display: DisplayParams;
  /** HDR output: what the engine found (null until it started) and the settings kept while it is off. */
  hdr: { support: { available: boolean; reason: string } | null; settings: HdrOutput };
  /** Not rendered by React: the engine subscribes. */
  panZoom: PanZoom;
  /** Wipe divider position, a fraction of the preview (dragged: no component subscribes). */
  wipeFraction: number;
}

export interface ImageSlice {
  currentFileId: string | null;
  part: number;
  layer: string;
  channel: ChannelPick;
  header: FileHeader | null;
  loading: boolean;
  error: string | null;
  /** CPU copy of the decoded image on screen, for the pixel inspector (not rendered by React). */
  decoded: DecodedImage | null;
}

export interface UiSlice {
  diagnosticsOpen: boolean;
  helpOpen: boolean;
  /** What the help overlay shows: the shortcuts (?) or About (Electron's Help menu). */
  helpTopic: 'shortcuts' | 'about';
  headerOpen: boolean;
  path: 'starting' | 'gpu' | 'cpu';
  pathReason: string;
  status: string;
}

/** The player's settings (the frame on screen is not here: it changes every frame, the player owns it). */
export interface PlaybackSlice {
  /** The sequence of the grid item on screen, or null when a single image is shown. */
  sequenceId: string | null;
  playing: boolean;
  /** 1 forwards (L), -1 backwards (J). */
  direction: 1 | -1;
  mode: LoopMode;
  /** The sequence's `framesPerSecond` attribute, else 24, until the user sets another. */
  fps: number;
  /** In and out points (frame numbers); null: the sequence's first / last frame. */
  inFrame: number | null;
  outFrame: number | null;
}

export type ExportKind = 'image' | 'thumbnail';
export type ExportFormat = 'png' | 'jpg';

export interface ExportSlice {
  open: boolean;
  kind: ExportKind;
  format: ExportFormat;
  /** Long side of exported thumbnails. */
  longSidePx: number;
  running: boolean;
  /** What the last export did (null before the first, and while one runs). */
  outcome: ExportOutcome | null;
}

export interface AppState {
  library: LibrarySlice;
  view: ViewSlice;
  image: ImageSlice;
  ui: UiSlice;
  export: ExportSlice;
  playback: PlaybackSlice;
  compare: CompareSlice;
  inspect: InspectSlice;
  layout: LayoutSlice;
  colour: ColourSlice;
  cryptomatte: CryptomatteSlice;
  expressions: ExpressionsSlice;
}

/** A third of a stop, as cameras and grading panels step. */
export const EXPOSURE_STEP_EV = 1 / 3;
export const EXPOSURE_RANGE_EV = 20;

export function initialState(): AppState {
  return {
    library: {
      folders: [],
      folderId: null,
      files: [],
      sequences: [],
      filter: '',
      sort: 'name',
      thumbsDone: 0,
      thumbsTotal: 0,
      recent: [],
      selection: [],
      anchor: null,
    },
    view: {
      display: { ...DEFAULT_DISPLAY },
      panZoom: { zoom: 1, centerX: 0, centerY: 0 },
      hdr: { support: null, settings: { ...DEFAULT_HDR } },
      wipeFraction: 0.5,
    },
    image: { currentFileId: null, part: 0, layer: '', channel: 'rgb', header: null, loading: false, error: null, decoded: null },
    ui: {
      diagnosticsOpen: false,
      helpOpen: false,
      helpTopic: 'shortcuts',
      headerOpen: false,
      path: 'starting',
      pathReason: '',
      status: '',
    },
    export: { open: false, kind: 'image', format: 'png', longSidePx: 256, running: false, outcome: null },
    playback: { sequenceId: null, playing: false, direction: 1, mode: 'loop', fps: 24, inFrame: null, outFrame: null },
    compare: initialCompare(),
    inspect: initialInspect(),
    layout: defaultLayout(1280),
    colour: initialColour(),
    cryptomatte: initialCryptomatte(),
    expressions: initialExpressions(),
  };
}

export type AppStore = ReturnType<typeof createAppStore>;

export function createAppStore() {
  return createStore<AppState>()(() => initialState());
}

/** Files in the grid's order: filtered by name (case-insensitive substring), then sorted. */
/** One collator for every name sort: localeCompare with options makes one per call, slow over 10,000 names. */
const NUMERIC_NAMES = new Intl.Collator(undefined, { numeric: true });

export function visibleFiles(lib: LibrarySlice): FileEntry[] {
  const f = lib.filter.trim().toLowerCase();
  const list = f ? lib.files.filter((x) => x.name.toLowerCase().includes(f)) : lib.files.slice();
  const by: Record<SortKey, (a: FileEntry, b: FileEntry) => number> = {
    name: (a, b) => NUMERIC_NAMES.compare(a.relativePath, b.relativePath),
    mtime: (a, b) => b.mtimeMs - a.mtimeMs || a.name.localeCompare(b.name),
    size: (a, b) => b.sizeBytes - a.sizeBytes || a.name.localeCompare(b.name),
  };
  return list.sort(by[lib.sort]);
}

/** The grid's selection as the selection logic sees it. */
export function selectionOf(s: AppState): Selection {
  return { ids: s.library.selection, anchor: s.library.anchor, focus: s.image.currentFileId };
}

export function clampExposure(ev: number): number {
  return Math.min(Math.max(Math.round(ev * 100) / 100, -EXPOSURE_RANGE_EV), EXPOSURE_RANGE_EV);
}

/** Actions on a store: plain functions, usable from React handlers, the controller and tests alike. */
export function storeActions(store: AppStore) {
  const set = (fn: (s: AppState) => Partial<AppState>): void => store.setState((s) => ({ ...s, ...fn(s) }));
  return {
    setDisplay(patch: Partial<DisplayParams>): void {
      set((s) => ({ view: { ...s.view, display: { ...s.view.display, ...patch } } }));
    },
    setExposure(ev: number): void {
      set((s) => ({ view: { ...s.view, display: { ...s.view.display, exposureEv: clampExposure(ev) } } }));
    },
    stepExposure(steps: number): void {
      // on the grid of steps (0.33 + 0.33 would drift off the thirds)
      const ev = (Math.round(store.getState().view.display.exposureEv / EXPOSURE_STEP_EV) + steps) * EXPOSURE_STEP_EV;
      set((s) => ({ view: { ...s.view, display: { ...s.view.display, exposureEv: clampExposure(ev) } } }));
    },
    setHdrSupport(support: { available: boolean; reason: string }): void {
      set((s) => ({ view: { ...s.view, hdr: { ...s.view.hdr, support } } }));
    },
    /** Turns HDR output on (with the kept settings) or off; refused, leaving it off, where the support check said no. */
    setHdrOutput(on: boolean): void {
      set((s) => ({
        view: { ...s.view, display: { ...s.view.display, hdr: on && s.view.hdr.support?.available ? { ...s.view.hdr.settings } : null } },
      }));
    },
    setHdrSettings(patch: Partial<HdrOutput>): void {
      set((s) => {
        const settings = { ...s.view.hdr.settings, ...patch };
        return {
          view: {
            ...s.view,
            hdr: { ...s.view.hdr, settings },
            display: s.view.display.hdr ? { ...s.view.display, hdr: settings } : s.view.display,
          },
        };
      });
    },
    setPanZoom(v: PanZoom): void {
      set((s) => ({ view: { ...s.view, panZoom: v } }));
    },
    setFiles(folderId: string, files: FileEntry[]): void {
      set((s) => ({ library: { ...s.library, folderId, files, selection: [], anchor: null } }));
    },
    upsertFiles(files: FileEntry[]): void {
      set((s) => {
        const byId = new Map(s.library.files.map((f) => [f.id, f]));
        for (const f of files) byId.set(f.id, f);
        return { library: { ...s.library, files: [...byId.values()] } };
      });
    },
    removeFiles(ids: string[]): void {
      const gone = new Set(ids);
      set((s) => {
        const sel = pruneSelection(selectionOf(s), (id) => !gone.has(id));
        return {
          library: { ...s.library, files: s.library.files.filter((f) => !gone.has(f.id)), selection: [...sel.ids], anchor: sel.anchor },
        };
      });
    },
    setFolders(folders: FolderInfo[]): void {
      set((s) => ({
        library: { ...s.library, folders, recent: [...new Set([...folders.map((f) => f.displayPath), ...s.library.recent])].slice(0, 8) },
      }));
    },
    setSequences(sequences: SequenceInfo[]): void {
      set((s) => ({ library: { ...s.library, sequences } }));
    },
    setPlayback(patch: Partial<PlaybackSlice>): void {
      set((s) => ({ playback: { ...s.playback, ...patch } }));
    },
    setFilter(filter: string): void {
      set((s) => ({ library: { ...s.library, filter } }));
    },
    setSort(sort: SortKey): void {
      set((s) => ({ library: { ...s.library, sort } }));
    },
    setThumbProgress(done: number, total: number): void {
      set((s) => ({ library: { ...s.library, thumbsDone: done, thumbsTotal: total } }));
    },
    /** Shows one file and makes it the whole selection. */
    selectFile(fileId: string | null): void {
      set((s) => ({
        library: { ...s.library, selection: fileId === null ? [] : [fileId], anchor: fileId },
        image: {
          ...s.image,
          currentFileId: fileId,
          part: 0,
          layer: '',
          channel: channelForNextImage(s.image.channel),
          header: null,
          error: null,
        },
      }));
    },
    /**
     * Makes another frame of the sequence on screen the image (playback stopped on it): the part, layer and channel
     * stay, as does the header until the frame's own arrives; the grid selection stays on the sequence.
     */
    showFrame(fileId: string): void {
      set((s) => (s.image.currentFileId === fileId ? s : { image: { ...s.image, currentFileId: fileId, error: null } }));
    },
    /** Applies a selection from the grid; its focus becomes the image on screen. */
    select(sel: Selection): void {
      set((s) => ({
        library: { ...s.library, selection: [...sel.ids], anchor: sel.anchor },
        image:
          sel.focus === s.image.currentFileId
            ? s.image
            : {
                ...s.image,
                currentFileId: sel.focus,
                part: 0,
                layer: '',
                channel: channelForNextImage(s.image.channel),
                header: null,
                error: null,
              },
      }));
    },
    setExport(patch: Partial<ExportSlice>): void {
      set((s) => ({ export: { ...s.export, ...patch } }));
    },
    setPart(part: number): void {
      set((s) => ({ image: { ...s.image, part, layer: '', channel: channelForNextImage(s.image.channel) } }));
    },
    setLayer(layer: string): void {
      set((s) => ({ image: { ...s.image, layer, channel: 'rgb' } }));
    },
    setChannel(channel: ChannelPick): void {
      set((s) => ({ image: { ...s.image, channel } }));
    },
    setImage(patch: Partial<ImageSlice>): void {
      set((s) => ({ image: { ...s.image, ...patch } }));
    },
    setUi(patch: Partial<UiSlice>): void {
      set((s) => ({ ui: { ...s.ui, ...patch } }));
    },
    toggleDiagnostics(): void {
      set((s) => ({ ui: { ...s.ui, diagnosticsOpen: !s.ui.diagnosticsOpen } }));
    },
    toggleHeader(): void {
      set((s) => ({ ui: { ...s.ui, headerOpen: !s.ui.headerOpen } }));
    },
    toggleHelp(): void {
      set((s) => ({ ui: { ...s.ui, helpOpen: !s.ui.helpOpen, helpTopic: 'shortcuts' } }));
    },
    setCompare(patch: Partial<CompareSlice>): void {
      set((s) => ({ compare: { ...s.compare, ...patch } }));
    },
    setInspect(patch: Partial<InspectSlice>): void {
      set((s) => ({ inspect: { ...s.inspect, ...patch } }));
    },
    setLayout(patch: Partial<LayoutSlice>): void {
      set((s) => ({ layout: { ...s.layout, ...patch } }));
    },
    setColour(patch: Partial<ColourSlice>): void {
      set((s) => ({ colour: { ...s.colour, ...patch } }));
    },
    setCryptomatte(patch: Partial<CryptomatteSlice>): void {
      set((s) => ({ cryptomatte: { ...s.cryptomatte, ...patch } }));
    },
    setExpressions(patch: Partial<ExpressionsSlice>): void {
      set((s) => ({ expressions: { ...s.expressions, ...patch } }));
    },
    setWipe(fraction: number): void {
      set((s) => ({ view: { ...s.view, wipeFraction: Math.min(Math.max(fraction, 0), 1) } }));
    },
    /** The image on screen (its part, layer and channel) becomes the reference; again on the reference clears it. */
    toggleReference(): void {
      const s = store.getState();
      const file = s.library.files.find((f) => f.id === s.image.currentFileId);
      if (!file?.summary) return;
      const r = s.compare.reference;
      const same = r && r.file.id === file.id && r.part === s.image.part && r.layer === s.image.layer && r.channel === s.image.channel;
      set((st) => ({
        compare: {
          ...st.compare,
          reference: same ? null : { file, part: s.image.part, layer: s.image.layer, channel: s.image.channel },
          metrics: same ? null : st.compare.metrics,
        },
      }));
    },
    setCompareMode(mode: CompareMode): void {
      set((s) => ({ compare: { ...s.compare, mode, showB: mode === 'flip' ? s.compare.showB : false } }));
    },
    /** A/B flip: switches to flip mode, or shows the other image when already in it. */
    flip(): void {
      set((s) => ({ compare: { ...s.compare, mode: 'flip', showB: s.compare.mode === 'flip' ? !s.compare.showB : true } }));
    },
    /** Next (+1) or previous (-1) image in the grid's order. */
    stepImage(delta: number): string | null {
      const s = store.getState();
      const files = visibleFiles(s.library);
      if (!files.length) return null;
      const i = files.findIndex((f) => f.id === s.image.currentFileId);
      const next = files[i < 0 ? 0 : (i + delta + files.length) % files.length]!;
      this.selectFile(next.id);
      return next.id;
    },
  };
}

export type StoreActions = ReturnType<typeof storeActions>;
