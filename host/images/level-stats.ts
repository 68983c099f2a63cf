// Level 0's statistics measured on the pool chunk by chunk (decode/stats-pass.ts), for an image the page holds only
// reduced: the figures of a file version, part, channel set and region are kept, so asking again (the refined level
// landing, the panel opened again) costs nothing, and identical requests in flight share one pass.
import type { Box2i } from '../../codec/index.js';
import type { BoxTuple, ChannelFigures, LevelStatistics, LevelStatisticsRequest } from '../../contract/host-api.js';
import type { HeaderCache } from '../cache/header-cache.js';
import { RamCache } from '../cache/ram-cache.js';
import type { JobBroker } from '../decode/broker.js';
import { handoffOf, layoutOf, levelKey, type LevelRef } from '../decode/level-ref.js';
import type { DecodePool } from '../decode/pool.js';
import type { ChannelStats } from '../decode/sample-stats.js';
import { measureLevel, type StatsPass } from '../decode/stats-pass.js';

/** Bytes of figures kept (as JSON): a few dozen images' with their histograms, whole and a rectangle or two. */
const KEPT_BYTES = 1 << 20;

export interface LevelStatsSources {
  pool: DecodePool;
  broker: JobBroker;
  headers: HeaderCache;
  /** The level a request names and its channels in header order, when its pixels can be read (else it throws why). */
  levelOf(fileId: string, part: number, lx: number, ly: number, channels: string[]): { ref: LevelRef; channels: string[] };
}

export class LevelStatisticsService {
  private readonly kept = new RamCache<LevelStatistics>(KEPT_BYTES);

  constructor(private readonly sources: LevelStatsSources) {}

  async measure(request: LevelStatisticsRequest): Promise<LevelStatistics> {
    // the histogram's channels are decoded with the measured ones
    const asked = [...request.channels, ...(request.histogram ?? []).flatMap((c) => (c === null ? [] : [c]))];
    const { ref, channels } = this.sources.levelOf(request.fileId, request.part, 0, 0, asked);
    if (ref.deep) throw new Error(`${ref.absPath} part ${request.part} is deep: its statistics are of the flattened image the page shows`);
    const region: Box2i | null = request.region
      ? {
          xMin: request.region.xPx,
          yMin: request.region.yPx,
          xMax: request.region.xPx + request.region.widthPx - 1,
          yMax: request.region.yPx + request.region.heightPx - 1,
        }
      : null;
    const key = [levelKey(ref), channels.join('|'), JSON.stringify(region), request.histogram].map(String).join('\0');
    const kept = this.kept.get(key);
    if (kept) return { ...kept, fileId: request.fileId };
    const t0 = performance.now();
    const { headers, pool, broker } = this.sources;
    const { result } = await broker.run<StatsPass>(
      `${key}\0stats`,
      { fileId: request.fileId, kind: 'stats' },
      (poolPriority) =>
        measureLevel(pool, {
          path: ref.absPath,
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
    if (!result.missing?.incomplete) this.kept.set(key, figures, JSON.stringify(figures).length);
    return figures;
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
