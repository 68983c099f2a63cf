// The sequence player: the frame pipeline (renderer/playback) over the host and the GPU engine's ring of frame slots,
// driven by requestAnimationFrame. The frame on screen changes every frame, so it is not React state: the player bar
// and diagnostics subscribe here and write the DOM themselves.
import type { DecodedImage, FitWithin, SequenceInfo } from '../host-client/api-types.js';
import type { GpuEngine } from '../gpu/engine.js';
import type { FrameSlots } from '../gpu/frame-slots.js';
import { planesOf, type LayerChoice } from '../model/layer-choice.js';
import type { RendererHost } from '../host-client/index.js';
import { snapFrame, timelineFrames, type ClockSpec } from '../playback/clock.js';
import { FramePipeline, PLAYER_MAX_LOADS, PREROLL_MS, type PipelineIo, type Presented } from '../playback/pipeline.js';
import { slotCountFor } from '../gpu/slot-budget.js';
import { fittedFrame } from '../playback/frame-fit.js';
import type { FrameRecord, PlaybackSummary } from '../playback/timeline.js';
import type { AppStore, PlaybackSlice } from '../state/store.js';

export interface PlayerDeps {
  host: RendererHost;
  store: AppStore;
  /** The GPU engine, or null on the CPU path (playback needs WebGPU). */
  engine(): GpuEngine | null;
  /** The layer the preview shows now and the part it is in. */
  choice(): { part: number; choice: LayerChoice } | null;
}

export class Player {
  private pipeline: FramePipeline<DecodedImage> | null = null;
  private sequence: SequenceInfo | null = null;
  /** Bumped for every new pipeline: uploads and presents of an older one are ignored. */
  private generation = 0;
  private raf = 0;
  private readonly listeners = new Set<() => void>();
  /** The layer frames are uploaded as (set when a pipeline is made: a layer change makes a new one). */
  private current: { part: number; choice: LayerChoice; channels: string[] } | null = null;
  /** Timelines of pipelines replaced while this sequence stays open: damaged frames stay marked. */
  private readonly damaged = new Set<number>();

  constructor(private readonly deps: PlayerDeps) {}

  subscribe(l: () => void): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private emit(): void {
    for (const l of this.listeners) l();
  }

  get open(): SequenceInfo | null {
    return this.sequence;
  }

  /** Why Play is off, or '' when it can play. */
  get unavailableReason(): string {
    if (!this.sequence) return 'no sequence is shown: pick a sequence in the grid';
    if (!this.deps.engine()) return 'playback needs WebGPU, which is off here (see the status line): open exrview where WebGPU works';
    return '';
  }

  /** What is on screen: the frame and whether it is shown, missing or damaged; null before the first frame. */
  get presented(): Presented | null {
    return this.pipeline?.presented ?? null;
  }

  /** The frame the slider shows: the presented one, else the in point. */
  get frame(): number | null {
    return this.presented?.frame ?? (this.sequence ? (this.frames()[0] ?? null) : null);
  }

  /** Frames loading, uploading and ready ahead of the clock. */
  get inFlight(): { loading: number; uploading: number; ready: number } {
    return this.pipeline?.inFlight ?? { loading: 0, uploading: 0, ready: 0 };
  }

  /** How often a load completes while the pipeline is busy (ms): what thinning plans on. */
  get serviceMs(): number {
    return this.pipeline?.frameServiceMs ?? NaN;
  }

  get records(): readonly FrameRecord[] {
    return this.pipeline?.timeline.records ?? [];
  }

  /** Play was pressed and the pre-roll is buffering: the clock has not started yet. */
  get buffering(): boolean {
    return !!this.pipeline?.playing && this.pipeline.clockStartMs === null;
  }

  /** The playback's counts as of the last step settled: the player bar and Diagnostics both show these. */
  summary(): PlaybackSummary | null {
    return this.pipeline?.summary() ?? null;
  }

  /** Frames found damaged since the sequence was opened, and those the folder scan found. */
  get damagedFrames(): number[] {
    const all = new Set([...this.damaged, ...(this.pipeline?.timeline.damagedFrames ?? []), ...(this.sequence?.damagedFrames ?? [])]);
    return [...all].sort((a, b) => a - b);
  }

  /** The sequence of the grid item on screen (null: none); the player stops and starts over. */
  setSequence(sequence: SequenceInfo | null): void {
    if (sequence?.id === this.sequence?.id && sequence) {
      const landed = framesKey(sequence) !== framesKey(this.sequence);
      this.sequence = sequence;
      // frames landed (a render in progress) or went: the pipeline's frames are listed again, playing on from the frame on screen
      if (landed && this.pipeline) this.refresh(true);
      return;
    }
    this.close();
    this.sequence = sequence;
    this.damaged.clear();
    this.emit();
  }

  /** The timeline between in and out, gaps included. */
  frames(): number[] {
    const q = this.sequence;
    if (!q) return [];
    const pb = this.deps.store.getState().playback;
    const first = Math.max(q.firstFrame, pb.inFrame ?? q.firstFrame);
    const last = Math.min(q.lastFrame, pb.outFrame ?? q.lastFrame);
    return timelineFrames(first, Math.max(first, last), q.step);
  }

  private settings(): PlaybackSlice {
    return this.deps.store.getState().playback;
  }

  private setPlaying(playing: boolean, direction?: 1 | -1): void {
    const pb = this.settings();
    if (pb.playing !== playing || (direction && pb.direction !== direction))
      this.deps.store.setState((s) => ({ ...s, playback: { ...s.playback, playing, ...(direction ? { direction } : {}) } }));
  }

  /** Plays from the frame on screen (the in point when none, or when a 'once' play had reached the end). */
  play(direction: 1 | -1 = this.settings().direction): void {
    const pipeline = this.ensurePipeline();
    if (!pipeline) return;
    const frames = this.frames();
    if (!frames.length) return;
    const pb = this.settings();
    let start = snapFrame(frames, this.presented?.frame ?? frames[0]!);
    if (pb.mode === 'once' && start === (direction === 1 ? frames[frames.length - 1] : frames[0]))
      start = direction === 1 ? frames[0]! : frames[frames.length - 1]!;
    const spec: ClockSpec = { frames, fps: pb.fps, mode: pb.mode, direction, startFrame: start };
    this.setPlaying(true, direction);
    pipeline.start(spec);
    this.loop();
  }

  stop(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    this.pipeline?.stop();
    this.setPlaying(false);
    this.emit();
  }

  toggle(): void {
    if (this.pipeline?.playing) this.stop();
    else this.play();
  }

  /** Shows `frame` (paused): scrubbing and stepping. */
  seek(frame: number): void {
    const pipeline = this.ensurePipeline();
    if (!pipeline) return;
    if (pipeline.playing) this.stop();
    const frames = this.frames();
    pipeline.seek(snapFrame(frames.length ? frames : [frame], frame));
    this.emit();
  }

  /** One frame on (1) or back (-1) between in and out, wrapping. */
  step(delta: 1 | -1): void {
    const frames = this.frames();
    if (!frames.length) return;
    const i = frames.indexOf(snapFrame(frames, this.frame ?? frames[0]!));
    this.seek(frames[(i + delta + frames.length) % frames.length]!);
  }

  /** Settings changed (rate, mode, in/out) or the layer did: playing goes on with them from the frame on screen. */
  refresh(layerChanged: boolean): void {
    if (!this.sequence) return;
    const playing = !!this.pipeline?.playing;
    const at = this.presented?.frame ?? null;
    if (layerChanged) this.close();
    if (playing) this.play();
    else if (layerChanged && at !== null) this.seek(at);
  }

  /** Stops and lets the pipeline go (the host's frame ring with it). */
  close(): void {
    if (this.raf) cancelAnimationFrame(this.raf);
    this.raf = 0;
    if (this.pipeline) {
      for (const f of this.pipeline.timeline.damagedFrames) this.damaged.add(f);
      this.pipeline.stop();
      this.pipeline.onChange = null;
    }
    this.pipeline = null;
    this.current = null;
    this.generation++;
    this.deps.host.api.setPlayback(null);
    this.setPlaying(false);
  }

  private loop(): void {
    if (this.raf) return;
    const frame = (): void => {
      this.raf = 0;
      const p = this.pipeline;
      if (!p?.playing) {
        this.setPlaying(false);
        this.emit();
        return;
      }
      p.tick();
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }

  private ensurePipeline(): FramePipeline<DecodedImage> | null {
    if (this.pipeline) return this.pipeline;
    const q = this.sequence;
    const engine = this.deps.engine();
    const pick = this.deps.choice();
    if (!q || !engine || !pick) return null;
    const channels = planesOf(pick.choice);
    this.current = { ...pick, channels };
    // frames are asked for as the preview asks (reduced where the engine cannot show them whole): slots for that size
    const fit = engine.fitWithin();
    const frame = fittedFrame(q.widthPx, q.heightPx, fit);
    const slotCount = slotCountFor(
      frame.widthPx,
      frame.heightPx,
      channels.map(() => ({ pixelType: 'half' as const, widthSamples: frame.widthPx, heightSamples: frame.heightPx })),
    );
    const byFrame = new Map(q.frames.map((f) => [f.frame, f.fileId]));
    const pipeline = new FramePipeline(
      this.io(engine, slotCount, q, fit),
      (f) => byFrame.get(f) ?? null,
      () => performance.now(),
      { slots: slotCount, maxLoads: PLAYER_MAX_LOADS, prerollMs: PREROLL_MS },
    );
    pipeline.onChange = () => this.emit();
    this.pipeline = pipeline;
    return pipeline;
  }

  private io(engine: GpuEngine, slotCount: number, q: SequenceInfo, fitWithin: FitWithin): PipelineIo<DecodedImage> {
    const gen = this.generation;
    const cur = this.current!;
    const { host } = this.deps;
    // the engine's slots on the device now (after a device loss, a new ring on the new one), watched for the next loss
    const slotsNow = (): FrameSlots => this.watchSlots(engine, engine.frameSlots(slotCount), gen);
    slotsNow();
    const fileOf = new Map(q.frames.map((f) => [f.frame, f.fileId]));
    return {
      load: async (fileId, tag) => {
        const t0 = performance.now();
        const request = { requestId: tag, fileId, part: cur.part, channels: cur.channels, priority: 'playback' as const, fitWithin };
        const image = await host.api.decodeImage(request);
        const wallMs = performance.now() - t0;
        const t = image.timings;
        return {
          data: image,
          hostMs: t.hostMs,
          readMs: t.readMs,
          decompressMs: t.decompressMs,
          unpackMs: t.unpackMs,
          queueMs: t.queueMs,
          source: image.source,
          transferMs: Math.max(0, wallMs - t.hostMs),
          bytes: image.planes.reduce((s, p) => s + p.data.byteLength, 0),
        };
      },
      cancel: (tag) => host.api.cancel(tag),
      upload: async (slot, image) => {
        if (gen !== this.generation) return { uploadMs: 0 };
        const fill = await slotsNow().fill(slot, image, cur.choice);
        return { uploadMs: fill.uploadMs, buildMs: fill.buildGpuMs };
      },
      // no emit here: the pipeline's onChange follows every present, once the step's counts are in
      present: (slot, frame) => {
        if (gen !== this.generation) return;
        engine.presentSlot(slot, { fileId: fileOf.get(frame) ?? '', part: cur.part }, cur.choice);
      },
      // the planes went to the GPU: their buffers take the next frame's pixels
      release: (image) => host.pool.give(image.planes.map((p) => p.data)),
      // with the limits the loads carry: a frame over them is decoded ahead once, at the size they ask for
      plan: (fileIds) => host.api.setPlayback(fileIds.length ? { fileIds, part: cur.part, channels: cur.channels, fitWithin } : null),
    };
  }

  /**
   * The pipeline of generation `gen` is told when `slots` go with their device (its frames in them are loaded again),
   * and once the engine is on a new device, when new slots can be had: playing goes on.
   */
  private watchSlots(engine: GpuEngine, slots: FrameSlots, gen: number): FrameSlots {
    slots.onLost = () => {
      if (gen !== this.generation) return;
      this.pipeline?.slotsLost();
      void engine.restored().then(() => {
        if (gen === this.generation) this.pipeline?.slotsBack();
      });
    };
    return slots;
  }
}

/** What the pipeline was built from: each frame's file and whether it can be read. */
const framesKey = (q: SequenceInfo | null): string => q?.frames.map((f) => `${f.frame}:${f.fileId}:${f.status}`).join(',') ?? '';
