// Level 0's statistics measured on the pool chunk by chunk (decode/stats-pass.ts), for an image the page holds only
// reduced: the figures of a file version, part, channel set and region are kept, so asking again (the refined level
// landing, the panel opened again) costs nothing, and identical requests in flight share one pass.
import type { Box2i } from '../../codec/index.js';
import type { BoxTuple, ChannelFigures, FileEntry, LevelStatistics, LevelStatisticsRequest } from '../../contract/host-api.js';
import type { HeaderCache } from '../cache/header-cache.js';
import type { JobBroker } from '../decode/broker.js';
import { handoffOf, layoutOf, type LevelRef } from '../decode/level-ref.js';
import type { DecodePool } from '../decode/pool.js';
import type { ChannelStats } from '../decode/sample-stats.js';
import { measureLevel, type StatsPass } from '../decode/stats-pass.js';

/** Results kept: a few images' figures, whole and a rectangle or two. */
const KEPT = 16;

export interface LevelStatsSources {
  pool: DecodePool;
  broker: JobBroker;
  headers: HeaderCache;
  /** The file a request names, when its pixels can be read (else it throws what to do). */
  fileOf(fileId: string): { entry: FileEntry; absPath: string };
}

export class LevelStatisticsService {
  private readonly kept = new Map<string, LevelStatistics>();

  constructor(private readonly sources: LevelStatsSources) {}

  async measure(request: LevelStatisticsRequest): Promise<LevelStatistics> {
    const { entry, absPath } = this.sources.fileOf(request.fileId);
    const part = entry.summary?.parts[request.part];
    if (!part) throw new Error(`${entry.name} has no part ${request.part} (it has ${entry.summary?.parts.length ?? 0})`);
    if (part.type === 'deepscanline' || part.type === 'deeptile')
      throw new Error(`${entry.name} part ${request.part} is deep: its statistics are of the flattened image the page shows`);
    const all = part.channels.map((c) => c.name);
    for (const name of [...request.channels, ...(request.histogram ?? [])])
      if (name !== null && !all.includes(name))
        throw new Error(`${entry.name} part ${request.part} has no channel "${name}" (it has ${all.join(', ')})`);
    for (const name of request.histogram ?? []) {
      const c = name === null ? null : part.channels.find((ch) => ch.name === name);
      if (c && (c.xSampling !== 1 || c.ySampling !== 1))
        throw new Error(`${entry.name}: channel "${c.name}" is subsampled, so it cannot be counted into a histogram per pixel`);
    }
    const channels = all.filter((c) => request.channels.includes(c) || request.histogram?.includes(c));
    const region: Box2i | null = request.region
      ? {
          xMin: request.region.xPx,
          yMin: request.region.yPx,
          xMax: request.region.xPx + request.region.widthPx - 1,
          yMax: request.region.yPx + request.region.heightPx - 1,
        }
      : null;
    const key = [absPath, entry.sizeBytes, entry.mtimeMs, request.part, channels.join('|'), JSON.stringify(region), request.histogram]
      .map(String)
      .join('\0');
    const kept = this.kept.get(key);
    if (kept) return { ...kept, fileId: request.fileId };
    const t0 = performance.now();
    const { headers, pool, broker } = this.sources;
    const ref: LevelRef = {
      fileId: request.fileId,
      absPath,
      sizeBytes: entry.sizeBytes,
      mtimeMs: entry.mtimeMs,
      part: request.part,
      lx: 0,
      ly: 0,
      displayWindow: part.displayWindow,
      deep: false,
      allChannels: all,
    };
    const { result } = await broker.run<StatsPass>(
      `${key}\0stats`,
      { fileId: request.fileId, kind: 'stats' },
      (poolPriority) =>
        measureLevel(pool, {
          path: absPath,
          layout: layoutOf(headers, ref, channels),
          channels,
          region,
          ...(request.histogram ? { histogram: request.histogram } : {}),
          priority: poolPriority,
          handoff: handoffOf(headers, ref),
        }),
      // below the preview and its crops of level 0: measuring never delays what is drawn
      'prefetch',
      request.requestId ?? null,
    );
    const figures = levelFigures(request, result, performance.now() - t0);
    // figures of chunks not written yet would go stale as they land: only a whole file's are kept
    if (!result.missing?.incomplete) this.keep(key, figures);
    return figures;
  }

  private keep(key: string, figures: LevelStatistics): void {
    this.kept.delete(key);
    this.kept.set(key, figures);
    while (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value!);
  }
}

function levelFigures(request: LevelStatisticsRequest, pass: StatsPass, wallMs: number): LevelStatistics {
  const r = pass.region;
  const region: BoxTuple = [r.xMin, r.yMin, r.xMax, r.yMax];
  return {
    fileId: request.fileId,
    part: request.part,
    region,
    channels: pass.channels.filter((c) => request.channels.includes(c.name)).map((c) => figuresOf(c.name, c.stats)),
    ...(pass.histogram ? { histogram: [...pass.histogram] } : {}),
    missingPx: pass.missingPx,
    timings: {
      wallMs,
      decodeMs: pass.timings.readMs + pass.timings.decompressMs + pass.timings.unpackMs,
      statsMs: pass.timings.statsMs,
      chunks: pass.timings.chunks,
      tasks: pass.tasks,
    },
  };
}

/** min and max are ±Infinity with no finite value: 0 then, so the figures travel as JSON. */
function figuresOf(name: string, s: ChannelStats): ChannelFigures {
  return { name, n: s.n, mean: s.mean, m2: s.m2, min: s.n ? s.min : 0, max: s.n ? s.max : 0, nan: s.nan, inf: s.inf };
}
