// How long frames take to arrive, as measured: a load's own latency, the service time between loads while the host is
// busy, an upload's time. The look-ahead plans on these; every arrival updates them, and so does a load given up.

/** Share an estimate moves toward each new sample. */
const EMA = 0.25;
/** Loads measured (finished, or given up unfinished) before the plan may thin. */
const MIN_SERVICE_SAMPLES = 3;
/**
 * A load given up unfinished took at least its time so far, and the next one placed on that bound alone would be given
 * up the same way, just as late: the estimate goes this far past it, so that after a few misses it covers any latency
 * and a frame arrives, whose real time then brings the estimate back down.
 */
const UNFINISHED_GROWTH = 2;
/** The same where a load's latency was measured this playback: that estimate is close, the miss a little over it. */
const MEASURED_GROWTH = 1.25;
/** The lateness counted on after a pre-roll that ran out, as a share of the quickest load it saw. */
const FIRST_DEVIATION = 0.25;
/**
 * Loads are counted on this many times the mean lateness past the mean latency (as TCP times its retransmissions on
 * the round trip's deviation): a frame that comes a little late is lost whole, its load too, so where load times vary
 * (a shared machine, a busy disk) the look-ahead asks that much earlier; where they do not, no earlier than it must.
 */
const DEVIATIONS = 2;

export class LoadEstimator {
  /** Completion to completion while busy (ms): how fast frames come when loads queue. */
  serviceMs = NaN;
  private serviceSamples = 0;
  /** One load's own time, request to pixels (ms). */
  latencyMs = NaN;
  /** Mean of how far a load's latency went past latencyMs (ms; an early one counts as 0): what a late frame risks. */
  private latencyDevMs = 0;
  uploadMs = NaN;
  /** The latest load's own time, not averaged (Infinity before the first of this playback). */
  lastLatencyMs = Infinity;
  /** The quickest load's own time this playback (Infinity before the first). */
  private quickestLatencyMs = Infinity;
  private lastLoadDoneMs = -Infinity;
  /** When a load given up last made the latency grow (or the clock restarted). */
  private grewAtMs = -Infinity;
  /** latencyMs comes from a load that arrived (not only from loads given up). */
  private latencyMeasured = false;

  /** A load came back: `countsLatency` false when its request-to-pixels time is not a load's (queued behind a pre-roll). */
  arrived(requestedMs: number, nowMs: number, countsLatency: boolean): void {
    this.noteService(nowMs - Math.max(requestedMs, this.lastLoadDoneMs));
    this.lastLoadDoneMs = nowMs;
    const latency = nowMs - requestedMs;
    this.lastLatencyMs = latency;
    this.quickestLatencyMs = Math.min(this.quickestLatencyMs, latency);
    if (!countsLatency) return;
    this.latencyMeasured = true;
    if (!Number.isNaN(this.latencyMs)) this.latencyDevMs = ema(this.latencyDevMs, Math.max(0, latency - this.latencyMs));
    this.latencyMs = ema(this.latencyMs, latency);
  }

  /** A load given up before it finished: its time so far is a lower bound of a load's latency and of the service time. */
  unfinished(requestedMs: number, nowMs: number): void {
    const elapsed = nowMs - requestedMs;
    // only a load placed on the estimate as it is now says that estimate is short; one asked for before it last grew
    // (or before the clock started) bounds the latency, no more
    const placedOnEstimate = requestedMs >= this.grewAtMs;
    const growth = this.latencyMeasured ? MEASURED_GROWTH : UNFINISHED_GROWTH;
    const bound = placedOnEstimate ? elapsed * growth : elapsed;
    if (Number.isNaN(this.latencyMs) || bound > this.latencyMs) {
      this.latencyMs = bound;
      if (placedOnEstimate) this.grewAtMs = nowMs;
    }
    const busy = nowMs - Math.max(requestedMs, this.lastLoadDoneMs);
    if (Number.isNaN(this.serviceMs) || busy > this.serviceMs) this.noteService(busy);
  }

  uploaded(wallMs: number): void {
    this.uploadMs = ema(this.uploadMs, wallMs);
  }

  /** A new Play: the last one's answers say nothing of how far ahead this one's host is. */
  forgetLast(): void {
    this.lastLatencyMs = this.quickestLatencyMs = Infinity;
  }

  /**
   * The clock starts after a pre-roll: the cold loads' times say little of what comes next. The loads in flight were
   * asked for during the pre-roll: their service counts from now, and their request-to-pixels time is not a load's.
   * Where the pre-roll ran out of time (the host is behind), its quickest load is kept as the latency (the others may
   * have waited behind cold loads): with nothing, the first loads of the clock would be placed on no latency at all
   * and come too late, and the picture would stay put while misses taught the estimate what the pre-roll knew.
   */
  restart(nowMs: number, hostBehind: boolean): void {
    this.serviceMs = NaN;
    this.latencyMs = hostBehind && Number.isFinite(this.quickestLatencyMs) ? this.quickestLatencyMs : NaN;
    this.latencyMeasured = !Number.isNaN(this.latencyMs);
    // a few loads say little of how much loads vary: a quarter of the latency is counted on until arrivals say more
    this.latencyDevMs = this.latencyMeasured ? this.latencyMs * FIRST_DEVIATION : 0;
    this.serviceSamples = 0;
    this.lastLoadDoneMs = nowMs;
    this.grewAtMs = nowMs;
  }

  /**
   * Expected time until the k-th load from now is uploaded (0 before anything was measured): k services one after
   * another, but never less than one load's own latency (loads run side by side, each taking that long).
   */
  expectedMs(k: number): number {
    if (Number.isNaN(this.serviceMs) && Number.isNaN(this.latencyMs)) return 0;
    const latency = Number.isNaN(this.latencyMs) ? 0 : this.latencyMs + DEVIATIONS * this.latencyDevMs;
    const load = Math.max(Number.isNaN(this.serviceMs) ? 0 : k * this.serviceMs, latency);
    return load + (Number.isNaN(this.uploadMs) ? 0 : this.uploadMs);
  }

  /** The service time thinning may plan on: NaN until a few loads were measured (the first is a whole latency). */
  get plannedServiceMs(): number {
    return this.serviceSamples < MIN_SERVICE_SAMPLES ? NaN : this.serviceMs;
  }

  private noteService(ms: number): void {
    this.serviceMs = ema(this.serviceMs, ms);
    this.serviceSamples++;
  }
}

/** A running estimate moved a share EMA toward the latest sample (the sample itself when there is none yet). */
function ema(estimate: number, sample: number): number {
  return Number.isNaN(estimate) ? sample : estimate + EMA * (sample - estimate);
}
