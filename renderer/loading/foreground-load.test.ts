// The foreground gate: work waits while a picked image loads, runs in order once it ends, and no load holds it for good.
import { describe, expect, it } from 'vitest';
import { ForegroundLoad, type HoldTimer } from './foreground-load.js';

/** A timer the test fires by hand. */
function manualTimer() {
  const armed = new Map<number, () => void>();
  let next = 1;
  const timer: HoldTimer = {
    set: (run) => {
      armed.set(next, run);
      return next++;
    },
    clear: (handle) => void armed.delete(handle as number),
  };
  return { timer, armed, fireAll: () => [...armed.values()].forEach((run) => run()) };
}

describe('ForegroundLoad', () => {
  it('runs work at once while nothing loads, and defers it in order while a load runs', () => {
    const gate = new ForegroundLoad(10_000, manualTimer().timer);
    const ran: string[] = [];
    gate.whenIdle(() => ran.push('idle'));
    expect(ran).toEqual(['idle']);

    const load = gate.begin();
    expect(gate.busy).toBe(true);
    gate.whenIdle(() => ran.push('grid'));
    gate.whenIdle(() => ran.push('histogram'));
    expect(ran).toEqual(['idle']);
    gate.end(load);
    expect(gate.busy).toBe(false);
    expect(ran).toEqual(['idle', 'grid', 'histogram']);
    expect(gate.counts).toEqual({ loads: 1, deferred: 2 });
  });

  it('tells its subscribers once when a load starts holding and once when it lets go', () => {
    const gate = new ForegroundLoad(10_000, manualTimer().timer);
    const told: boolean[] = [];
    const stop = gate.subscribe((loading) => told.push(loading));
    const first = gate.begin();
    const second = gate.begin();
    gate.end(first);
    gate.end(second);
    gate.end(second);
    expect(told).toEqual([true, false]);
    stop();
    gate.end(gate.begin());
    expect(told).toEqual([true, false]);
  });

  it('a click during a load: the older load ending lets nothing go, the newer one does', async () => {
    const gate = new ForegroundLoad(10_000, manualTimer().timer);
    const older = gate.begin();
    const resumed = gate.idle().then(() => 'resumed');
    const newer = gate.begin();
    gate.end(older);
    expect(gate.busy).toBe(true);
    expect(await Promise.race([resumed, Promise.resolve('waiting')])).toBe('waiting');
    gate.end(newer);
    expect(await resumed).toBe('resumed');
  });

  it('a load that never ends lets go after its longest hold', () => {
    const { timer, armed, fireAll } = manualTimer();
    const gate = new ForegroundLoad(10_000, timer);
    const ran: string[] = [];
    const stuck = gate.begin();
    gate.whenIdle(() => ran.push('grid'));
    // a newer load arms the hold afresh: one timer at a time
    gate.begin();
    expect(armed.size).toBe(1);
    fireAll();
    expect(gate.busy).toBe(false);
    expect(ran).toEqual(['grid']);
    // the stuck load ending late changes nothing
    gate.end(stuck);
    expect(gate.busy).toBe(false);
  });

  it('work that starts another load leaves the rest waiting for it', () => {
    const gate = new ForegroundLoad(10_000, manualTimer().timer);
    const ran: string[] = [];
    let again = 0;
    const first = gate.begin();
    gate.whenIdle(() => {
      ran.push('reload');
      again = gate.begin();
    });
    gate.whenIdle(() => ran.push('grid'));
    gate.end(first);
    expect(ran).toEqual(['reload']);
    gate.end(again);
    expect(ran).toEqual(['reload', 'grid']);
  });
});
