// Wires host, store and engine outside React: the engine started, store changes routed to the parts that act on them
// (the image on screen, the player, compare, the Layers view), host events, thumbnails. Each part does one thing.
import type { DecodedImage, FileEntry, FolderInfo, HostInfo, PartSummary, ThumbnailMissing } from '../host-client/api-types.js';
import { GpuEngine } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import type { HistogramSource } from '../gpu/shown-histogram.js';
import type { RendererHost } from '../host-client/index.js';
import { LevelHistogram } from './level-histogram.js';
import { storeActions, type AppStore } from '../state/store.js';
import { PlaneFetcher } from '../loading/plane-fetcher.js';
import { ForegroundLoad } from '../loading/foreground-load.js';
import { documentSink, type DownloadSink } from './downloads.js';
import type { ExportOutcome } from './export-request.js';
import { runExport, type ExportOptions } from './export-runner.js';
import { ThumbnailRequests } from './thumbnail-requests.js';
import { Player } from './player.js';
import { frameAtRestFor, type FrameAtRest } from './frame-at-rest.js';
import { CompareController } from './compare-controller.js';
import { LayersView } from './layers-view.js';
import { CurrentImage, type ImageRecord } from './current-image.js';
import { Folders } from './folders.js';
import { PreviewFit } from './preview-fit.js';
import { startEngine } from './engine-start.js';
import { installColour, installColourReload, startColour } from './colour.js';
import { CryptomatteController } from './cryptomatte.js';
import { stepGridItem } from './grid-steps.js';
import { installFolderEvents } from './folder-events.js';
import { LiveVectors } from './live-vectors.js';
import { DetailRegion } from './detail-region.js';
import { VisibleThumbnails } from './visible-thumbnails.js';
import { playedChoice, shownFile, shownLayer, shownPart } from './shown-selection.js';
import { routeStoreChange } from './store-routes.js';

export type { ImageRecord } from './current-image.js';
export const THUMB_REQUEST_PX = 128;

export class Controller {
  /** The engine once started (null before); subscribe() tells when it arrives. */
  engine: ViewEngine | null = null;
  readonly actions;
  histogram: Uint32Array | null = null;
  /** What `histogram` counts: A, B, or a difference image's magnitude. */
  histogramSource: HistogramSource = 'a';
  /** Level 0's histogram of an image shown reduced, counted by the host with its statistics. */
  private readonly levelHistogram = new LevelHistogram();
  /** Whether `histogram` is level 0's (counted by the host), not the reduced level's on screen. */
  get histogramOfLevel0(): boolean {
    const held = this.levelHistogram.binsFor(this.store.getState());
    return held !== null && held === this.histogram;
  }
  /** What the host said at start (version and platform for Help ▸ About). */
  info: HostInfo | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly thumbs: ThumbnailRequests;
  /** The files the grid shows now: their thumbnails are asked for again after a device loss. */
  private readonly visible: VisibleThumbnails;
  /** Plays the sequence of the grid item on screen. */
  readonly player: Player;
  /** Makes the frame playback stops on the image on screen. */
  private readonly frameAtRest: FrameAtRest;
  readonly compare: CompareController;
  readonly layersView: LayersView;
  readonly image: CurrentImage;
  readonly folders: Folders;
  readonly view: PreviewFit;
  /** The Cryptomatte layer over the image on screen: its names, picks and matte export. */
  readonly cryptomatte: CryptomatteController;
  /** The crop of level 0 a view zoomed in past a reduced level needs (detail-region.ts). */
  readonly region: DetailRegion;
  /** A picked image loading, until its first sharp frame: the grid, its thumbnails and the analyses wait for it. */
  readonly foreground = new ForegroundLoad();
  /** Live images' vector graphics (tev's protocol), drawn by the preview's overlay. */
  readonly liveVectors = new LiveVectors();
  /** Why a file's thumbnail could not be made (the grid's broken-file mark), by file id. */
  readonly thumbFailures = new Map<string, string>();
  /** What a damaged file's thumbnail lacks (the grid's damaged badge), by file id. */
  readonly thumbDamage = new Map<string, ThumbnailMissing>();

  constructor(
    readonly host: RendererHost,
    readonly store: AppStore,
    private readonly downloadSink: () => DownloadSink = () => documentSink(),
  ) {
    const actions = (this.actions = storeActions(store));
    installColour(store, actions); // the OCIO processor follows the colour slice and the image on screen
    const gpu = (): GpuEngine | null => (this.engine instanceof GpuEngine ? this.engine : null);
    const fetcher = new PlaneFetcher(
      host,
      (key) => store.getState().library.files.find((f) => f.id === key.fileId)?.summary?.parts[key.part],
      () => gpu()?.fitWithin(),
    );
    this.folders = new Folders(host.api, store, actions);
    this.cryptomatte = new CryptomatteController({
      api: host.api,
      store,
      actions,
      setView: (view) => this.engine?.setCryptomatte(view),
      downloads: () => this.downloadSink(),
    });
    this.view = new PreviewFit(store, actions, () => this.currentPart());
    this.player = new Player({
      host,
      store,
      engine: gpu,
      choice: () => playedChoice(store.getState()),
    });
    this.frameAtRest = frameAtRestFor(this.player, store, actions);
    this.thumbs = new ThumbnailRequests(
      host.api,
      () => this.engine,
      THUMB_REQUEST_PX,
      () => this.emit(),
      (fileId, reason) => {
        this.thumbFailures.set(fileId, reason);
        actions.setUi({ status: `${store.getState().library.files.find((f) => f.id === fileId)?.name ?? fileId}: ${reason}` });
        this.emit();
      },
      (fileId, missing) => {
        this.thumbDamage.set(fileId, missing);
        this.emit();
      },
    );
    this.visible = new VisibleThumbnails(host.api, store, this.thumbs, this.foreground);
    this.layersView = new LayersView({
      engine: gpu,
      fetch: (key, channels) => fetcher.fetch(key, channels, 'prefetch'),
      key: () => {
        const s = store.getState();
        return s.image.currentFileId ? { fileId: s.image.currentFileId, part: s.image.part } : null;
      },
      part: () => this.currentPart(),
      sizePx: () => ({ ...this.view.sizePx, dpr: window.devicePixelRatio || 1 }),
      said: (status) => actions.setUi({ status }),
      drawn: (count) => {
        if (store.getState().inspect.layersDrawn !== count) actions.setInspect({ layersDrawn: count });
      },
    });
    this.compare = new CompareController({
      engine: () => this.engine,
      store,
      actions,
      currentPart: () => this.currentPart(),
      fetch: (key, channels) => fetcher.fetch(key, channels, 'prefetch'),
      foreground: this.foreground,
      levelStatistics: (request) => host.api.levelStatistics(request),
      cancel: (requestId) => host.api.cancel(requestId),
      levelHistogram: (fileId, bins) => {
        if (!this.levelHistogram.keep(store.getState(), fileId, bins)) return;
        this.histogram = bins;
        this.histogramSource = 'a';
        this.emit();
      },
    });
    this.region = new DetailRegion({
      host,
      store,
      engine: () => this.engine,
      currentPart: () => this.currentPart(),
      currentLayer: () => shownLayer(store.getState()),
      canvasSizePx: () => this.view.sizePx,
      said: (status) => actions.setUi({ status }),
    });
    this.image = new CurrentImage({
      host,
      store,
      actions,
      fetcher,
      foreground: this.foreground,
      engine: () => this.engine,
      recyclesPlanes: () => !!gpu(),
      currentFile: () => this.currentFile(),
      currentPart: () => this.currentPart(),
      fit: () => this.fit(),
      shown: () => {
        this.emit();
        void this.compare.analyse();
      },
    });
  }

  /** Diagnostics, the engine's arrival and others: re-read after each change. */
  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }
  private emit(): void {
    for (const l of this.listeners) l();
  }

  get records(): readonly ImageRecord[] {
    return this.image.records;
  }

  async start(): Promise<void> {
    // the served folder is listed while the GPU starts (seconds on a software GPU), and shown once it is up; files a
    // progressive open announces meanwhile are kept (folders.ts), and what they change is routed once it is up (below)
    const atStart = this.store.getState();
    installFolderEvents(this.host.api, {
      store: this.store,
      actions: this.actions,
      forgetTextures: (fileId) => this.engine?.forgetFile(fileId),
      thumbFailures: this.thumbFailures,
      thumbDamage: this.thumbDamage,
      thumbs: this.thumbs,
      refreshShown: () => void this.image.refreshChanged(),
      resyncReference: () => this.compare.resync(),
      visibleFileIds: () => this.visible.fileIds,
      requestVisibleThumbnails: () => this.visible.again(),
      loadSequences: (folderId) => void this.folders.loadSequences(folderId),
      refreshRegion: (fileId, region) => void this.image.refreshRegion(fileId, region),
      setVectorGraphics: (fileId, commands) => this.liveVectors.set(fileId, commands),
      selectFile: (fileId) => {
        if (this.store.getState().image.currentFileId !== fileId) this.actions.selectFile(fileId);
      },
    });
    const info = this.host.api.getInfo();
    const listing = info.then(({ folders }) => (folders[0] ? this.folders.list(folders[0].id) : null));
    // awaited below; a GPU that fails to start first leaves it unawaited, not unhandled
    listing.catch(() => {});
    const { engine, path, reason } = await startEngine();
    this.actions.setUi({ path, pathReason: reason });
    engine.onHistogram = (bins, source) => {
      // an image shown reduced: level 0's count, where the host made it, stands in for the reduced level's
      this.histogram = (source === 'a' && this.levelHistogram.binsFor(this.store.getState())) || bins;
      this.histogramSource = source;
      this.emit();
    };
    engine.onDeviceRestored = () => this.deviceRestored();
    engine.onGpuNotice = (message) => this.actions.setUi({ status: message });
    this.engine = engine;
    const hdr = engine.hdrSupport();
    this.actions.setHdrSupport({ available: hdr.available, reason: hdr.reason });
    this.compare.start();
    this.compare.pushView();
    // while a picked image loads the grid is not drawn and asks for nothing; then the grid's latest visible files are
    // asked for (and the host told the image on screen, so that it prefetches its neighbours only now)
    this.foreground.subscribe((loading) => {
      engine.holdGrid?.(loading);
      if (!loading) this.visible.again();
    });
    this.store.subscribe((s, prev) => routeStoreChange(this, engine, s, prev));
    routeStoreChange(this, engine, this.store.getState(), atStart);
    this.emit();
    this.info = await info;
    void startColour(this.host.api, this.actions, this.store, this.info); // $OCIO, when the host's environment sets it; the recent configs
    installColourReload(this.host.api, this.actions, this.store); // a config read from disk follows its edits there
    this.actions.setFolders(this.info.folders);
    const listed = await listing;
    if (listed) this.folders.apply(listed);
  }

  /** A new device holds nothing: the image, the reference, the Layers view and the visible thumbnails are handed over again. */
  private deviceRestored(): void {
    void this.image.show(false, false);
    this.region.changed(); // the crop of level 0 zoomed in on went with the device
    this.compare.resync();
    this.layersView.forget();
    if (this.store.getState().inspect.layersView) void this.layersView.update(true);
    this.visible.again();
  }

  /** A folder the Electron shell already opened (menu, recent, drop, OS): list it, and show the named file when given. */
  showFolder(folder: FolderInfo, selectFileName?: string): Promise<void> {
    return this.folders.show(folder, selectFileName);
  }
  openFolder(path?: string): Promise<void> {
    return this.folders.open(path);
  }

  /** Exports the selection through the current view (see export-runner). */
  exportSelection(options?: ExportOptions): Promise<ExportOutcome> {
    return runExport(this.host, this.store, this.actions, this.downloadSink, options);
  }

  /** Next (+1) or previous (-1) grid item (a sequence counts as one). */
  stepItem(delta: number): void {
    stepGridItem(this.store, this.actions, delta);
  }

  currentFile(): FileEntry | undefined {
    return shownFile(this.store.getState());
  }

  currentPart(): PartSummary | undefined {
    return shownPart(this.store.getState());
  }

  /** The crop of level 0 on the GPU holding pixel (x, y) of the image on screen (the readout reads it), if any. */
  detailAt(x: number, y: number): DecodedImage | null {
    return this.region.at(x, y);
  }

  setPreviewSize(widthPx: number, heightPx: number): void {
    this.view.resize(widthPx, heightPx);
    this.region.changed();
    this.engine?.invalidate();
    if (this.store.getState().inspect.layersView) this.layersView.layout();
  }

  fit(): void {
    this.view.fit();
  }
  zoomBy(factor: number): void {
    this.view.zoomBy(factor);
  }
  actualSize(): void {
    this.view.actualSize();
  }

  /** The grid says which files are visible: ask for the thumbnails the engine does not have yet. */
  requestThumbnails(fileIds: string[]): void {
    this.visible.request(fileIds);
  }

  get thumbsShown(): number {
    return this.thumbs.shown;
  }
}
