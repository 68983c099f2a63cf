// PlaneReserve: buffers for the wanted plane sizes made at idle and kept for the next decode; paused while busy, never past its budget.
import { describe, expect, it } from 'vitest';
import { PlaneMemory } from './plane-memory.js';
import { PlaneReserve } from './plane-reserve.js';

const MB = 1 << 20;

/** Resolves once `done` holds, looking every few ms (the reserve works in slices between events). */
async function until(done: () => boolean, timeoutMs = 5000): Promise<void> {
  const t0 = performance.now();
  while (!done()) {
    if (performance.now() - t0 > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('PlaneReserve', () => {
  it('makes buffers that serve the wanted planes, which the next decode then takes instead of new memory', async () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    const reserve = new PlaneReserve(memory, { idle: () => true });
    const planes = [4 * MB, 4 * MB, 4 * MB, 4 * MB];
    reserve.want(planes);
    await until(() => !reserve.filling);
    expect(memory.lacking(planes)).toEqual([]);
    expect(reserve.touchedBytes).toBe(16 * MB);
    const allocated = memory.allocated;
    const taken = planes.map((b) => memory.take(b));
    expect(memory.allocated).toBe(allocated);
    expect(memory.reused).toBe(4);
    // what a decode took is made again when asked to look (after the decode)
    reserve.wake();
    await until(() => !reserve.filling);
    expect(memory.lacking(planes)).toEqual([]);
    expect(reserve.touchedBytes).toBe(32 * MB);
    // buffers kept already (an image that left the cache) count as ready: nothing more is made
    for (const b of taken) memory.give(b);
    reserve.wake();
    await until(() => !reserve.filling);
    expect(reserve.touchedBytes).toBe(32 * MB);
  });

  it('touches nothing while the host is busy, and finishes once it is idle', async () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    let idle = false;
    const reserve = new PlaneReserve(memory, { idle: () => idle, pollMs: 5 });
    reserve.want([8 * MB, 8 * MB]);
    await new Promise((r) => setTimeout(r, 60));
    expect(reserve.filling).toBe(true);
    expect(memory.keptBytes).toBe(0);
    idle = true;
    await until(() => !reserve.filling);
    expect(memory.lacking([8 * MB, 8 * MB])).toEqual([]);
  });

  it('yields between slices: other events run while it touches', async () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    const reserve = new PlaneReserve(memory, { idle: () => true, sliceMs: 0 });
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    reserve.want([8 * MB, 8 * MB, 8 * MB]);
    await until(() => !reserve.filling, 20_000);
    ticking = false;
    expect(reserve.touchedBytes).toBe(24 * MB);
    // a slice is at least 64 pages (256 KB): 96 of them, each followed by a turn of the event loop
    expect(ticks).toBeGreaterThanOrEqual(96);
  });

  it('asks for at most half the memory budget, so that what it makes is never dropped to keep the rest', async () => {
    const memory = new PlaneMemory({ keepBytes: 40 * MB });
    const reserve = new PlaneReserve(memory, { idle: () => true });
    reserve.want([16 * MB, 16 * MB, 16 * MB, 4 * MB]);
    await until(() => !reserve.filling);
    // 16 + 4 fit in 20 MB; the other two 16 MB planes are left to the decode
    expect(reserve.touchedBytes).toBe(20 * MB);
    expect(memory.keptBytes).toBe(20 * MB);
  });

  it('stops when closed, even while waiting for idle time', async () => {
    const memory = new PlaneMemory({ keepBytes: 256 * MB });
    const reserve = new PlaneReserve(memory, { idle: () => false, pollMs: 5 });
    reserve.want([8 * MB]);
    reserve.close();
    await until(() => !reserve.filling);
    expect(memory.keptBytes).toBe(0);
    reserve.want([8 * MB]);
    expect(reserve.filling).toBe(false);
  });
});
