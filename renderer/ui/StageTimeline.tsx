// The last load as a picture: one labelled bar per stage on a shared ms axis, its share of the whole, a legend, the total.
import type { StageKind, TimelineStage } from './diagnostics-report.js';
import { stageTotals } from './diagnostics-report.js';
import { fmtMB, fmtMs, fmtRateOf } from './diagnostics-format.js';

/** Blues move bytes, warm colours compute, grey waits: transfer against compute is read off the hue. */
export const STAGE_COLOURS: Record<TimelineStage['key'], string> = {
  queue: '#8a8a8a',
  read: '#2f7fc9',
  transfer: '#56aef0',
  upload: '#9fd6ff',
  decompress: '#e5862a',
  unpack: '#f3bd55',
  mip: '#d8583a',
  toneMap: '#d5479a',
};

const KIND_NAMES: Record<StageKind, string> = { moving: 'moving data', computing: 'computing', waiting: 'waiting' };

/** The axis' end: the longest stage rounded up to 1, 2, 2.5 or 5 times a power of ten. */
export function axisMaxMs(longestMs: number): number {
  if (!(longestMs > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(longestMs));
  return ([1, 2, 2.5, 5, 10].find((m) => m * p >= longestMs * (1 - 1e-9)) ?? 10) * p;
}

const tick = (ms: number): string => String(Number(ms.toPrecision(3)));

function StageRow({ stage, scaleMs }: { stage: TimelineStage; scaleMs: number }) {
  const widthPct = stage.ms === null ? 0 : Math.min(100, (stage.ms / scaleMs) * 100);
  const moved = stage.bytes !== undefined && stage.bytes > 0 ? `${fmtMB(stage.bytes)} at ${fmtRateOf(stage.bytes, stage.ms)}` : '';
  return (
    <li className="stage-row" data-stage={stage.key} data-kind={stage.kind}>
      <span className="stage-label">
        <i className="swatch" style={{ background: STAGE_COLOURS[stage.key] }} />
        {stage.label}
      </span>
      <span className="stage-track">
        <span className="stage-bar" style={{ width: `${widthPct}%`, background: STAGE_COLOURS[stage.key] }} />
      </span>
      <span
        className="stage-ms"
        data-key={`stage-${stage.key}`}
        title={stage.ms === null ? 'not measured on this device or not known yet' : undefined}
      >
        {fmtMs(stage.ms)}
      </span>
      {moved && (
        <span className="stage-detail" data-key={`rate-${stage.key}`}>
          {moved}
        </span>
      )}
    </li>
  );
}

/**
 * `subject`: the image, part and layer the figures belong to; `note`: how it came to the screen; `onScreenMs`: from the
 * request to the first frame that showed it (stages overlap and decode workers run side by side, so it is not their sum).
 */
export function StageTimeline({
  stages,
  subject,
  note,
  onScreenMs,
}: {
  stages: readonly TimelineStage[];
  subject: string;
  note: string;
  onScreenMs: number | null;
}) {
  const totals = stageTotals(stages);
  const measured = stages.filter((s) => s.ms !== null && s.ms > 0);
  const scaleMs = axisMaxMs(Math.max(0, ...measured.map((s) => s.ms!)));
  const kinds = (['moving', 'computing', 'waiting'] as const).filter((k) => stages.some((s) => s.kind === k));
  return (
    <figure className="stage-timeline" aria-label={`Last load of ${subject}, stage by stage, in ms`}>
      <figcaption>
        <span className="subject" data-key="timeline-subject">
          {subject}
        </span>
        {note && <span className="note">{note}</span>}
      </figcaption>
      {/* the whole load end to end: each stage's share of the summed time */}
      <div className="stage-share" role="img" aria-label={`Share of each stage in ${fmtMs(totals.totalMs)}`}>
        {measured.map((s) => (
          <span key={s.key} title={`${s.label}: ${fmtMs(s.ms)}`} style={{ flexGrow: s.ms!, background: STAGE_COLOURS[s.key] }} />
        ))}
      </div>
      <ol className="stage-rows">
        {stages.map((s) => (
          <StageRow key={s.key} stage={s} scaleMs={scaleMs} />
        ))}
      </ol>
      <div className="stage-axis" aria-hidden="true">
        <span>0</span>
        <span>{tick(scaleMs / 2)}</span>
        <span>{tick(scaleMs)} ms</span>
      </div>
      <p className="stage-total" data-key="timeline-total">
        Total <strong>{fmtMs(totals.totalMs)}</strong>:{' '}
        {kinds.map((k, i) => (
          <span key={k} className={`kind kind-${k}`}>
            {i ? ', ' : ''}
            {KIND_NAMES[k]} {fmtMs(k === 'moving' ? totals.movingMs : k === 'computing' ? totals.computingMs : totals.waitingMs)}
          </span>
        ))}
      </p>
      {onScreenMs !== null && (
        <p className="stage-on-screen" data-key="timeline-on-screen">
          On screen {fmtMs(onScreenMs)} after the request
        </p>
      )}
      <ul className="stage-legend" aria-label="Legend">
        {kinds.map((k) => (
          <li key={k} data-kind={k}>
            {stages
              .filter((s) => s.kind === k)
              .map((s) => (
                <i key={s.key} className="swatch" title={s.label} style={{ background: STAGE_COLOURS[s.key] }} />
              ))}
            {KIND_NAMES[k]}:{' '}
            {stages
              .filter((s) => s.kind === k)
              .map((s) => s.label)
              .join(', ')}
          </li>
        ))}
      </ul>
    </figure>
  );
}
