// An LRU of byte-sized entries under a budget: the GPU texture cache's bookkeeping (eviction order, counters).

export interface Sized {
  readonly bytes: number;
  destroy(): void;
}

export interface CacheCounters {
  entries: number;
  bytes: number;
  budgetBytes: number;
  hits: number;
  misses: number;
  evictions: number;
}

export class ByteLru<T extends Sized> {
  private readonly map = new Map<string, T>();
  hits = 0;
  misses = 0;
  evictions = 0;

  constructor(public budgetBytes: number) {}

  /** Counts a hit or a miss, and makes a hit the most recently used. */
  get(key: string): T | undefined {
    const v = this.map.get(key);
    if (v) {
      this.hits++;
      this.map.delete(key);
      this.map.set(key, v);
    } else this.misses++;
    return v;
  }

  /** Looks without counting or reordering. */
  peek(key: string): T | undefined {
    return this.map.get(key);
  }

  set(key: string, value: T, keep?: string | ReadonlySet<string>): void {
    const old = this.map.get(key);
    if (old && old !== value) old.destroy();
    this.map.delete(key);
    this.map.set(key, value);
    this.trim(keep ?? key);
  }

  /** Evicts least recently used entries until the total fits, never those in `keep` (what is on screen). */
  trim(keep?: string | ReadonlySet<string>): void {
    const kept = (k: string) => (typeof keep === 'string' ? k === keep : !!keep?.has(k));
    for (const [k, v] of this.map) {
      if (this.totalBytes() <= this.budgetBytes) return;
      if (kept(k)) continue;
      this.map.delete(k);
      v.destroy();
      this.evictions++;
    }
  }

  /**
   * Evicts least recently used entries (never those in `keep`) until `bytes` more fit the budget; false when they
   * cannot, even with everything else evicted.
   */
  makeRoom(bytes: number, keep: ReadonlySet<string>): boolean {
    let total = this.totalBytes();
    for (const [k, v] of this.map) {
      if (total + bytes <= this.budgetBytes) return true;
      if (keep.has(k)) continue;
      this.map.delete(k);
      v.destroy();
      this.evictions++;
      total -= v.bytes;
    }
    return total + bytes <= this.budgetBytes;
  }

  /** Bytes held by the entries of `keys`. */
  bytesOf(keys: ReadonlySet<string>): number {
    let total = 0;
    for (const k of keys) total += this.map.get(k)?.bytes ?? 0;
    return total;
  }

  totalBytes(): number {
    let total = 0;
    for (const v of this.map.values()) total += v.bytes;
    return total;
  }

  keys(): string[] {
    return [...this.map.keys()];
  }

  /** Drops one entry and destroys it (not counted as an eviction). */
  /** Removes an entry without destroying it: the caller now owns it. */
  take(key: string): T | undefined {
    const v = this.map.get(key);
    this.map.delete(key);
    return v;
  }

  delete(key: string): void {
    const v = this.map.get(key);
    if (!v) return;
    this.map.delete(key);
    v.destroy();
  }

  /** Drops everything without destroying (the device that owned it is gone). */
  forgetAll(): void {
    this.map.clear();
  }

  clear(): void {
    for (const v of this.map.values()) v.destroy();
    this.map.clear();
  }

  counters(): CacheCounters {
    return {
      entries: this.map.size,
      bytes: this.totalBytes(),
      budgetBytes: this.budgetBytes,
      hits: this.hits,
      misses: this.misses,
      evictions: this.evictions,
    };
  }
}
