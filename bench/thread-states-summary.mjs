// Sums a bench/thread-states.c trace: thread-samples per kernel wait, then per time step the threads running and the main waits.
// Usage: node bench/thread-states-summary.mjs TRACE.txt [--from MS] [--step MS]. Prints one JSON object on its last line.
import { readFileSync } from 'node:fs';

const [file, ...rest] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/thread-states-summary.mjs TRACE.txt [--from MS] [--step MS]');
  process.exit(2);
}
const option = (name, fallback) => (rest.includes(name) ? Number(rest[rest.indexOf(name) + 1]) : fallback);
const fromMs = option('--from', 0);
const stepMs = option('--step', 10);
// a thread waiting for work (a futex, an event loop) is idle, not blocked
const IDLE = new Set(['futex_do_wait', 'futex_wait_queue', 'futex_wait_queue_me', 'do_epoll_wait', 'ep_poll', '-', '0']);

const waits = new Map();
const steps = new Map();
for (const line of readFileSync(file, 'utf8').split('\n')) {
  const [time, ...threads] = line.trim().split(' ');
  const t = Number(time);
  if (!threads.length || !(t >= fromMs)) continue;
  const step = Math.floor((t - fromMs) / stepMs);
  const s = steps.get(step) ?? { samples: 0, running: 0, waits: new Map() };
  s.samples++;
  for (const thread of threads) {
    const [, state, wchan] = thread.split(':');
    if (state === 'R') s.running++;
    else if (!IDLE.has(wchan)) {
      waits.set(wchan, (waits.get(wchan) ?? 0) + 1);
      s.waits.set(wchan, (s.waits.get(wchan) ?? 0) + 1);
    }
  }
  steps.set(step, s);
}
const top = (map, n) => Object.fromEntries([...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, n));
const timeline = [...steps.entries()].sort((a, b) => a[0] - b[0]).map(([step, s]) => ({ ms: fromMs + step * stepMs, running: Number((s.running / s.samples).toFixed(1)), waits: top(s.waits, 3) }));
for (const row of timeline) console.log(`${String(row.ms).padStart(6)} ms  running ${String(row.running).padStart(4)}  ${JSON.stringify(row.waits)}`);
console.log(JSON.stringify({ file, threadSamplesByWait: top(waits, 12), timeline }));
