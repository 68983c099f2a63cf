// The click path's last leg: the image the store names as current, shown. Its planes are fetched once from the host
// (what the engine lacks, with what the CPU copy lacks, in one request), handed to the engine, kept on the CPU for the
// pixel inspector, and the show's figures recorded (host read/decode, transfer, upload, show).
import type { FileEntry, PartSummary, PixelRegion, StageTimingsMs } from '../host-client/api-types.js';
import type { RendererHost } from '../host-client/index.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { ShowReport } from '../gpu/engine-types.js';
import type { ViewEngine } from '../gpu/view-engine.js';
import { layerChoice, partChannelNames, planesOf, type LayerChoice } from '../model/layer-choice.js';
import { maxSampleCount, samplesDisplay } from '../model/deep-samples.js';
import type { AppStore, StoreActions } from '../state/store.js';
import { CpuCopy } from '../loading/cpu-copy.js';
import { unionRegion } from '../../common/pixel-region.js';
import { handOver } from '../loading/hand-over.js';
import type { FetchedImage, FetchPriority, PlaneFetcher } from '../loading/plane-fetcher.js';
import { ProvisionalLevels } from '../loading/provisional-levels.js';
import type { ForegroundLoad, LoadTicket } from '../loading/foreground-load.js';

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

export interface CurrentImageHost {
  host: RendererHost;
  store: AppStore;
  actions: StoreActions;
  fetcher: PlaneFetcher;
  /** Told when a show starts and when its first sharp frame is on screen: the page's other work waits meanwhile. */
  foreground: ForegroundLoad;
  engine(): ViewEngine | null;
  /** Whether planes no longer kept on the CPU may be reused (no engine reads them: the GPU path). */
  recyclesPlanes(): boolean;
  currentFile(): FileEntry | undefined;
  currentPart(): PartSummary | undefined;
  fit(): void;
  /** After a show landed (and again once its upload's wall time is known). */
  shown(): void;
}

/** How long a refresh waits for a show under way to land before it forgets what that show brings. */
const LANDING_WAIT_MS = 1000;

export class CurrentImage {
  readonly records: ImageRecord[] = [];
  private seq = 0;
  /** The last show() found nothing to show: a show of the image before, landing late, must not put it back. */
  private empty = false;
  private readonly cpu: CpuCopy;
  /** A refresh of the file on screen (it changed on disk) under way, and whether it changed again meanwhile. */
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** The last show started, settled or not (a refresh waits for it: see refreshChanged). */
  private latest: Promise<void> = Promise.resolve();
  /** A live image's changed crop being fetched and patched in, and the box of what changed meanwhile. */
  private patching: Promise<void> | null = null;
  private pendingRegion: PixelRegion | null = null;
  /** Shows started and not yet settled: a crop waits for them (see patchPending). */
  private showsInFlight = 0;
  /** Small first levels the engine may hold, each refined by whichever show finds it (see provisional-levels.ts). */
  private readonly provisional = new ProvisionalLevels();

  constructor(private readonly h: CurrentImageHost) {
    this.cpu = new CpuCopy({
      get: () => h.store.getState().image.decoded,
      set: (decoded) => h.actions.setImage({ decoded }),
      release: () => (h.recyclesPlanes() ? (planes) => h.host.pool.give(planes.map((p) => p.data)) : null),
    });
  }

  /** The display the engine draws with: the view's, with the shown layer's channel view (deep sample counts scaled). */
  display(): DisplayParams {
    const s = this.h.store.getState();
    const part = this.h.currentPart();
    const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
    const view = layer && part ? layerChoice(layer, s.image.channel, partChannelNames(part)).channelView : 'rgb';
    const decoded = s.image.decoded;
    if (s.image.channel === 'samples' && decoded?.fileId === s.image.currentFileId)
      return samplesDisplay(s.view.display, maxSampleCount(decoded));
    return { ...s.view.display, channelView: view };
  }

  /** `newImage`: another file or part (its header is read); `refit`: fit it to the preview (not for another frame of a sequence). */
  show(newImage: boolean, refit = newImage): Promise<void> {
    const seq = ++this.seq;
    // every show supersedes the last: the page's other work waits for this one's first frame (or its failure)
    const ticket = this.h.foreground.begin();
    this.showsInFlight++;
    const shown = this.showNow(seq, ticket, newImage, refit).finally(() => {
      this.showsInFlight--;
      this.h.foreground.end(ticket);
    });
    this.latest = shown.catch(() => {});
    return shown;
  }

  /**
   * The file on screen changed on disk (a render's chunks landing, a file written again): shown as it is now, keeping the
   * view (zoom, exposure, layer, compare); the image before stays on screen until the new one replaces it.
   */
  refreshChanged(): Promise<void> {
    // a render lands chunks faster than a slow machine shows them: one refresh at a time, and one more after it for
    // whatever landed meanwhile (a new show per change would supersede each before it reached the screen)
    if (this.refreshing) {
      this.refreshAgain = true;
      return this.refreshing;
    }
    const fileId = this.h.store.getState().image.currentFileId;
    const run = async (): Promise<void> => {
      do {
        this.refreshAgain = false;
        // a show of the version before, still uploading, would put its planes in the engine's cache under the same key
        // after they were forgotten (the engine then showing an older version than the CPU copy), and would have its
        // textures destroyed under it: it lands first (or a short while passes: a GPU slow to answer never stalls the refresh)
        await Promise.race([this.latest, new Promise((resolve) => setTimeout(resolve, LANDING_WAIT_MS))]);
        if (fileId) {
          this.cpu.forget(fileId);
          this.h.engine()?.forgetFile(fileId);
          this.provisional.forgetFile(fileId);
        }
        await this.show(true, false);
      } while (this.refreshAgain && this.h.store.getState().image.currentFileId === fileId);
    };
    this.refreshing = run().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /**
   * A live image on screen changed in `region` only (tev's UpdateImage): that crop is fetched and written into the
   * engine's layer and the CPU copy in place, one fetch at a time (what changes meanwhile is fetched next as one box).
   * Where either cannot take it (no layer held, a reduced level, a show under way) the image is shown again whole.
   */
  refreshRegion(fileId: string, region: PixelRegion): Promise<void> {
    if (this.h.store.getState().image.currentFileId !== fileId) return Promise.resolve();
    if (this.refreshing || !this.h.engine()?.updateRegion) return this.refreshChanged();
    this.pendingRegion = this.pendingRegion ? unionRegion(this.pendingRegion, region) : region;
    if (this.patching) return this.patching;
    this.patching = this.patchPending(fileId).finally(() => {
      this.patching = null;
    });
    return this.patching;
  }

  private async patchPending(fileId: string): Promise<void> {
    while (this.pendingRegion) {
      // a show under way brings the image as it was when it fetched: what changed after that is patched once it landed
      // (a refresh instead would race it, and the show landing last would leave the older pixels on screen)
      while (this.showsInFlight > 0) await this.latest;
      const region = this.pendingRegion;
      if (!region) return;
      this.pendingRegion = null;
      const s = this.h.store.getState();
      const part = this.h.currentPart();
      const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
      const engine = this.h.engine();
      if (s.image.currentFileId !== fileId || !part || !layer || !engine?.updateRegion) return void (this.pendingRegion = null);
      const { choice } = layerChoice(layer, s.image.channel, partChannelNames(part));
      const key = { fileId, part: s.image.part };
      const held = s.image.decoded?.fileId === fileId ? s.image.decoded.planes.map((p) => p.name) : [];
      const channels = [...new Set([...planesOf(choice), ...held])];
      const seq = this.seq;
      let crop;
      try {
        crop = await this.h.host.api.decodeImage({
          requestId: `r-${fileId}-${Date.now()}`,
          fileId,
          part: key.part,
          channels,
          priority: 'preview',
          region,
        });
      } catch {
        // closed meanwhile, or the host failed: a whole show says why
        return this.showWholeAgain();
      }
      if (this.h.store.getState().image.currentFileId !== fileId) return void (this.pendingRegion = null);
      if (seq !== this.seq) {
        // a show started meanwhile (another layer, a cache hit of the layer before): this crop goes in after it lands
        this.pendingRegion = this.pendingRegion ? unionRegion(this.pendingRegion, region) : region;
        continue;
      }
      // what the engine or the CPU copy cannot take the crop into (no layer held, a reduced level) is fetched whole
      if (!engine.updateRegion(key, choice, crop) || !this.cpu.patch(crop)) return this.showWholeAgain();
    }
  }

  /** The crop could not be patched in: the image is fetched whole, which covers what else changed meanwhile. */
  private showWholeAgain(): Promise<void> {
    this.pendingRegion = null;
    return this.refreshChanged();
  }

  private async showNow(seq: number, ticket: LoadTicket, newImage: boolean, refit: boolean): Promise<void> {
    const { store, actions, host } = this.h;
    const s = store.getState();
    const file = this.h.currentFile();
    const part = this.h.currentPart();
    const engine = this.h.engine();
    if (!engine) return;
    if (!file) {
      this.clear();
      return;
    }
    if (!part) {
      // nothing to show: the preview says why (FileProblem) over an empty preview, the status line names the file
      this.clear();
      if (file.status !== 'ok')
        actions.setUi({
          status: `${file.name}: ${file.error ?? (file.status === 'incomplete' ? 'still being written; shown once complete' : 'cannot be read')}`,
        });
      return;
    }
    const layer = part.layers.find((l) => l.name === s.image.layer) ?? part.layers[0];
    if (!layer) return;
    const { choice } = layerChoice(layer, s.image.channel, partChannelNames(part));
    this.empty = false;
    if (newImage) {
      if (refit) this.h.fit();
      void host.api.getHeader(file.id).then(
        (h) => {
          if (store.getState().image.currentFileId === file.id) actions.setImage({ header: h });
        },
        () => {},
      );
    }
    engine.setDisplay(this.display());
    actions.setImage({ loading: true, error: null });
    host.api.setVisible([], file.id);
    try {
      const key = { fileId: file.id, part: s.image.part };
      const needed = planesOf(choice);
      const fetch = this.h.fetcher.fetch.bind(this.h.fetcher);
      // what a fetch brings goes to the engine at once (handOver): a small first level is provisional from then on
      const handed = async (k: typeof key, channels: readonly string[], priority: FetchPriority): Promise<FetchedImage> => {
        const got = await fetch(k, channels, priority);
        this.provisional.handed(engine, k, got);
        return got;
      };
      const { value: report, fetched } = await handOver(
        engine,
        handed,
        key,
        choice,
        'preview',
        (image) => engine.show(key, choice, image),
        this.cpu.lacks(key, needed),
      );
      if (seq !== this.seq) {
        if (this.empty) engine.clearImage?.();
        return;
      }
      // the first sharp frame is submitted: what waited for it goes on while the CPU copy and figures follow
      this.h.foreground.end(ticket);
      if (fetched) this.cpu.keep(fetched.image);
      const cpuLacks = this.cpu.lacks(key, needed);
      // a small first level on screen, fetched now or found in the GPU cache: its finer level replaces it, the view kept,
      // and brings what the CPU copy lacks (of the planes shown); the preview says 'loading' until then
      const finer = this.provisional.finer(engine, key, needed, () => fetch(key, needed, 'prefetch'));
      // a GPU-cache hit fetched nothing: what the CPU copy lacks comes after the image is on screen
      if (!finer && cpuLacks.length) {
        const more = await fetch(key, cpuLacks, 'prefetch');
        if (seq !== this.seq) return;
        this.cpu.keep(more.image);
      }
      this.record(file, report, report.source === 'uploaded' ? fetched : null);
      const refined = finer ? await this.refine(seq, key, choice, file, finer) : true;
      if (!refined) return;
      actions.setImage({ loading: false });
      this.h.shown();
      setTimeout(() => this.h.shown(), 500); // upload wall time arrives after the GPU finishes
    } catch (e) {
      if (seq !== this.seq) return;
      const message = e instanceof Error ? e.message : String(e);
      // the failure is shown alone: never over the image shown before
      this.clear(message);
      // the status line names the file and the codec's reason; the preview says what to do
      actions.setUi({ status: `${file.name}: ${message}` });
    }
  }

  /**
   * The finer level of an image shown as a small one (the host made it in the same pass), shown in its place. False
   * when another show started meanwhile: the small level stays provisional, refined by the show that finds it again.
   */
  private async refine(
    seq: number,
    key: { fileId: string; part: number },
    choice: LayerChoice,
    file: FileEntry,
    finer: Promise<FetchedImage>,
  ): Promise<boolean> {
    const engine = this.h.engine();
    let fetched: FetchedImage;
    try {
      fetched = await finer;
    } catch (e) {
      // the small level stays on screen, and the status line says why it was not refined
      if (seq === this.seq)
        this.h.actions.setUi({
          status: `${file.name}: the finer level could not be fetched: ${e instanceof Error ? e.message : String(e)}`,
        });
      return seq === this.seq;
    }
    if (seq !== this.seq || !engine || engine !== this.h.engine()) return false;
    this.provisional.handed(engine, key, fetched);
    const report = await engine.show(key, choice, fetched.image);
    if (seq !== this.seq) return false;
    this.cpu.keep(fetched.image);
    this.record(file, report, report.source === 'uploaded' ? fetched : null);
    return true;
  }

  /** Nothing on screen: the engine draws no image, and no CPU copy stands in for one (`error`: why, if it failed). */
  clear(error: string | null = null): void {
    this.empty = true;
    this.h.engine()?.clearImage?.();
    this.h.actions.setImage({ loading: false, error, decoded: null });
  }

  /** A GPU-cache hit moved nothing: its host and transfer figures are those of the fetch that brought the image. */
  private record(file: FileEntry, show: ShowReport, fetched: FetchedImage | null): void {
    const prior = [...this.records].reverse().find((r) => r.fileId === file.id && r.host);
    this.records.push({
      fileId: file.id,
      name: file.name,
      host: fetched ? fetched.host : (prior?.host ?? null),
      hostSource: fetched ? fetched.hostSource : `${prior?.hostSource ?? 'n/a'}, now GPU cache`,
      transferBytes: fetched ? fetched.transferBytes : (prior?.transferBytes ?? 0),
      transferMs: fetched ? fetched.transferMs : (prior?.transferMs ?? 0),
      show,
      at: Date.now(),
    });
    if (this.records.length > 100) this.records.shift();
  }
}
