// Recent frames over time: CPU encode and tone-map GPU time per frame in ms, with a labelled axis and a legend.
import { useEffect, useRef } from 'react';
import { axisMaxMs } from './StageTimeline.js';

const CPU_COLOUR = '#6cf';
const GPU_COLOUR = '#fc6';
const HEIGHT_PX = 80;

export function FrameTimeChart({ cpuMs, gpuMs }: { cpuMs: (number | null)[]; gpuMs: (number | null)[] }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const frames = Math.max(cpuMs.length, gpuMs.length);
  useEffect(() => {
    const cv = ref.current;
    const ctx = cv?.getContext('2d');
    if (!cv || !ctx) return;
    // drawn at the screen's pixel density: thin lines and small labels stay sharp
    const dpr = window.devicePixelRatio || 1;
    // as wide as the panel (the panel redraws it a few times a second, so a resize shows at once)
    const widthPx = Math.max(120, cv.clientWidth);
    cv.width = widthPx * dpr;
    cv.height = HEIGHT_PX * dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#151515';
    ctx.fillRect(0, 0, widthPx, HEIGHT_PX);
    const maxMs = axisMaxMs(Math.max(0, ...cpuMs.map((v) => v ?? 0), ...gpuMs.map((v) => v ?? 0)));
    ctx.font = '10px system-ui, sans-serif';
    ctx.textAlign = 'right';
    ctx.textBaseline = 'middle';
    const ticks = [0, maxMs / 2, maxMs].map((ms) => ({ ms, label: `${Number(ms.toPrecision(3))} ms` }));
    // room on the left for the widest ms label
    const axisPx = Math.ceil(Math.max(...ticks.map((t) => ctx.measureText(t.label).width))) + 6;
    const top = 6,
      bottom = HEIGHT_PX - 6,
      plotW = widthPx - axisPx - 4;
    const y = (ms: number): number => bottom - (ms / maxMs) * (bottom - top);
    for (const t of ticks) {
      ctx.strokeStyle = '#333';
      ctx.beginPath();
      ctx.moveTo(axisPx, y(t.ms));
      ctx.lineTo(widthPx, y(t.ms));
      ctx.stroke();
      ctx.fillStyle = '#999';
      ctx.fillText(t.label, axisPx - 3, y(t.ms));
    }
    const plot = (vals: (number | null)[], colour: string): void => {
      ctx.strokeStyle = colour;
      ctx.fillStyle = colour;
      ctx.beginPath();
      vals.forEach((v, i) => {
        // a frame without a figure (no timestamp yet) breaks the line rather than dropping it to 0
        if (v === null) return;
        const px = axisPx + (i / Math.max(1, vals.length - 1)) * plotW;
        const joined = i > 0 && vals[i - 1] !== null;
        if (joined) ctx.lineTo(px, y(v));
        else ctx.moveTo(px, y(v));
        // a figure with none beside it would be a line of no length: a dot
        if (!joined && (i + 1 >= vals.length || vals[i + 1] === null)) ctx.fillRect(px - 1.5, y(v) - 1.5, 3, 3);
      });
      ctx.stroke();
    };
    plot(cpuMs, CPU_COLOUR);
    plot(gpuMs, GPU_COLOUR);
  });
  return (
    <figure className="frame-chart">
      <canvas
        ref={ref}
        style={{ width: '100%', height: HEIGHT_PX }}
        role="img"
        aria-label={`The last ${frames} frames, oldest on the left: CPU encode (blue) and tone-map GPU time (yellow), in ms`}
      />
      <figcaption>
        <span className="axis-note">last {frames} frames, oldest on the left; time per frame in ms</span>
        <ul className="stage-legend" aria-label="Legend">
          <li>
            <i className="swatch" style={{ background: CPU_COLOUR }} />
            CPU encode
          </li>
          <li>
            <i className="swatch" style={{ background: GPU_COLOUR }} />
            tone-map on the GPU
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
