// Sequence playback through the host pipeline, in Node: the player's own clock and frame pipeline (renderer/playback)
// over the host's frame ring, up to the upload buffers (or, with --upload dawn, through the GPU). Prints fps, drops and
// per-stage times per frame; the last line is one JSON object.
//
//   node bench/sequence/build.mjs && node dist/sequence-bench/bench.mjs [--size 1920x1080] [--compression zip]
//     [--frames 48] [--fps 24] [--loops 2] [--upload copy|dawn] [--workers N] [--dir DIR] [--budget-mb N]
//     [--preroll-ms N (the player's, 0: the clock starts at once)]
//
// The sequence is written first when DIR lacks it (by the project's writer, on every core). "Cold" means a new host
// (empty RAM cache, workers started before the clock, as OpenEXR makes its threads first) and the files dropped from
// the OS page cache where `dd iflag=nocache` can (said in the output). Loop 1 plays cold; loop 2 from what the RAM
// cache kept. Then the throughput run: every frame in order as fast as the pipeline goes, again cold.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { isMainThread, workerData } from 'node:worker_threads';
import type { SequenceInfo } from '../../contract/host-api.js';
import { createHost, type Host } from '../../host/host.js';
import { nativeStatus } from '../../codec/compression/native.js';
import type { Compression } from '../../codec/core/types.js';
import { frameFileName, type SequenceSpec } from '../../host/samples/sequence.js';
import { timelineFrames, type ClockSpec } from '../../renderer/playback/clock.js';
import { FramePipeline, PLAYER_MAX_LOADS, PREROLL_MS } from '../../renderer/playback/pipeline.js';
import { slotCountFor } from '../../renderer/gpu/slot-budget.js';
import { FrameTimeline, medianOf, STAGES, type FrameRecord, type PlaybackSummary } from '../../renderer/playback/timeline.js';
import { makeInThread, makeSequenceParallel } from './make.js';
import { copyUploads, hostIo, type Uploads } from './node-io.js';

if (!isMainThread && (workerData as { role?: string } | null)?.role === 'make') {
  makeInThread((workerData as { spec: Parameters<typeof makeInThread>[0] }).spec);
} else {
  await main().catch((error: unknown) => {
    console.error(`sequence bench: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}

interface Args {
  widthPx: number;
  heightPx: number;
  compression: Compression;
  frames: number;
  fps: number | null;
  loops: number;
  upload: 'copy' | 'dawn';
  workers: number;
  slots: number;
  maxLoads: number;
  prerollMs: number;
  budgetBytes: number | undefined;
  dir: string;
  throughput: boolean;
  dropCache: boolean;
}

function parseArgs(argv: string[]): Args {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const [w, h] = (arg('size') ?? '1920x1080').split('x').map(Number);
  if (!w || !h) throw new Error('--size must be WIDTHxHEIGHT, e.g. 1920x1080');
  const compression = (arg('compression') ?? 'zip') as Compression;
  const frames = Number(arg('frames') ?? 48);
  const upload = arg('upload') ?? 'copy';
  if (upload !== 'copy' && upload !== 'dawn') throw new Error('--upload is copy or dawn');
  return {
    widthPx: w,
    heightPx: h,
    compression,
    frames,
    fps: arg('fps') ? Number(arg('fps')) : null,
    loops: Number(arg('loops') ?? 2),
    upload,
    workers: Number(arg('workers') ?? availableParallelism()),
    // the player's own ring and loads unless told otherwise
    slots: Number(
      arg('slots') ??
        slotCountFor(
          w,
          h,
          ['R', 'G', 'B', 'A'].map(() => ({ pixelType: 'half' as const, widthSamples: w, heightSamples: h })),
        ),
    ),
    maxLoads: Number(arg('max-loads') ?? PLAYER_MAX_LOADS),
    prerollMs: Number(arg('preroll-ms') ?? PREROLL_MS),
    budgetBytes: arg('budget-mb') ? Number(arg('budget-mb')) * 2 ** 20 : undefined,
    dir: arg('dir') ?? join(tmpdir(), `exrview-seq-${w}x${h}-${compression}-${frames}`),
    throughput: !argv.includes('--no-throughput'),
    dropCache: !argv.includes('--warm-os-cache'),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const spec: SequenceSpec = {
    dir: args.dir,
    frames: args.frames,
    widthPx: args.widthPx,
    heightPx: args.heightPx,
    compression: args.compression,
    framesPerSecond: 24,
  };
  const paths = Array.from({ length: args.frames }, (_, k) => join(args.dir, frameFileName(spec, 1001 + k)));
  let makeMs: number | null = null;
  if (!paths.every((p) => existsSync(p))) {
    console.error(`writing ${args.frames} frames of ${args.widthPx}x${args.heightPx} half RGBA ${args.compression} to ${args.dir} ...`);
    makeMs = await makeSequenceParallel(new URL(import.meta.url), spec);
  }
  const fileBytes = paths.reduce((s, p) => s + statSync(p).size, 0);
  // Dawn's globals (GPUShaderStage …) first: shaders/ reads them when its modules load, which the next import does
  if (args.upload === 'dawn') await import('../gpu/install-globals.js');
  const planeBytes = [0, 1, 2, 3].map(() => args.widthPx * args.heightPx * 2);
  const uploads: Uploads =
    args.upload === 'dawn' ? await (await import('./dawn-uploads.js')).dawnUploads(args.slots) : copyUploads(args.slots, planeBytes);

  const osCache = dropOsCache(args, paths);
  const realtime = await playRealtime(args, uploads);
  let throughput: Record<string, unknown> | null = null;
  if (args.throughput) {
    dropOsCache(args, paths);
    throughput = await playThroughput(args, uploads);
  }
  const summary = {
    bench: 'sequence-playback',
    sequence: {
      dir: args.dir,
      frames: args.frames,
      widthPx: args.widthPx,
      heightPx: args.heightPx,
      channels: 'half RGBA',
      compression: args.compression,
      mbPerFrameDecoded: round((args.widthPx * args.heightPx * 8) / 2 ** 20),
      mbPerFrameOnDisk: round(fileBytes / args.frames / 2 ** 20),
      writtenInMs: makeMs === null ? null : Math.round(makeMs),
      content: 'moving ball over a ground, film grain (samples/sequence.ts)',
    },
    machine: { cores: availableParallelism(), cpu: cpus()[0]?.model ?? '', node: process.version, loadAvg: loadAverage() },
    decodeWorkers: args.workers,
    nativeKernels: nativeStatus.on ? 'on' : `off: ${nativeStatus.reason}`,
    osCache,
    upload: uploads.describe(),
    realtime,
    throughput,
  };
  console.log(JSON.stringify(summary));
}

/** How much of the files the page cache still holds, by util-linux's fincore where it is installed. */
function residentText(paths: string[]): string {
  try {
    const out = execFileSync('fincore', ['--bytes', '--noheadings', '--output', 'RES', ...paths], { encoding: 'utf8' });
    const bytes = out.split('\n').reduce((sum, line) => sum + (Number(line.trim()) || 0), 0);
    return `; ${Math.round(bytes / 2 ** 20)} MB still cached after (fincore)`;
  } catch {
    return '';
  }
}

/** The files out of the OS page cache (GNU dd's nocache flag); says whether that was possible. */
function dropOsCache(args: Args, paths: string[]): string {
  if (!args.dropCache) return 'warm (--warm-os-cache)';
  try {
    // dirty pages stay cached whatever dd asks: a sequence written just before would play from RAM, not from disk
    execFileSync('sync');
    for (const p of paths) execFileSync('dd', [`if=${p}`, 'iflag=nocache', 'count=0', 'status=none']);
    return `dropped before each run (sync, dd iflag=nocache)${residentText(paths)}`;
  } catch (error) {
    return `warm: could not drop it (${(error as Error).message.split('\n')[0]})`;
  }
}

async function openHost(args: Args): Promise<{ host: Host; sequence: SequenceInfo; userData: string }> {
  const userData = mkdtempSync(join(tmpdir(), 'exrview-seq-bench-'));
  const host = createHost({
    userDataDir: userData,
    prefetch: false,
    workers: args.workers,
    ...(args.budgetBytes ? { playbackBudgetBytes: args.budgetBytes } : {}),
  });
  await host.startWorkers();
  const folder = (await host.openFolder(args.dir))!;
  const sequence = (await host.listSequences(folder.id)).find((q) => q.frames.length >= args.frames);
  if (!sequence)
    throw new Error(`no sequence of ${args.frames} frames in ${args.dir} (found: ${readdirSync(args.dir).slice(0, 5).join(', ')} ...)`);
  return { host, sequence, userData };
}

async function closeHost(opened: { host: Host; userData: string }): Promise<void> {
  await opened.host.close();
  rmSync(opened.userData, { recursive: true, force: true });
}

/** Plays `loops` loops at the sequence's rate on the player's clock (ticks every 2 ms), as the renderer would. */
async function playRealtime(args: Args, uploads: Uploads): Promise<Record<string, unknown>> {
  const opened = await openHost(args);
  const { host, sequence } = opened;
  try {
    const fps = args.fps ?? sequence.framesPerSecond ?? 24;
    const byFrame = new Map(sequence.frames.map((f) => [f.frame, f.fileId]));
    const frames = timelineFrames(sequence.firstFrame, sequence.lastFrame, sequence.step);
    const io = hostIo(host, ['R', 'G', 'B', 'A'], uploads);
    const pipeline = new FramePipeline(
      io,
      (f) => byFrame.get(f) ?? null,
      () => performance.now(),
      { slots: args.slots, maxLoads: args.maxLoads, prerollMs: args.prerollMs },
    );
    const spec: ClockSpec = { frames, fps, mode: 'loop', direction: 1, startFrame: frames[0]! };
    const durationMs = (args.loops * frames.length * 1000) / fps;
    const cpu0 = process.cpuUsage();
    const stalls = watchStalls(1000 / fps);
    pipeline.start(spec);
    let t0 = NaN;
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        stalls.tick();
        pipeline.tick();
        // the loops are timed from the clock's start, after the pre-roll
        if (Number.isNaN(t0) && pipeline.clockStartMs !== null) t0 = pipeline.clockStartMs;
        if (performance.now() - t0 >= durationMs) {
          clearInterval(timer);
          resolve();
        }
      }, 2);
    });
    pipeline.stop();
    const cpu = cpuMs(cpu0);
    const stalled = stalls.stop(t0);
    const records = pipeline.timeline.records;
    // --records: each step on stderr (step frame outcome, then requested / loaded / ready ms relative to its due time)
    if (process.argv.includes('--records'))
      for (const r of records)
        console.error(
          `${r.step} ${r.frame} ${r.outcome} ${Math.round(r.requestedMs - r.dueMs)}/${Math.round(r.loadedMs - r.dueMs)}/${Math.round(r.readyMs - r.dueMs)} host ${Math.round(r.hostMs)} ${r.source}`,
        );
    const loops = Array.from({ length: args.loops }, (_, l) => {
      const inLoop = records.filter((r) => r.step >= l * frames.length && r.step < (l + 1) * frames.length);
      return {
        loop: l + 1,
        cache: l === 0 ? 'cold' : 'what the RAM cache kept',
        ...loopSummary(inLoop, t0 + (l * frames.length * 1000) / fps, (frames.length * 1000) / fps, fps),
      };
    });
    await new Promise((r) => setTimeout(r, 200));
    const stats = host.stats;
    return {
      fps,
      slots: args.slots,
      maxLoads: args.maxLoads,
      plansSent: io.plans,
      prerollMs: round(pipeline.prerollMs),
      prerollLimitMs: args.prerollMs,
      loops,
      stalled,
      cpu: {
        ...cpu,
        msPerFrameShown: round(cpu.totalMs / Math.max(1, records.filter((r) => r.outcome === 'shown').length)),
        note: 'process CPU time (every thread) over the whole realtime run',
      },
      host: {
        ramCache: { ...stats.ram, sizeMb: Math.round(stats.ram.sizeBytes / 2 ** 20) },
        frameRing: stats.playback,
        planeMemory: stats.planeMemory,
        decodes: stats.decodes,
      },
    };
  } finally {
    await closeHost(opened);
  }
}

function loopSummary(
  records: FrameRecord[],
  startMs: number,
  lengthMs: number,
  fps: number,
): Omit<PlaybackSummary, 'medianMs' | 'damagedFrames' | 'elapsedMs' | 'recentFps'> & {
  medianMsPerFrame: Record<string, number>;
  p90LatencyMs: number;
  droppedAt: { step: number; frame: number; outcome: string; readyAfterDueMs: number }[];
} {
  const timeline = new FrameTimeline();
  timeline.begin(startMs, fps);
  for (const r of records) timeline.add(r);
  timeline.end(startMs + lengthMs);
  const s = timeline.summary(startMs + lengthMs);
  const shown = records.filter((r) => r.outcome === 'shown');
  const latencies = shown
    .map((r) => r.readyMs - r.requestedMs)
    .filter((v) => !Number.isNaN(v))
    .sort((a, b) => a - b);
  return {
    targetFps: fps,
    achievedFps: round(s.achievedFps),
    shown: s.shown,
    dropped: s.dropped,
    skipped: s.skipped,
    shownLate: s.shownLate,
    missing: s.missing,
    damaged: s.damaged,
    fromRamCache: s.fromRamCache,
    medianMsPerFrame: Object.fromEntries(Object.entries(s.medianMs).map(([k, v]) => [k, round(v)])),
    p90LatencyMs: round(latencies[Math.floor(latencies.length * 0.9)] ?? NaN),
    // where each dropped frame (or one skipped, its load given up) was in the loop, and how late it was ready (ms after it was due; NaN: never)
    droppedAt: records
      .filter((r) => r.outcome === 'dropped' || r.outcome === 'skipped')
      .map((r) => ({ step: r.step, frame: r.frame, outcome: r.outcome, readyAfterDueMs: round(r.readyMs - r.dueMs) })),
  };
}

/** Every frame in play order as fast as the host pipeline and the uploads go (no clock, nothing dropped), cold. */
async function playThroughput(args: Args, uploads: Uploads): Promise<Record<string, unknown>> {
  const opened = await openHost(args);
  const { host, sequence } = opened;
  try {
    const channels = ['R', 'G', 'B', 'A'];
    const ids = sequence.frames.map((f) => f.fileId);
    host.setPlayback({ fileIds: ids, part: 0, channels });
    const per: Record<string, number[]> = { hostMs: [], uploadMs: [], ...Object.fromEntries(STAGES.slice(0, 4).map((s) => [s, []])) };
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let next = 0;
    let slot = 0;
    // up to maxLoads frames asked for at once, uploaded in order into the slots in turn
    const inFlight: Promise<void>[] = [];
    const lane = async (): Promise<void> => {
      while (next < ids.length) {
        const i = next++;
        const tHost = performance.now();
        const lease = await host.decodeImageLease({ requestId: `tp-${i}`, fileId: ids[i]!, part: 0, channels, priority: 'playback' });
        per.hostMs!.push(performance.now() - tHost);
        for (const s of ['queueMs', 'readMs', 'decompressMs', 'unpackMs'] as const) per[s]!.push(lease.image.timings[s]);
        const up = await uploads.upload(slot++ % args.slots, lease.image);
        per.uploadMs!.push(up.uploadMs);
        lease.release();
      }
    };
    for (let k = 0; k < args.maxLoads; k++) inFlight.push(lane());
    await Promise.all(inFlight);
    const wallMs = performance.now() - t0;
    const cpu = cpuMs(cpu0);
    host.setPlayback(null);
    return {
      frames: ids.length,
      wallMs: Math.round(wallMs),
      fps: round((ids.length * 1000) / wallMs),
      msPerFrame: round(wallMs / ids.length),
      cpuMsPerFrame: round(cpu.totalMs / ids.length),
      cpu,
      coresBusy: round(cpu.totalMs / wallMs),
      medianMsPerFrame: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, round(medianOf(v))])),
      note: 'read, decompress and unpack are summed over the workers that decoded the frame (CPU time in workers, not wall)',
    };
  } finally {
    await closeHost(opened);
  }
}

/**
 * The player's ticks that came late by more than a frame (the main thread busy or descheduled: every step it passed is
 * dropped but the newest, however early its frame was ready), and the garbage collector's pauses over a frame.
 */
function watchStalls(frameMs: number): { tick(): void; stop(clockStartMs: number): Record<string, unknown> } {
  const gaps: { atMs: number; gapMs: number }[] = [];
  const gcPauses: { atMs: number; pauseMs: number; kind: number }[] = [];
  let maxGapMs = 0;
  let last = NaN;
  const elu0 = performance.eventLoopUtilization();
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries())
      if (e.duration > frameMs / 2)
        gcPauses.push({ atMs: e.startTime, pauseMs: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 });
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    tick() {
      const now = performance.now();
      const gap = now - last;
      if (gap > maxGapMs) maxGapMs = gap;
      if (gap > frameMs) gaps.push({ atMs: now - gap, gapMs: gap });
      last = now;
    },
    stop(clockStartMs) {
      observer.disconnect();
      // times from the clock's start, as the steps are
      const rel = (ms: number): number => round(ms - clockStartMs);
      return {
        // the share of the run the main thread spent running code rather than waiting for events
        mainThreadBusy: round(performance.eventLoopUtilization(elu0).utilization),
        maxTickGapMs: round(maxGapMs),
        ticksLateByMoreThanAFrame: gaps.map((g) => ({ atMs: rel(g.atMs), gapMs: round(g.gapMs) })),
        gcPausesOverHalfAFrame: gcPauses.map((g) => ({ atMs: rel(g.atMs), pauseMs: round(g.pauseMs), kind: g.kind })),
      };
    },
  };
}

/** Process CPU time since `since` (user and system, every thread): what a frame costs whatever else loads the machine. */
function cpuMs(since: NodeJS.CpuUsage): { userMs: number; systemMs: number; totalMs: number } {
  const d = process.cpuUsage(since);
  return { userMs: Math.round(d.user / 1000), systemMs: Math.round(d.system / 1000), totalMs: Math.round((d.user + d.system) / 1000) };
}

function loadAverage(): number[] {
  try {
    return execFileSync('cat', ['/proc/loadavg'], { encoding: 'utf8' }).split(' ').slice(0, 3).map(Number);
  } catch {
    return [];
  }
}

function round(v: number): number {
  return Number.isFinite(v) ? Number(v.toFixed(2)) : NaN;
}
