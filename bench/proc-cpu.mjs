// CPU accounting from /proc (Linux) while a bench step runs: each server thread's user and system time and page faults,
// Chromium's processes, and the machine. On a shared machine wall times swing with the load; CPU time spent does not.
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks a second of /proc's CPU fields (USER_HZ: 100 on every Linux this runs on). */
const TICK_MS = 10;

/** Fields of a /proc stat line after the command name (state is field 0; minflt 7, utime 11, stime 12, ppid 1). */
function statFields(path) {
  const stat = readFileSync(path, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** Each thread of a process: user and system ms, minor page faults. */
function threadsOf(pid) {
  const out = new Map();
  let tids = [];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const f = statFields(`/proc/${pid}/task/${tid}/stat`);
      out.set(Number(tid), { userMs: Number(f[11]) * TICK_MS, sysMs: Number(f[12]) * TICK_MS, faults: Number(f[7]) });
    } catch {
      // a thread that ended
    }
  }
  return out;
}

/**
 * CPU ms of the descendants of this process but those under `skip` (Chromium's browser, GPU, renderer and utility
 * processes, leaving out the server's).
 */
function childrenCpuMs(skip) {
  const children = new Map();
  const cpu = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const f = statFields(`/proc/${name}/stat`);
      const ppid = Number(f[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(name));
      cpu.set(Number(name), (Number(f[11]) + Number(f[12])) * TICK_MS);
    } catch {
      // a process that ended
    }
  }
  let ms = 0;
  for (const stack = [...(children.get(process.pid) ?? [])]; stack.length;) {
    const pid = stack.pop();
    if (pid === skip) continue;
    ms += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return ms;
}

/** Busy ms of all CPUs together (user, nice, system, irq, softirq). */
function machineBusyMs() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].split(/\s+/).slice(1).map(Number);
  return (f[0] + f[1] + f[2] + f[5] + f[6]) * TICK_MS;
}

/**
 * Samples the server's threads, the browser's processes (this process's other children) and the machine every
 * `periodMs` until stop(); then
 * `during(ms, threads)` accounts the `ms` from when the server's `threads` busiest threads (the decode workers) had
 * all run after the start: the host's decode, where `ms` is its host-ready time.
 */
export function sampleCpu(serverPid, periodMs = 40) {
  const samples = [];
  const t0 = performance.now();
  const take = () =>
    samples.push({
      t: performance.now() - t0,
      threads: threadsOf(serverPid),
      browserMs: childrenCpuMs(serverPid),
      machineMs: machineBusyMs(),
    });
  take();
  const timer = setInterval(take, periodMs);
  return {
    stop() {
      clearInterval(timer);
      take();
    },
    during(ms, threads) {
      const first = samples[0];
      const last = samples.at(-1);
      const cpuOf = (s, tid) => (s.threads.get(tid)?.userMs ?? 0) + (s.threads.get(tid)?.sysMs ?? 0);
      const gain = (tid) => cpuOf(last, tid) - cpuOf(first, tid);
      const busiest = [...last.threads.keys()]
        .filter((tid) => tid !== serverPid)
        .sort((x, y) => gain(y) - gain(x))
        .slice(0, threads);
      // the decode runs on every worker at once: a blip of one thread (a finishing task, a collector) is not its start
      const moved = samples.findIndex((s) => busiest.every((tid) => cpuOf(s, tid) > cpuOf(first, tid)));
      const a = samples[Math.max(0, moved - 1)];
      const b = samples.find((s) => s.t >= a.t + ms) ?? last;
      const server = { userMs: 0, sysMs: 0, faults: 0 };
      for (const [tid, end] of b.threads) {
        const start = a.threads.get(tid) ?? { userMs: 0, sysMs: 0, faults: 0 };
        server.userMs += end.userMs - start.userMs;
        server.sysMs += end.sysMs - start.sysMs;
        server.faults += end.faults - start.faults;
      }
      return {
        windowMs: Math.round(b.t - a.t),
        serverUserMs: server.userMs,
        serverSysMs: server.sysMs,
        serverMinorFaults: server.faults,
        chromiumMs: b.browserMs - a.browserMs,
        machineBusyMs: b.machineMs - a.machineMs,
      };
    },
  };
}
