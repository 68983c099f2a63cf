// Cryptomatte in the viewer: the layers of the image on screen (from its header), the chosen layer's ranks fetched and
// handed to the engine's view with the picked IDs, the name under the pointer, picks, and the matte's export through the
// host (the code `exrview matte` runs). The engine draws; this decides what.
import type { CryptoId } from '../../shaders/cryptomatte/hash.js';
import type { CryptomatteView } from '../gpu/cryptomatte-view.js';
import type { CryptomatteHeader, DecodedImage, HostApi } from '../host-client/api-types.js';
import { togglePick } from '../state/cryptomatte.js';
import type { AppState, AppStore, StoreActions } from '../state/store.js';
import { idAt, listedNames, loadLayer, pickedIds, type LoadedLayer } from './cryptomatte-layer.js';
import { offerDownloads, type DownloadSink } from './downloads.js';
import { describeExport } from './export-request.js';

export interface CryptomatteDeps {
  api: Pick<HostApi, 'decodeImage' | 'exportImages'>;
  store: AppStore;
  actions: StoreActions;
  /** The engine's view setter (the GPU's view pass, or on the CPU path its CPU reference). */
  setView: (view: CryptomatteView | null) => void;
  downloads: () => DownloadSink;
}

/** What the panel shows of the layer: loading, its names and notes, or why it cannot be shown. */
export type LayerState =
  | { kind: 'none' }
  | { kind: 'loading'; layer: string }
  | { kind: 'ready'; layer: LoadedLayer; names: { name: string; id: CryptoId }[] }
  | { kind: 'error'; layer: string; message: string };

export class CryptomatteController {
  state: LayerState = { kind: 'none' };
  /** Picks the layer has no name for (typed, or from another file), said in the panel. */
  unknownPicks: string[] = [];
  private readonly listeners = new Set<() => void>();
  private loadedKey = '';
  private generation = 0;

  constructor(private readonly deps: CryptomatteDeps) {
    deps.store.subscribe((s, prev) => {
      const a = s.image,
        b = prev.image;
      if (
        a.currentFileId !== b.currentFileId ||
        a.part !== b.part ||
        a.header !== b.header ||
        s.cryptomatte.layer !== prev.cryptomatte.layer
      )
        void this.load(s);
      else if (s.cryptomatte !== prev.cryptomatte) this.push(s);
    });
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  private emit(): void {
    for (const l of this.listeners) l();
  }

  /** The Cryptomatte layers of the part on screen (from its header; none until the header has come). */
  header(s: AppState = this.deps.store.getState()): CryptomatteHeader | null {
    const h = s.image.header;
    if (!h || h.fileId !== s.image.currentFileId) return null;
    return h.parts.find((p) => p.index === s.image.part)?.cryptomatte ?? null;
  }

  /** Shows a Cryptomatte layer over the beauty (null: ends it); the beauty is the part's colour layer. */
  choose(layer: string | null): void {
    const { actions, store } = this.deps;
    const s = store.getState();
    if (layer !== null) {
      // the beauty under the view: the layer on screen, unless it is one of the Cryptomatte layer's own rank groups
      const info = this.header(s)?.layers.find((l) => l.name === layer);
      const shownIsRanks = info?.groups.some((g) => g[0]!.startsWith(`${s.image.layer}.`)) ?? false;
      if (shownIsRanks) actions.setLayer('');
      else if (s.image.channel !== 'rgb') actions.setChannel('rgb');
    }
    actions.setCryptomatte({ layer, ...(layer !== null ? { panelOpen: true } : {}) });
  }

  private async load(s: AppState): Promise<void> {
    const name = s.cryptomatte.layer;
    const info = name === null ? null : this.header(s)?.layers.find((l) => l.name === name);
    const fileId = s.image.currentFileId;
    const key = `${fileId}|${s.image.part}|${name}|${info ? 'found' : 'absent'}`;
    if (key === this.loadedKey) return this.push(s);
    this.loadedKey = key;
    const generation = ++this.generation;
    if (name === null || !fileId) return this.set({ kind: 'none' });
    if (!info) {
      const problem = this.header(s)?.problems.find((p) => p.layer === name);
      if (problem) return this.set({ kind: 'error', layer: name, message: problem.message });
      // the header is still on its way, or this file has no such layer
      return this.set(
        s.image.header
          ? { kind: 'error', layer: name, message: `this image has no Cryptomatte layer ${name}` }
          : { kind: 'loading', layer: name },
      );
    }
    this.set({ kind: 'loading', layer: name });
    try {
      const image = await this.deps.api.decodeImage({
        requestId: `cryptomatte-${fileId}-${Math.random().toString(36).slice(2)}`,
        fileId,
        part: s.image.part,
        channels: info.groups.flat(),
        priority: 'preview',
      });
      if (generation !== this.generation) return;
      const layer = loadLayer(info, planeOf(image), {
        originX: image.dataWindow[0],
        originY: image.dataWindow[1],
        widthPx: image.widthPx,
        heightPx: image.heightPx,
      });
      this.set({ kind: 'ready', layer, names: listedNames(layer) });
    } catch (error) {
      if (generation !== this.generation) return;
      this.set({ kind: 'error', layer: name, message: error instanceof Error ? error.message : String(error) });
    }
  }

  private set(state: LayerState): void {
    this.state = state;
    this.push(this.deps.store.getState());
  }

  /** The engine's view from the loaded layer and the slice's picks and mode. */
  private push(s: AppState): void {
    const st = this.state;
    if (st.kind !== 'ready' || s.cryptomatte.layer === null) {
      this.unknownPicks = [];
      this.deps.setView(null);
    } else {
      const { ids, unknown } = pickedIds(st.layer, s.cryptomatte.picked);
      this.unknownPicks = unknown;
      this.deps.setView({
        groups: st.layer.interleaved,
        widthPx: st.layer.widthPx,
        heightPx: st.layer.heightPx,
        picked: ids,
        mode: s.cryptomatte.mode,
      });
    }
    this.emit();
  }

  /** The name under absolute image pixel (x, y) and its coverage, or null (no layer shown, nothing there). */
  nameAt(x: number, y: number): { name: string; coverage: number } | null {
    return this.state.kind === 'ready' ? idAt(this.state.layer, x, y) : null;
  }

  /** Click: picks the name under (x, y) alone; `add` (Shift): adds it, or takes it out when picked. False: nothing there. */
  pickAt(x: number, y: number, add: boolean): boolean {
    const hit = this.nameAt(x, y);
    if (!hit) return false;
    this.toggle(hit.name, !add);
    return true;
  }

  /** Adds or removes one name (the list's checkboxes); `only`: it alone. */
  toggle(name: string, only = false): void {
    const s = this.deps.store.getState();
    this.deps.actions.setCryptomatte({ picked: togglePick(s.cryptomatte.picked, name, only) });
  }

  /**
   * Exports the picked names' matte of the image on screen (EXR float or PNG 8-bit) through the host: Electron asks for
   * a folder, browser mode downloads it. Returns what happened, in words.
   */
  async export(format: 'exr' | 'png'): Promise<string> {
    const s = this.deps.store.getState();
    const fileId = s.image.currentFileId;
    const layer = s.cryptomatte.layer;
    if (!fileId || layer === null) return 'Choose a Cryptomatte layer in the Layer menu first.';
    if (!s.cryptomatte.picked.length) return 'Pick names first (click the image, or tick them in the list), then export their matte.';
    const say = (text: string) => {
      this.deps.actions.setUi({ status: text });
      return text;
    };
    say(`exporting the ${layer} matte…`);
    try {
      const result = await this.deps.api.exportImages({
        fileIds: [fileId],
        kind: 'matte',
        format,
        overwrite: true,
        // a matte is not seen through the view: any valid one does
        view: { exposureEv: 0, offset: 0, gamma: 1, displayTransform: 'linear', layer: '', channelMode: 'rgb' },
        part: s.image.part,
        matte: { layer, names: [...s.cryptomatte.picked] },
      });
      if (result.downloads?.length) await offerDownloads(result.downloads, this.deps.downloads());
      const outcome = describeExport(result, new Map(s.library.files.map((f) => [f.id, f.name])));
      return say(outcome.error ?? outcome.summary);
    } catch (error) {
      return say(`The matte was not exported: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function planeOf(image: DecodedImage): (name: string) => Float32Array | null {
  return (name) => {
    const p = image.planes.find((q) => q.name === name);
    if (!p || p.pixelType !== 'float') return null;
    return new Float32Array(p.data as ArrayBuffer, 0, p.widthSamples * p.heightSamples);
  };
}
