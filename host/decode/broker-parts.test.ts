// A request split into parts (the bands of a streamed reduction, ids `id` + SUB_REQUEST + …): cancelling the request
// cancels every part still waiting, and their work; other requests are left alone.
import { describe, expect, it } from 'vitest';
import { JobBroker, SUB_REQUEST } from './broker.js';
import type { JobHandle } from './pool.js';

/** Work that never finishes by itself: it only says whether it was cancelled. */
function work(): JobHandle<unknown> & { cancelled: boolean } {
  let reject: (e: unknown) => void = () => {};
  const handle = {
    id: 0,
    cancelled: false,
    promise: new Promise<never>((_, r) => (reject = r)),
    cancel: () => {
      handle.cancelled = true;
      reject(new Error('cancelled'));
    },
    setPriority: () => {},
  };
  return handle;
}

describe('cancelling a request split into parts', () => {
  it('drops each part and stops its work, and no other request', async () => {
    const broker = new JobBroker();
    const jobs = [work(), work(), work()];
    const band = (i: number) => broker.run(`k${i}`, { fileId: 'f', kind: 'crop' }, () => jobs[i]!, 'preview', `r1${SUB_REQUEST}band ${i}`);
    const parts = [band(0), band(1)];
    const other = broker.run('k2', { fileId: 'f', kind: 'crop' }, () => jobs[2]!, 'preview', 'r10');
    expect(broker.cancel('r1')).toBe(true);
    for (const p of parts) await expect(p).rejects.toThrow(/cancelled: request r1/);
    expect(jobs.map((j) => j.cancelled)).toEqual([true, true, false]);
    expect(broker.cancel('r1')).toBe(false);
    expect(broker.cancel('r10')).toBe(true);
    await expect(other).rejects.toThrow(/cancelled/);
  });
});
