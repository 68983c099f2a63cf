// A deep image's samples in the viewer: the clicked pixel's list (asked of the host, which reads only the chunk that
// holds it) and the depth range: every sample fetched once, depth-sorted by the host, packed for the shown layer and
// handed to the GPU engine, which composites the range again each time a handle moves.
import type { DeepSampleSet, HostApi, PartSummary } from '../host-client/api-types.js';
import { channelNumbers, columnsOf } from '../../shaders/deep/columns.js';
import { compositeRange, type DeepSampleColumns, type DepthRange } from '../../shaders/deep/range-composite.js';
import { packSlots, type PackedDeepSamples } from '../../shaders/deep/range-pack.js';
import type { DeepRangeView } from '../gpu/deep-range-view.js';
import type { Controller } from './controller.js';
import { layerChoice, partChannelNames } from '../model/layer-choice.js';
import { SAMPLES_PLANE } from '../model/deep-samples.js';
import type { AppStore } from '../state/store.js';

/** One sample of the list: where it is in the file and in depth order, and every channel's value. */
export interface DeepSampleRow {
  fileIndex: number;
  depthIndex: number;
  values: number[];
}

export interface DeepPixelList {
  xPx: number;
  yPx: number;
  /** The part's channels in the file's order. */
  channels: string[];
  /** Which of them are uint (IDs), shown as integers. */
  uintChannels: boolean[];
  /** The samples in the file's order. */
  rows: DeepSampleRow[];
}

export interface DeepRangeState {
  /** The range is shown in place of the flattened image. */
  on: boolean;
  loading: boolean;
  /** Nearest Z and farthest ZBack of the part; null before the samples arrive or without Z. */
  extent: [number, number] | null;
  range: DepthRange;
  /** Why the range cannot be shown for this image or layer; null when it can. */
  error: string | null;
}

export interface DeepState {
  list: DeepPixelList | null;
  listLoading: boolean;
  listError: string | null;
  range: DeepRangeState;
}

export interface DeepDeps {
  api: Pick<HostApi, 'deepSamples'>;
  store: AppStore;
  currentPart(): PartSummary | undefined;
  /** The GPU engine's depth-range input (null on the CPU path). */
  setView(view: DeepRangeView | null): boolean;
}

const CLOSED_RANGE: DeepRangeState = { on: false, loading: false, extent: null, range: { near: 0, far: 0 }, error: null };

export function isDeepPart(part: PartSummary | undefined): boolean {
  return part?.type === 'deepscanline' || part?.type === 'deeptile';
}

/** One pixel's sample set as rows in file order. */
export function rowsOf(set: DeepSampleSet): DeepSampleRow[] {
  const values = set.channels.map(channelNumbers);
  const fileIndex = new Uint32Array(set.fileIndex);
  const depthIndex = new Uint32Array(set.depthIndex);
  return Array.from(fileIndex, (f, s) => ({ fileIndex: f, depthIndex: depthIndex[s]!, values: values.map((v) => v[s]!) }));
}

export class DeepSamplesController {
  private state: DeepState = { list: null, listLoading: false, listError: null, range: CLOSED_RANGE };
  private readonly listeners = new Set<() => void>();
  /** The whole part's samples, depth-sorted, while the range is open for this file and part. */
  private samples: { key: string; columns: DeepSampleColumns; names: string[] } | null = null;
  private packed: { key: string; packed: PackedDeepSamples; grey: boolean } | null = null;
  private asked = 0;

  constructor(private readonly deps: DeepDeps) {
    deps.store.subscribe((s, prev) => {
      if (s.image.currentFileId !== prev.image.currentFileId || s.image.part !== prev.image.part) this.reset();
      else if (s.image.layer !== prev.image.layer || s.image.channel !== prev.image.channel) this.show();
    });
  }

  get current(): DeepState {
    return this.state;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<DeepState>): void {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  private where(): { fileId: string; part: number } | null {
    const s = this.deps.store.getState();
    if (!s.image.currentFileId || !isDeepPart(this.deps.currentPart())) return null;
    return { fileId: s.image.currentFileId, part: s.image.part };
  }

  /** Lists the samples of absolute pixel (x, y) of the deep image on screen; false when it is not deep. */
  pick(xPx: number, yPx: number): boolean {
    const at = this.where();
    if (!at) return false;
    const ask = ++this.asked;
    this.set({ listLoading: true, listError: null });
    this.deps.api.deepSamples({ ...at, pixel: { xPx, yPx } }).then(
      (set) => {
        if (ask !== this.asked) return;
        this.set({
          list: {
            xPx,
            yPx,
            channels: set.channels.map((c) => c.name),
            uintChannels: set.channels.map((c) => c.pixelType === 'uint'),
            rows: rowsOf(set),
          },
          listLoading: false,
        });
      },
      (error: unknown) => {
        if (ask !== this.asked) return;
        this.set({ list: null, listLoading: false, listError: error instanceof Error ? error.message : String(error) });
      },
    );
    return true;
  }

  closeList(): void {
    this.asked++;
    this.set({ list: null, listLoading: false, listError: null });
  }

  /** Opens the depth range over the whole extent (the samples are fetched once per image), or closes it. */
  async toggleRange(): Promise<void> {
    if (this.state.range.on) return this.closeRange();
    const at = this.where();
    if (!at) return;
    const key = `${at.fileId}#${at.part}`;
    this.set({ range: { ...CLOSED_RANGE, on: true, loading: true } });
    if (this.samples?.key !== key) {
      try {
        const set = await this.deps.api.deepSamples({ ...at, sortByDepth: true });
        this.samples = { key, columns: columnsOf(set), names: set.channels.map((c) => c.name) };
        const extent = set.depthExtent;
        this.set({ range: { ...this.state.range, extent, range: extent ? { near: extent[0], far: extent[1] } : { near: 0, far: 0 } } });
      } catch (error) {
        this.set({ range: { ...CLOSED_RANGE, error: error instanceof Error ? error.message : String(error) } });
        return;
      }
      // another image while the samples came
      if (this.where() === null || `${this.where()!.fileId}#${this.where()!.part}` !== key || !this.state.range.on) return;
    }
    this.set({ range: { ...this.state.range, loading: false } });
    this.show();
  }

  /** Moves the handles: the GPU composites again from the samples it holds. */
  setRange(near: number, far: number): void {
    if (!this.state.range.on) return;
    const range = { near: Math.fround(Math.min(near, far)), far: Math.fround(Math.max(near, far)) };
    this.set({ range: { ...this.state.range, range } });
    this.show();
  }

  closeRange(): void {
    this.deps.setView(null);
    this.set({ range: CLOSED_RANGE });
  }

  /** The CPU reference's composite of the range at one pixel for every channel (null when the range is closed). */
  compositeAt(xPx: number, yPx: number): { names: string[]; values: number[] } | null {
    const part = this.deps.currentPart();
    if (!this.state.range.on || !this.samples || !part) return null;
    const [x0, y0] = part.dataWindow;
    const { columns, names } = this.samples;
    const x = xPx - x0;
    const y = yPx - y0;
    if (x < 0 || y < 0 || x >= columns.widthPx || y >= columns.heightPx) return null;
    const p = y * columns.widthPx + x;
    const one: DeepSampleColumns = { ...columns, widthPx: 1, heightPx: 1, offsets: columns.offsets.subarray(p, p + 2) };
    return { names, values: compositeRange(one, this.state.range.range).map((v) => v[0]!) };
  }

  /** Packs the shown layer's channels (again only when the layer changes) and sets the engine's view. */
  private show(): void {
    if (!this.state.range.on || !this.samples) return;
    const s = this.deps.store.getState();
    const part = this.deps.currentPart();
    const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
    if (!part || !layer) return;
    const choice = layerChoice(layer, s.image.channel, partChannelNames(part)).choice;
    if (choice.expression || choice.mode === 'yc' || choice.slots[0] === SAMPLES_PLANE) {
      this.deps.setView(null);
      this.set({
        range: { ...this.state.range, error: 'the depth range shows a layer\u2019s RGBA or one channel, not this view: pick one' },
      });
      return;
    }
    if (s.image.decoded?.reduced) {
      this.deps.setView(null);
      const error = 'the depth range composites the image at full size, and this one is shown reduced (past the GPU\u2019s limits)';
      if (error !== this.state.range.error) this.set({ range: { ...this.state.range, error } });
      return;
    }
    const key = `${this.samples.key}:${choice.mode}:${choice.slots.join('|')}`;
    if (this.packed?.key !== key) {
      const indices = choice.slots.map((n) => (n === null ? null : this.samples!.names.indexOf(n))).map((i) => (i === -1 ? null : i));
      this.packed = { key, packed: packSlots(this.samples.columns, indices), grey: choice.mode === 'y' };
    }
    const ok = this.deps.setView({ packed: this.packed.packed, range: this.state.range.range, grey: this.packed.grey });
    const error = ok ? null : 'the depth range needs WebGPU: this page draws on the CPU';
    if (error !== this.state.range.error) this.set({ range: { ...this.state.range, error } });
  }

  private reset(): void {
    this.samples = null;
    this.packed = null;
    this.asked++;
    this.deps.setView(null);
    this.set({ list: null, listLoading: false, listError: null, range: CLOSED_RANGE });
  }
}

const controllers = new WeakMap<Controller, DeepSamplesController>();

/** The controller's deep samples, made on first use (the engine is looked up on each call: it may come later). */
export function deepSamplesOf(c: Controller): DeepSamplesController {
  let d = controllers.get(c);
  if (!d) {
    d = new DeepSamplesController({
      api: c.host.api,
      store: c.store,
      currentPart: () => c.currentPart(),
      setView: (view) => {
        // the GPU engine composites the range; the CPU path has no such pass
        const engine = c.engine as { setDeepRange?(view: DeepRangeView | null): void } | null;
        if (!engine?.setDeepRange) return false;
        engine.setDeepRange(view);
        return true;
      },
    });
    controllers.set(c, d);
  }
  return d;
}
