// Sums a bench/thread-states.c trace: thread-samples per kernel wait, per time step the threads running and the main
// waits, and each thread's CPU time over the window.
// Usage: node bench/thread-states-summary.mjs TRACE.txt [--from MS] [--to MS] [--step MS]. Prints one JSON object on its last line.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/thread-states-summary.mjs TRACE.txt [--from MS] [--to MS] [--step MS]');
  process.exit(2);
}
const option = (name, fallback) => (rest.includes(name) ? Number(rest[rest.indexOf(name) + 1]) : fallback);
const fromMs = option('--from', 0);
const toMs = option('--to', Infinity);
const stepMs = option('--step', 10);
// a thread waiting for work (a futex, an event loop) is idle, not blocked
const IDLE = new Set(['futex_do_wait', 'futex_wait_queue', 'futex_wait_queue_me', 'do_epoll_wait', 'ep_poll', '-', '0']);
/** Linux reports CPU time in clock ticks of 10 ms (USER_HZ 100) on every architecture Node runs on. */
const MS_PER_TICK = 10;

const waits = new Map();
const steps = new Map();
/** Per thread: its CPU ticks at its first and last sample in the window. */
const ticks = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const [time, ...threads] = line.trim().split(' ');
  const t = Number(time);
  if (!threads.length || !(t >= fromMs) || t > toMs) continue;
  const step = Math.floor((t - fromMs) / stepMs);
  const s = steps.get(step) ?? { samples: 0, running: 0, waits: new Map() };
  s.samples++;
  for (const thread of threads) {
    const [tid, state, wchan, cpu] = thread.split(':');
    if (state === 'R') s.running++;
    else if (!IDLE.has(wchan)) {
      waits.set(wchan, (waits.get(wchan) ?? 0) + 1);
      s.waits.set(wchan, (s.waits.get(wchan) ?? 0) + 1);
    }
    if (cpu !== undefined) {
      const seen = ticks.get(tid);
      if (seen) seen.last = Number(cpu);
      else ticks.set(tid, { first: Number(cpu), last: Number(cpu) });
    }
  }
  steps.set(step, s);
}
const top = (map, n) => Object.fromEntries([...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n));
const timeline = [...steps.entries()]
  .sort((a, b) => a[0] - b[0])
  .map(([step, s]) => ({ ms: fromMs + step * stepMs, running: Number((s.running / s.samples).toFixed(1)), waits: top(s.waits, 3) }));
const cpuMsByThread = new Map([...ticks.entries()].map(([tid, t]) => [tid, (t.last - t.first) * MS_PER_TICK]).filter(([, ms]) => ms > 0));
for (const row of timeline)
  console.log(`${String(row.ms).padStart(6)} ms  running ${String(row.running).padStart(4)}  ${JSON.stringify(row.waits)}`);
console.log(`CPU over the window by thread (ms): ${JSON.stringify(top(cpuMsByThread, 40))}`);
console.log(JSON.stringify({ file, threadSamplesByWait: top(waits, 12), cpuMsByThread: Object.fromEntries(cpuMsByThread), timeline }));
