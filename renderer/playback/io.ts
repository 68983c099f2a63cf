// What the frame pipeline is given and asks of the world: loads from the host, uploads into slots, presents, the plan
// the host decodes ahead; and what the screen shows. The renderer puts the host and the GPU engine behind it, the
// benchmark the host and plain buffers.

/** What a load brought: the pixels (opaque here) and where the time went. */
export interface LoadResult<D> {
  data: D;
  /** The host's reply time (waiting for a frame the ring is still decoding, or decoding it now). */
  hostMs: number;
  /** The decode of this frame, summed over the workers that did it (0 when it came from the RAM cache). */
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  queueMs: number;
  source: 'decode' | 'ram-cache';
  /** Moving the planes to the player: request to last byte, less the host's time (0 in the same process). */
  transferMs: number;
  bytes: number;
}

export interface UploadResult {
  /** CPU time of the upload call (staging copy, encode, submit). */
  uploadMs: number;
  /** GPU work of building the shown layer (assemble + MIP), when measured. */
  buildMs?: number;
}

export interface PipelineIo<D> {
  /** The frame's planes; rejects when the frame cannot be decoded (a damaged file). `tag` names the request for cancel(). */
  load(fileId: string, tag: string): Promise<LoadResult<D>>;
  cancel(tag: string): void;
  /** Puts loaded pixels into slot `slot` (the slot is not shown while this runs). */
  upload(slot: number, data: D, frame: number): Promise<UploadResult>;
  /** Shows slot `slot` now. */
  present(slot: number, frame: number): void;
  /** Loaded pixels that are not needed any more (uploaded, dropped or cancelled): their buffers go back. */
  release(data: D): void;
  /** The files the pipeline will ask for next, in order (empty: none), so that the host decodes them ahead. */
  plan(fileIds: string[]): void;
}

export interface PipelineOptions {
  /** Upload slots, the one on screen included (at least 2). */
  slots: number;
  /** Loads in flight at once. */
  maxLoads: number;
  /** Frames in a plan sent to the host. */
  planFrames?: number;
  /** Most time Play buffers before the clock starts (0: the clock starts at once). */
  prerollMs?: number;
}

/** What the screen shows now: a frame, or a frame's place held by the previous image (missing or damaged). */
export interface Presented {
  frame: number;
  kind: 'shown' | 'missing' | 'damaged';
  /** Why a damaged frame could not be shown. */
  reason: string;
}
