// Wires host, store and engine outside React: folders, thumbnails, the image on screen, per-image timings.
import type { DecodedImage, FileEntry, FolderInfo, HostInfo, PartSummary, StageTimingsMs } from '../host-client/api-types.js';
import { CpuEngine } from '../cpu/cpu-engine.js';
import { NoWebGpuError } from '../gpu/device.js';
import { GpuEngine, type ImageKey, type ShowReport, type TextureSource } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import type { HistogramSource } from '../gpu/shown-histogram.js';
import { fitView, oneToOne, zoomAt, type PanZoom } from '../model/view-geometry.js';
import type { RendererHost } from '../host-client/index.js';
import { maxSampleCount, SAMPLES_PLANE, samplesDisplay, withSampleCountPlane } from '../model/deep-samples.js';
import { layerChoice, planesOf } from '../model/layer-choice.js';
import { gridItems, sequenceOf } from '../state/grid-items.js';
import { storeActions, type AppStore } from '../state/store.js';
import { documentSink, type DownloadSink } from './downloads.js';
import type { ExportOutcome } from './export-request.js';
import { runExport, type ExportOptions } from './export-runner.js';
import { ThumbnailRequests } from './thumbnail-requests.js';
import { Player } from './player.js';
import { FrameAtRest } from './frame-at-rest.js';
import { CompareController } from './compare-controller.js';
import { LayersView } from './layers-view.js';

export const THUMB_REQUEST_PX = 128;

/** What the diagnostics panel shows for one image. */
export interface ImageRecord {
  fileId: string;
  name: string;
  host: StageTimingsMs | null;
  hostSource: string;
  transferBytes: number;
  transferMs: number;
  show: ShowReport;
  at: number;
}

export class Controller {
  engine: ViewEngine | null = null;
  readonly actions;
  readonly records: ImageRecord[] = [];
  histogram: Uint32Array | null = null;
  /** What `histogram` counts: A, B, or a difference image's magnitude. */
  histogramSource: HistogramSource = 'a';
  /** What the host said at start (version and platform for Help ▸ About). */
  info: HostInfo | null = null;
  private readonly thumbs: ThumbnailRequests;
  private showSeq = 0;
  private previewSize = { widthPx: 1, heightPx: 1 };
  private readonly listeners = new Set<() => void>();
  /** Plays the sequence of the grid item on screen. */
  readonly player: Player;
  /** Makes the frame playback stops on the image on screen. */
  private readonly frameAtRest: FrameAtRest;

  readonly compare: CompareController;
  readonly layersView: LayersView;
  /** Why a file's thumbnail could not be made (the grid's broken-file mark), by file id. */
  readonly thumbFailures = new Map<string, string>();

  constructor(readonly host: RendererHost, readonly store: AppStore, private readonly downloadSink: () => DownloadSink = () => documentSink()) {
    this.actions = storeActions(store);
    this.player = new Player({
      host, store,
      engine: () => (this.engine instanceof GpuEngine ? this.engine : null),
      choice: () => {
        const layer = this.currentLayer();
        return layer ? { part: this.store.getState().image.part, choice: layerChoice(layer, this.store.getState().image.channel).choice } : null;
      },
    });
    this.frameAtRest = new FrameAtRest({
      subscribe: (l) => this.player.subscribe(l),
      presented: () => this.player.presented,
      sequence: () => this.player.open,
      playing: () => this.store.getState().playback.playing,
      currentFileId: () => this.store.getState().image.currentFileId,
      showFrame: (fileId) => this.actions.showFrame(fileId),
      setTimer: (run, ms) => setTimeout(run, ms),
      clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    });
    this.thumbs = new ThumbnailRequests(host.api, () => this.engine, THUMB_REQUEST_PX, () => this.emit(), (fileId, reason) => {
      this.thumbFailures.set(fileId, reason);
      this.actions.setUi({ status: `${this.store.getState().library.files.find((f) => f.id === fileId)?.name ?? fileId}: ${reason}` });
      this.emit();
    });
    this.layersView = new LayersView({
      engine: () => (this.engine instanceof GpuEngine ? this.engine : null),
      key: () => { const s = this.store.getState(); return s.image.currentFileId ? { fileId: s.image.currentFileId, part: s.image.part } : null; },
      part: () => this.currentPart(),
      sizePx: () => ({ ...this.previewSize, dpr: window.devicePixelRatio || 1 }),
      said: (status) => this.actions.setUi({ status }),
      drawn: (count) => { if (this.store.getState().inspect.layersDrawn !== count) this.actions.setInspect({ layersDrawn: count }); },
    });
    this.compare = new CompareController({
      engine: () => this.engine, store, actions: this.actions, currentPart: () => this.currentPart(),
      decode: (key, channels) => this.decode(key, 'prefetch', channels),
    });
  }

  /** Diagnostics and others re-read after each change. */
  subscribe(l: () => void): () => void { this.listeners.add(l); return () => this.listeners.delete(l); }
  private emit(): void { for (const l of this.listeners) l(); }

  async start(): Promise<void> {
    const source: TextureSource = {
      loadImage: (key, channels) => this.decode(key, 'preview', channels),
      loadThumbnail: (fileId) => this.host.api.getThumbnail({ requestId: `t-${fileId}-${Date.now()}`, fileId, longSidePx: THUMB_REQUEST_PX, priority: 'thumbnail-visible' }),
    };
    try {
      this.engine = await GpuEngine.create(source);
      this.actions.setUi({ path: 'gpu', pathReason: 'WebGPU adapter found' });
    } catch (e) {
      const reason = e instanceof NoWebGpuError ? e.reason : `WebGPU failed to start: ${String(e)}`;
      this.engine = new CpuEngine(source, reason);
      this.actions.setUi({ path: 'cpu', pathReason: reason });
    }
    this.engine.onHistogram = (bins, source) => { this.histogram = bins; this.histogramSource = source; this.emit(); };
    const hdr = this.engine.hdrSupport();
    this.actions.setHdrSupport({ available: hdr.available, reason: hdr.reason });
    this.compare.start();
    this.compare.pushView();
    this.store.subscribe((s, prev) => {
      const e = this.engine!;
      if (s.view.display !== prev.view.display || s.image.channel !== prev.image.channel || s.image.decoded !== prev.image.decoded) e.setDisplay(this.effectiveDisplay());
      if (s.view.panZoom !== prev.view.panZoom) e.setPanZoom(s.view.panZoom);
      const a = s.image, b = prev.image;
      if (a.currentFileId !== b.currentFileId || s.library.sequences !== prev.library.sequences) this.followSequence();
      const layerChanged = a.part !== b.part || a.layer !== b.layer || a.channel !== b.channel;
      // a sequence's frame on screen: the player shows the new layer of the same frame (and plays on with it)
      if (layerChanged && a.currentFileId === b.currentFileId && this.player.presented) this.player.refresh(true);
      else if (a.currentFileId !== b.currentFileId || layerChanged) {
        // another frame of the sequence on screen (playback rested on it): same size, so the artist's zoom stays
        const sequence = a.currentFileId !== b.currentFileId ? sequenceOf(s.library, a.currentFileId) : null;
        const otherFrame = sequence !== null && sequence === sequenceOf(s.library, b.currentFileId);
        void this.showCurrent(a.currentFileId !== b.currentFileId || a.part !== b.part, !otherFrame);
      }
      const p = s.playback, q = prev.playback;
      if (p.fps !== q.fps || p.mode !== q.mode || p.inFrame !== q.inFrame || p.outFrame !== q.outFrame) this.player.refresh(false);
      if (s.inspect.layersView !== prev.inspect.layersView || (s.inspect.layersView && (a.currentFileId !== b.currentFileId || a.part !== b.part))) void this.layersView.update(s.inspect.layersView);
    });
    this.host.api.onEvent((ev) => {
      if (ev.type === 'files-changed') this.filesChanged(ev.files);
      if (ev.type === 'files-added' || ev.type === 'files-changed') this.actions.upsertFiles(ev.files);
      else if (ev.type === 'files-removed') this.actions.removeFiles(ev.fileIds);
      else if (ev.type === 'thumbnail-progress') this.actions.setThumbProgress(ev.done, ev.total);
      else if (ev.type === 'folder-error') this.actions.setUi({ status: ev.message });
      else if (ev.type === 'sequences-changed' && ev.folderId === this.store.getState().library.folderId) void this.loadSequences(ev.folderId);
    });
    const info = await this.host.api.getInfo();
    this.info = info;
    this.actions.setFolders(info.folders);
    const first = info.folders[0];
    if (first) await this.loadFolder(first.id);
  }

  /**
   * Files rewritten on disk (or finished being written): their textures and thumbnails go; the one on screen is shown
   * again (a file still being written is retried by the host, which reports it here once readable).
   */
  private filesChanged(files: FileEntry[]): void {
    const current = this.store.getState().image.currentFileId;
    for (const f of files) {
      this.engine?.forgetFile(f.id);
      this.thumbFailures.delete(f.id);
      this.thumbs.forget(f.id);
    }
    if (current && files.some((f) => f.id === current)) queueMicrotask(() => void this.showCurrent(true));
  }

  /** A folder the Electron shell already opened (menu, recent, drop, OS): list it, and show the named file when given. */
  async showFolder(folder: FolderInfo, selectFileName?: string): Promise<void> {
    this.actions.setFolders([folder, ...this.store.getState().library.folders.filter((f) => f.id !== folder.id)]);
    try {
      await this.loadFolder(folder.id);
    } catch (e) {
      this.actions.setUi({ status: `could not list ${folder.displayPath}: ${e instanceof Error ? e.message : String(e)}. Check the folder is readable, then open it again.` });
      return;
    }
    if (selectFileName === undefined) return;
    const file = this.store.getState().library.files.find((f) => f.relativePath === selectFileName || f.name === selectFileName);
    if (file) this.actions.selectFile(file.id);
    else this.actions.setUi({ status: `${selectFileName} is not in ${folder.displayPath} (yet): it shows in the grid once it is readable` });
  }

  /** Exports the selection through the current view (see export-runner). */
  exportSelection(options?: ExportOptions): Promise<ExportOutcome> {
    return runExport(this.host, this.store, this.actions, this.downloadSink, options);
  }

  async openFolder(path?: string): Promise<void> {
    try {
      const folder = await this.host.api.openFolder(path);
      if (!folder) return;
      this.actions.setFolders([folder, ...this.store.getState().library.folders.filter((f) => f.id !== folder.id)]);
      await this.loadFolder(folder.id);
    } catch (e) {
      this.actions.setUi({ status: `could not open ${path ?? 'folder'}: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  private async loadFolder(folderId: string): Promise<void> {
    const files = await this.host.api.listFiles(folderId);
    const sequences = await this.host.api.listSequences(folderId);
    this.actions.setSequences(sequences);
    this.actions.setFiles(folderId, files);
    this.actions.setUi({ status: `${files.length} files${sequences.length ? `, ${sequences.length} sequence${sequences.length === 1 ? '' : 's'}` : ''}` });
  }

  private async loadSequences(folderId: string): Promise<void> {
    try {
      this.actions.setSequences(await this.host.api.listSequences(folderId));
    } catch (e) {
      this.actions.setUi({ status: `could not list the folder's sequences: ${e instanceof Error ? e.message : String(e)}. Open the folder again.` });
    }
  }

  /** The grid item on screen is a sequence's: the player takes it (rate from its framesPerSecond, else 24), else lets go. */
  private followSequence(): void {
    const s = this.store.getState();
    const q = sequenceOf(s.library, s.image.currentFileId);
    if (q?.id === this.player.open?.id) {
      if (q) this.player.setSequence(q);
      return;
    }
    this.player.setSequence(q);
    this.actions.setPlayback({ sequenceId: q?.id ?? null, playing: false, direction: 1, fps: q?.framesPerSecond ?? 24, inFrame: null, outFrame: null });
  }

  /** Next (+1) or previous (-1) grid item (a sequence counts as one). */
  stepItem(delta: number): void {
    const s = this.store.getState();
    const items = gridItems(s.library);
    if (!items.length) return;
    const q = sequenceOf(s.library, s.image.currentFileId);
    const at = items.findIndex((it) => it.id === s.image.currentFileId || (q !== null && it.sequence?.id === q.id));
    this.actions.selectFile(items[at < 0 ? 0 : (at + delta + items.length) % items.length]!.id);
  }

  private currentLayer() {
    const part = this.currentPart();
    return part?.layers.find((l) => l.name === this.store.getState().image.layer) ?? part?.layers[0];
  }

  private effectiveDisplay() {
    const s = this.store.getState();
    const part = this.currentPart();
    const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
    const view = layer ? layerChoice(layer, s.image.channel).channelView : 'rgb';
    const decoded = s.image.decoded;
    if (s.image.channel === 'samples' && decoded?.fileId === s.image.currentFileId) return samplesDisplay(s.view.display, maxSampleCount(decoded));
    return { ...s.view.display, channelView: view };
  }

  currentFile(): FileEntry | undefined {
    const s = this.store.getState();
    return s.library.files.find((f) => f.id === s.image.currentFileId);
  }

  currentPart(): PartSummary | undefined {
    return this.currentFile()?.summary?.parts[this.store.getState().image.part];
  }

  setPreviewSize(widthPx: number, heightPx: number): void {
    // an image fitted to the old size stays fitted (panels opening beside the preview resize it); a zoom the user chose stays
    const part = this.currentPart();
    const old = this.previewSize;
    const wasFitted = part && (old.widthPx !== widthPx || old.heightPx !== heightPx) && sameView(this.store.getState().view.panZoom, fitView(part.displayWindow, part.dataWindow, old.widthPx, old.heightPx));
    this.previewSize = { widthPx, heightPx };
    if (wasFitted) this.fit();
    this.engine?.invalidate();
    if (this.store.getState().inspect.layersView) this.layersView.layout();
  }

  fit(): void {
    const part = this.currentPart();
    if (!part) return;
    this.actions.setPanZoom(fitView(part.displayWindow, part.dataWindow, this.previewSize.widthPx, this.previewSize.heightPx));
  }

  /** Zooms about the preview's centre (menu and keys). */
  zoomBy(factor: number): void {
    const { widthPx, heightPx } = this.previewSize;
    this.actions.setPanZoom(zoomAt(this.store.getState().view.panZoom, factor, widthPx / 2, heightPx / 2, widthPx, heightPx));
  }

  actualSize(): void {
    this.actions.setPanZoom(oneToOne(this.store.getState().view.panZoom));
  }

  /** The planes of `channels` of an image from the host (deep parts: every channel, and the sample counts). */
  private async decode(key: ImageKey, priority: 'preview' | 'prefetch', channels: readonly string[]): Promise<DecodedImage> {
    const t0 = performance.now();
    const before = this.host.transfers.length;
    const summary = this.store.getState().library.files.find((f) => f.id === key.fileId)?.summary?.parts[key.part];
    const deep = summary?.type === 'deepscanline' || summary?.type === 'deeptile';
    const named = channels.filter((c) => c !== SAMPLES_PLANE);
    const request = { requestId: `d-${key.fileId}-${key.part}-${Date.now()}`, fileId: key.fileId, part: key.part, priority, ...(deep || named.length === 0 ? {} : { channels: named }) };
    const image = withSampleCountPlane(await this.host.api.decodeImage(request));
    const t = this.host.transfers[this.host.transfers.length - 1];
    this.lastTransfer = this.host.transfers.length > before && t ? { bytes: t.bytes, ms: t.transferMs } : { bytes: image.planes.reduce((s, p) => s + p.data.byteLength, 0), ms: Math.max(0, performance.now() - t0 - image.timings.hostMs) };
    return image;
  }
  private lastTransfer = { bytes: 0, ms: 0 };

  /** `newImage`: another file or part (its header is read); `refit`: fit it to the preview (not for another frame of a sequence). */
  private async showCurrent(newImage: boolean, refit = newImage): Promise<void> {
    const seq = ++this.showSeq;
    const s = this.store.getState();
    const file = this.currentFile();
    const part = this.currentPart();
    if (!file || !this.engine) return;
    if (!part) {
      // nothing to show: the preview says why (FileProblem), the status line names the file
      this.actions.setImage({ loading: false, error: null });
      if (file.status !== 'ok') this.actions.setUi({ status: `${file.name}: ${file.error ?? (file.status === 'incomplete' ? 'still being written; shown once complete' : 'cannot be read')}` });
      return;
    }
    const layer = part.layers.find((l) => l.name === s.image.layer) ?? part.layers[0];
    if (!layer) return;
    const { choice } = layerChoice(layer, s.image.channel);
    if (newImage) {
      if (refit) this.fit();
      void this.host.api.getHeader(file.id).then((h) => { if (this.store.getState().image.currentFileId === file.id) this.actions.setImage({ header: h }); }, () => {});
    }
    this.engine.setDisplay(this.effectiveDisplay());
    this.actions.setImage({ loading: true, error: null });
    this.host.api.setVisible([], file.id);
    try {
      const key = { fileId: file.id, part: s.image.part };
      const report = await this.engine.show(key, choice);
      if (seq !== this.showSeq) return;
      const fetched = report.decoded;
      await this.keepCpuCopy(key, planesOf(choice), fetched);
      // the record keeps figures, not pixels
      report.decoded = null;
      this.actions.setImage({ loading: false });
      // a GPU-cache hit moved nothing: the host and transfer figures are those of the load that brought it
      const prior = [...this.records].reverse().find((r) => r.fileId === file.id && r.host);
      const loaded = report.source === 'uploaded';
      this.records.push({
        fileId: file.id, name: file.name, host: loaded ? fetched?.timings ?? null : prior?.host ?? null,
        hostSource: loaded ? fetched?.source ?? 'decode' : `${prior?.hostSource ?? 'n/a'}, now GPU cache`,
        transferBytes: loaded ? this.lastTransfer.bytes : prior?.transferBytes ?? 0, transferMs: loaded ? this.lastTransfer.ms : prior?.transferMs ?? 0,
        show: report, at: Date.now(),
      });
      if (this.records.length > 100) this.records.shift();
      this.emit();
      void this.compare.analyse();
      setTimeout(() => this.emit(), 500); // upload wall time arrives after the GPU finishes
    } catch (e) {
      if (seq !== this.showSeq) return;
      const message = e instanceof Error ? e.message : String(e);
      this.actions.setImage({ loading: false, error: message });
      // the status line names the file and the codec's reason; the preview says what to do
      this.actions.setUi({ status: `${file.name}: ${message}` });
    }
  }

  /**
   * The pixel inspector reads the shown layer's planes on the CPU: keep them in the store, merged with what it has of
   * the same image (a GPU-cache hit fetches what is lacking from the host's RAM cache). Planes of the image that stops
   * being shown go back to the transport's pool, where the GPU path keeps no view on them.
   */
  private async keepCpuCopy(key: ImageKey, channels: string[], fresh: DecodedImage | null): Promise<void> {
    const cur = this.store.getState().image.decoded;
    const same = cur && cur.fileId === key.fileId && cur.part === key.part ? cur : null;
    let incoming = fresh;
    const lacking = channels.filter((c) => !same?.planes.some((p) => p.name === c) && !incoming?.planes.some((p) => p.name === c));
    if (lacking.length) {
      const more = await this.decode(key, 'prefetch', lacking);
      incoming = incoming ? { ...incoming, planes: [...incoming.planes, ...more.planes.filter((p) => !incoming!.planes.some((q) => q.name === p.name))] } : more;
    }
    if (!incoming) return;
    const merged = same ? { ...incoming, planes: [...same.planes.filter((p) => !incoming!.planes.some((q) => q.name === p.name)), ...incoming.planes] } : incoming;
    if (cur && !same && this.engine instanceof GpuEngine) this.host.pool.give(cur.planes.map((p) => p.data));
    this.actions.setImage({ decoded: merged });
  }

  /** The grid says which files are visible: ask for the thumbnails the engine does not have yet. */
  requestThumbnails(fileIds: string[]): void {
    const s = this.store.getState();
    this.host.api.setVisible(fileIds, s.image.currentFileId);
    const byId = new Map(s.library.files.map((f) => [f.id, f]));
    this.thumbs.request(fileIds.flatMap((id) => byId.get(id) ?? []));
  }

  get thumbsShown(): number { return this.thumbs.shown; }
}

const sameView = (a: PanZoom, b: PanZoom): boolean => Math.abs(a.zoom / b.zoom - 1) < 1e-6 && Math.abs(a.centerX - b.centerX) < 1e-3 && Math.abs(a.centerY - b.centerY) < 1e-3;
