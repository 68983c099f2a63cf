// The images tev clients sent: name → size, channels and float32 planes, changed by packets; says what changed to its listeners.

import type { PixelRegion } from '../../contract/host-api.js';
import type { TevCreateImage, TevPacket, TevUpdateImage, TevVectorCommand } from './packet.js';

export interface LiveImage {
  name: string;
  widthPx: number;
  heightPx: number;
  channelNames: string[];
  /** One plane per channel, widthPx × heightPx float32 samples, rows top to bottom. */
  planes: Float32Array[];
  /** Counts changes: a decode or thumbnail of an older version is stale. */
  version: number;
  createdMs: number;
  updatedMs: number;
  /** The vector graphics tev draws over it, as sent (replaced or appended as each packet's `append` says). */
  vectorCommands: TevVectorCommand[];
  /**
   * An image OpenImage read from disk: its file and channel selector, which a ReloadImage reads again (tev names such an
   * image `path:channelSelector`, or `path` without a selector). Null for an image a client created.
   */
  source: { path: string; channelSelector: string } | null;
}

/**
 * `region`: an update changed only these pixels (tev's UpdateImage); absent, the whole image may have changed.
 * `grabFocus`: the packet asked for the image to be shown (tev's grabFocus).
 */
export type LiveChange =
  | { kind: 'added' | 'changed'; image: LiveImage; region?: PixelRegion; grabFocus?: boolean }
  /** Its vector graphics changed (the image's pixels did not). */
  | { kind: 'vectors'; image: LiveImage; grabFocus?: boolean }
  | { kind: 'removed'; image: LiveImage };

/** What a packet did, for the listener's log: nothing is an error here (tev logs these and carries on). */
export type ApplyOutcome = { ok: true } | { ok: false; note: string };

export interface LiveImagesOptions {
  /** All images' planes together (default 4 GiB): a create past it is refused. */
  maxBytes?: number;
  /** OpenImage and ReloadImage name files on disk: how they are read, when the owner reads them. */
  openFile?: (path: string, channelSelector: string) => Promise<TevCreateImage & { planes: Float32Array[] }>;
  now?: () => number;
}

const MAX_VECTOR_COMMANDS_KEPT = 1 << 20;

export class LiveImages {
  private readonly images = new Map<string, LiveImage>();
  private readonly listeners = new Set<(change: LiveChange) => void>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;

  constructor(private readonly options: LiveImagesOptions = {}) {
    this.maxBytes = options.maxBytes ?? 4 * 2 ** 30;
    this.now = options.now ?? Date.now;
  }

  get sizeBytes(): number {
    return this.bytes;
  }

  list(): LiveImage[] {
    return [...this.images.values()];
  }

  get(name: string): LiveImage | undefined {
    return this.images.get(name);
  }

  onChange(listener: (change: LiveChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: LiveChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch {
        // one broken listener must not stop the others
      }
    }
  }

  async apply(packet: TevPacket): Promise<ApplyOutcome> {
    switch (packet.type) {
      case 'create-image':
        return this.create(packet, null, packet.grabFocus);
      case 'update-image':
        return this.update(packet);
      case 'close-image':
        return this.close(packet.name);
      case 'vector-graphics': {
        const image = this.images.get(packet.name);
        if (!image) return { ok: false, note: `vector graphics for "${packet.name}", which is not open` };
        const kept = packet.append ? image.vectorCommands.length : 0;
        if (kept + packet.commands.length > MAX_VECTOR_COMMANDS_KEPT)
          return { ok: false, note: `too many vector commands for "${packet.name}"` };
        image.vectorCommands = packet.append ? image.vectorCommands.concat(packet.commands) : packet.commands;
        this.emit({ kind: 'vectors', image, grabFocus: packet.grabFocus });
        return { ok: true };
      }
      case 'open-image':
        return this.open({ path: packet.path, channelSelector: packet.channelSelector }, packet.grabFocus);
      case 'reload-image': {
        const image = this.images.get(packet.name);
        if (!image) return { ok: false, note: `reload of "${packet.name}", which is not open` };
        if (!image.source) return { ok: false, note: `reload of "${packet.name}", which a client created (no file to read)` };
        // as tev: an image shown now stays shown, whatever grabFocus says
        return this.open(image.source, packet.grabFocus);
      }
    }
  }

  /** Reads a file (OpenImage, ReloadImage) into the image tev would name for it: `path`, or `path:channelSelector`. */
  private async open(source: { path: string; channelSelector: string }, grabFocus: boolean): Promise<ApplyOutcome> {
    const { path, channelSelector } = source;
    if (!this.options.openFile) return { ok: false, note: `cannot open ${path}: this listener does not read files` };
    try {
      const read = await this.options.openFile(path, channelSelector);
      const name = channelSelector ? `${path}:${channelSelector}` : path;
      return this.create({ ...read, name }, read.planes, grabFocus, source);
    } catch (error) {
      return { ok: false, note: `cannot open ${path}: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  /** As tev: a create under a name already open replaces that image. */
  create(
    packet: Omit<TevCreateImage, 'type' | 'grabFocus'>,
    planes: Float32Array[] | null,
    grabFocus = false,
    source: LiveImage['source'] = null,
  ): ApplyOutcome {
    const { name, widthPx, heightPx, channelNames } = packet;
    const old = this.images.get(name);
    const bytes = widthPx * heightPx * channelNames.length * 4;
    const freed = old ? old.planes.length * old.widthPx * old.heightPx * 4 : 0;
    if (this.bytes - freed + bytes > this.maxBytes) {
      return { ok: false, note: `"${name}" (${bytes} bytes) does not fit: the live images may hold ${this.maxBytes} bytes, close some` };
    }
    const t = this.now();
    const image: LiveImage = {
      name,
      widthPx,
      heightPx,
      channelNames,
      planes: planes ?? channelNames.map(() => new Float32Array(widthPx * heightPx)),
      version: (old?.version ?? 0) + 1,
      createdMs: old?.createdMs ?? t,
      updatedMs: t,
      vectorCommands: [],
      source,
    };
    this.bytes += bytes - freed;
    this.images.set(name, image);
    this.emit({ kind: old ? 'changed' : 'added', image, grabFocus });
    return { ok: true };
  }

  private update(packet: TevUpdateImage): ApplyOutcome {
    const image = this.images.get(packet.name);
    if (!image) return { ok: false, note: `update of "${packet.name}", which is not open (create it first)` };
    const { x, y, widthPx: w, heightPx: h, data } = packet;
    if (x + w > image.widthPx || y + h > image.heightPx) {
      return { ok: false, note: `tile ${w}×${h} at (${x}, ${y}) does not fit in "${packet.name}" (${image.widthPx}×${image.heightPx})` };
    }
    const unknown = packet.channels.filter((c) => !image.channelNames.includes(c.name)).map((c) => c.name);
    for (const c of packet.channels) {
      const plane = image.planes[image.channelNames.indexOf(c.name)];
      if (!plane) continue;
      for (let row = 0; row < h; row++) {
        const to = (y + row) * image.widthPx + x;
        const from = c.offset + row * w * c.stride;
        if (c.stride === 1) plane.set(data.subarray(from, from + w), to);
        else for (let col = 0; col < w; col++) plane[to + col] = data[from + col * c.stride]!;
      }
    }
    image.version++;
    image.updatedMs = this.now();
    this.emit({ kind: 'changed', image, region: { xPx: x, yPx: y, widthPx: w, heightPx: h }, grabFocus: packet.grabFocus });
    return unknown.length ? { ok: false, note: `"${packet.name}" has no channel ${unknown.join(', ')}: those were skipped` } : { ok: true };
  }

  close(name: string): ApplyOutcome {
    const image = this.images.get(name);
    if (!image) return { ok: false, note: `close of "${name}", which is not open` };
    this.images.delete(name);
    this.bytes -= image.planes.length * image.widthPx * image.heightPx * 4;
    this.emit({ kind: 'removed', image });
    return { ok: true };
  }

  clear(): void {
    for (const name of [...this.images.keys()]) this.close(name);
  }
}
