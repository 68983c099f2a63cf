// Decoded images in RAM: least recently used first out, under a byte budget; the owner hears of what leaves.

export class RamCache<V> {
  private readonly entries = new Map<string, { value: V; sizeBytes: number }>();
  private usedBytes = 0;
  hits = 0;
  misses = 0;

  /** `onLeave` hears of every value that leaves the cache (evicted, deleted or replaced by another value). */
  constructor(
    readonly budgetBytes: number,
    private readonly onLeave: (value: V) => void = () => {},
  ) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    // re-insert: a Map iterates in insertion order, so the first key is the least recently used
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.hits++;
    return entry.value;
  }

  /** Stores a value (or a new size for the value already under `key`); one larger than the whole budget is not kept. Returns whether it was kept. */
  set(key: string, value: V, sizeBytes: number): boolean {
    const held = this.entries.get(key);
    if (held) {
      this.entries.delete(key);
      this.usedBytes -= held.sizeBytes;
      if (held.value !== value) this.onLeave(held.value);
    }
    if (sizeBytes > this.budgetBytes) return false;
    this.entries.set(key, { value, sizeBytes });
    this.usedBytes += sizeBytes;
    for (const [oldKey, old] of this.entries) {
      if (this.usedBytes <= this.budgetBytes) break;
      this.entries.delete(oldKey);
      this.usedBytes -= old.sizeBytes;
      this.onLeave(old.value);
    }
    return true;
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.usedBytes -= entry.sizeBytes;
    this.onLeave(entry.value);
  }

  /** Drops every entry whose key starts with `prefix` (all levels and channel sets of one file). */
  deletePrefix(prefix: string): void {
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.delete(key);
  }

  /** Looks without counting a hit or a miss, or changing the order. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get sizeBytes(): number {
    return this.usedBytes;
  }

  get count(): number {
    return this.entries.size;
  }
}
