// The histogram of what is shown (A; B while A/B flip shows it; the difference image's magnitude in a difference mode),
// per channel (R, G, B and luminance; a u,v layer's u and v) over log2 of the value, with a linear or log count axis;
// drawn in the preview's corner from the engine's GPU histogram.
import { useEffect, useRef, useState } from 'react';
import { COMPARE_MODE_LABELS } from '../../shaders/compare-params.js';
import { HIST_BINS, HIST_MAX_LOG2, HIST_MIN_LOG2 } from '../../shaders/display-params.js';
import type { HistogramSource } from '../gpu/shown-histogram.js';
import { layerChoice, partChannelNames } from '../model/layer-choice.js';
import { useApp, useController } from './context.js';
import { histogramSeries } from './histogram-series.js';

/** "R, G, B and luminance"; "u and v". */
const listed = (names: string[]): string => (names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? ''));

/** The caption's name of what the bins count. */
export function histogramSubject(source: HistogramSource): string {
  // "image A", not "A": after R, G and B a bare A reads as the alpha channel
  if (source === 'a') return 'image A';
  if (source === 'b') return 'image B (reference)';
  // the signed error is counted by magnitude, on the same log2 axis
  return source === 'error' ? 'Error, |A − B|' : COMPARE_MODE_LABELS[source];
}

export function HistogramPanel() {
  const c = useController();
  const open = useApp((s) => s.inspect.histogramOpen);
  const log = useApp((s) => s.inspect.histogramLog);
  const layers = useApp((s) => s.inspect.layersView);
  // nothing shown (a file that cannot be read, or still being written): no histogram either
  const nothing = useApp((s) => s.image.error !== null || s.library.files.find((f) => f.id === s.image.currentFileId)?.status !== 'ok');
  const ref = useRef<HTMLCanvasElement>(null);
  const [, tick] = useState(0);
  useEffect(() => c.subscribe(() => tick((n) => n + 1)), [c]);
  const currentFileId = useApp((s) => s.image.currentFileId);
  const shownName = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.name ?? '');
  // the bins count what the engine shows: until the picked image is shown they are another image's
  const stale = !!c.engine?.shownFileId && c.engine.shownFileId() !== currentFileId;
  const bins = stale ? null : c.histogram;
  const subject = stale
    ? 'computing…'
    : `${histogramSubject(c.histogramSource)}${c.histogramOfLevel0 ? ', level 0 (counted on the host)' : ''}`;
  // the curves of what A's layer holds (B follows A's layer; a difference is per channel of the same slots)
  const part = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.summary?.parts[s.image.part]);
  const layer = useApp((s) => part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0]);
  const channel = useApp((s) => s.image.channel);
  const series = histogramSeries(layer && part ? layerChoice(layer, channel, partChannelNames(part)).choice : null);
  useEffect(() => {
    const cv = ref.current;
    if (!cv) return;
    const ctx = cv.getContext('2d')!;
    const W = cv.width,
      H = cv.height;
    ctx.clearRect(0, 0, W, H);
    if (!bins) return;
    const y = (n: number) => (log ? Math.log10(1 + n) : n);
    let top = 1;
    for (const { bins: k } of series) for (let i = 1; i < HIST_BINS; i++) top = Math.max(top, y(bins[k * HIST_BINS + i]!));
    for (const { bins: k, colour } of series) {
      ctx.strokeStyle = colour;
      ctx.beginPath();
      for (let i = 0; i < HIST_BINS; i++) {
        const px = (i / (HIST_BINS - 1)) * W,
          py = H - (y(bins[k * HIST_BINS + i]!) / top) * (H - 2);
        if (i) ctx.lineTo(px, py);
        else ctx.moveTo(px, py);
      }
      ctx.stroke();
    }
    // 1.0 and the 18 % grey marked
    for (const v of [1, 0.18]) {
      const px = ((Math.log2(v) - HIST_MIN_LOG2) / (HIST_MAX_LOG2 - HIST_MIN_LOG2)) * W;
      ctx.strokeStyle = 'rgba(255, 255, 255, 0.25)';
      ctx.beginPath();
      ctx.moveTo(px, 0);
      ctx.lineTo(px, H);
      ctx.stroke();
    }
  });
  if (!open || layers || nothing) return null;
  return (
    <figure
      className="histogram"
      role="img"
      aria-label={`Histogram of ${subject}: ${listed(series.map((x) => x.label))} over log2 value, ${log ? 'log' : 'linear'} counts`}
    >
      <figcaption title={shownName}>
        Histogram · {subject}
        <button
          type="button"
          className="link"
          onClick={() => c.actions.setInspect({ histogramLog: !log })}
          title="Count axis: linear or log (Y)"
        >
          {log ? 'log' : 'linear'}
        </button>
      </figcaption>
      <canvas ref={ref} width={256} height={90} />
      <div className="ticks">
        <span>2⁻¹⁶</span>
        <span>2⁻⁸</span>
        <span>1</span>
        <span>2⁸</span>
        <span>2¹⁶</span>
      </div>
    </figure>
  );
}
