// Where a run's worker time went, from the decode pool's traces (EXRVIEW_TRACE=PREFIX: host/decode/pool-trace.ts).
// Usage: node bench/pool-trace-summary.mjs TRACE.json... [--kind band|thumbnailBand] [--passes]   Prints one JSON line last.
//
// Per trace, over the tasks of one kind (the most numerous by default): the span from the first task's start to the
// last one's end; the workers' busy time; their idle time at the head (before their first task), in gaps between tasks
// and at the tail (after their last, while others still ran); each worker's first task against the median of the
// kind (a fresh worker's cold cost); how long a reply waited for the main thread; and for thumbnail bands, what the
// band that finished a thumbnail spent on encoding and writing it.
// --passes: a trace is split where no task of the kind ran for PASS_GAP_MS, and each pass is summarised alone: a bench
// process's trace holds its warm-up jobs, its untimed pass and every timed pass (the last ones), one after another.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const args = process.argv.slice(2);
const kindAt = args.indexOf('--kind');
const wantedKind = kindAt >= 0 ? args[kindAt + 1] : null;
const byPass = args.includes('--passes');
/** Between two passes of a bench run the other kind of task runs (thumbnails between decodes): far longer than this. */
const PASS_GAP_MS = 20;
const files = args.filter((a, i) => !a.startsWith('--') && (kindAt < 0 || i !== kindAt + 1));
if (files.length === 0) {
  console.error('usage: node bench/pool-trace-summary.mjs TRACE.json... [--kind band|thumbnailBand] [--passes]');
  process.exit(2);
}

const median = (v) => (v.length ? v.slice().sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)] : 0);
const quantile = (v, q) => (v.length ? v.slice().sort((a, b) => a - b)[Math.min(v.length - 1, Math.floor(q * v.length))] : 0);
const round = (v) => Math.round(v * 10) / 10;

/** The trace's tasks of the kind asked for (the most numerous by default), whole or split into passes. */
function summariseFile(path) {
  const trace = JSON.parse(readFileSync(path, 'utf8'));
  const counts = new Map();
  for (const t of trace.tasks) counts.set(t.kind, (counts.get(t.kind) ?? 0) + 1);
  const kind = wantedKind ?? [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  const tasks = trace.tasks.filter((t) => t.kind === kind);
  if (!byPass) return [summarise(basename(path), trace.workers, kind, tasks)];
  return passesOf(tasks).map((pass, i) => summarise(`${basename(path)} pass ${i + 1}`, trace.workers, kind, pass));
}

/** Tasks in runs separated by PASS_GAP_MS or more with none of them running. */
function passesOf(tasks) {
  const sorted = tasks.slice().sort((a, b) => a.startedAtMs - b.startedAtMs);
  const passes = [];
  let runningUntil = -Infinity;
  for (const t of sorted) {
    if (t.startedAtMs - runningUntil >= PASS_GAP_MS) passes.push([]);
    passes.at(-1).push(t);
    runningUntil = Math.max(runningUntil, t.endedAtMs);
  }
  return passes;
}

function summarise(name, workers, kind, tasks) {
  const trace = { workers };
  if (tasks.length === 0) return { trace: name, kind, tasks: 0 };
  const start = Math.min(...tasks.map((t) => t.startedAtMs));
  const end = Math.max(...tasks.map((t) => t.endedAtMs));
  const byWorker = new Map();
  for (const t of tasks) byWorker.set(t.worker, [...(byWorker.get(t.worker) ?? []), t]);
  let headMs = 0,
    tailMs = 0,
    gapsMs = 0,
    longGapsMs = 0;
  const firstTaskMs = [];
  for (const list of byWorker.values()) {
    list.sort((a, b) => a.startedAtMs - b.startedAtMs);
    headMs += list[0].startedAtMs - start;
    tailMs += end - list.at(-1).endedAtMs;
    firstTaskMs.push(list[0].endedAtMs - list[0].startedAtMs);
    for (let i = 1; i < list.length; i++) {
      const gap = list[i].startedAtMs - list[i - 1].endedAtMs;
      gapsMs += gap;
      if (gap > 0.5) longGapsMs += gap;
    }
  }
  const durations = tasks.map((t) => t.endedAtMs - t.startedAtMs);
  const replyWaits = tasks.map((t) => t.answeredAtMs - t.endedAtMs);
  const finishing = tasks.filter((t) => (t.timings?.encodeMs ?? 0) + (t.timings?.writeMs ?? 0) > 0.01);
  const mean = (key) => (finishing.length ? round(finishing.reduce((s, t) => s + (t.timings[key] ?? 0), 0) / finishing.length) : null);
  const spanMs = end - start;
  const busyMs = durations.reduce((a, b) => a + b, 0);
  return {
    trace: name,
    kind,
    tasks: tasks.length,
    workers: trace.workers,
    spanMs: round(spanMs),
    busyMs: round(busyMs),
    busyShare: Math.round((1000 * busyMs) / (trace.workers * spanMs)) / 1000,
    idleMs: { head: round(headMs), gaps: round(gapsMs), gapsOverHalfMs: round(longGapsMs), tail: round(tailMs) },
    taskMs: { median: round(median(durations)), firstPerWorker: round(median(firstTaskMs)) },
    replyWaitMs: { median: round(median(replyWaits)), p90: round(quantile(replyWaits, 0.9)), max: round(Math.max(...replyWaits)) },
    ...(finishing.length ? { thumbnailFinishing: { count: finishing.length, encodeMs: mean('encodeMs'), writeMs: mean('writeMs') } } : {}),
  };
}

const summaries = files.flatMap(summariseFile);
for (const s of summaries) {
  if (!s.tasks) {
    console.log(`${s.trace}: no ${s.kind ?? ''} tasks`);
    continue;
  }
  console.log(
    `${s.trace}: ${s.tasks} ${s.kind} tasks on ${s.workers} workers over ${s.spanMs} ms, busy ${Math.round(s.busyShare * 100)}%; ` +
      `idle worker-ms: head ${s.idleMs.head}, gaps ${s.idleMs.gaps} (${s.idleMs.gapsOverHalfMs} in gaps over 0.5 ms), tail ${s.idleMs.tail}; ` +
      `task median ${s.taskMs.median} ms, a worker's first ${s.taskMs.firstPerWorker} ms; reply waits median ${s.replyWaitMs.median} ms, p90 ${s.replyWaitMs.p90}, max ${s.replyWaitMs.max}` +
      (s.thumbnailFinishing
        ? `; finishing bands encode ${s.thumbnailFinishing.encodeMs} ms, write ${s.thumbnailFinishing.writeMs} ms`
        : ''),
  );
}
console.log(JSON.stringify(summaries));
