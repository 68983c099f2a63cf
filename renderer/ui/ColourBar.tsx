// The colormap's colour bar, labelled in values (start, middle, end of the range), under the preview.
import { useEffect, useRef } from 'react';
import { COLORMAP_LABELS, colormapStops, type Colormap } from '../../shaders/colormaps.js';
import { fmtValue } from './format.js';
import { useApp } from './context.js';
import { colormapSource } from '../model/layer-choice.js';

export function ColourBar() {
  const cm = useApp((s) => s.inspect.colormap);
  const min = useApp((s) => s.inspect.rangeMin);
  const max = useApp((s) => s.inspect.rangeMax);
  const auto = useApp((s) => s.inspect.autoRange);
  const pick = useApp((s) => s.image.channel);
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const cv = ref.current;
    if (!cv || cm === 'none') return;
    const ctx = cv.getContext('2d')!;
    const stops = colormapStops(cm as Exclude<Colormap, 'none'>);
    const n = stops.length / 3;
    for (let x = 0; x < cv.width; x++) {
      const i = Math.min(n - 1, Math.round((x / (cv.width - 1)) * (n - 1)));
      ctx.fillStyle = `rgb(${stops[i * 3]! * 255}, ${stops[i * 3 + 1]! * 255}, ${stops[i * 3 + 2]! * 255})`;
      ctx.fillRect(x, 0, 1, cv.height);
    }
  }, [cm]);
  if (cm === 'none') return null;
  const of = colormapSource(pick).label;
  return (
    <figure
      className="colour-bar"
      role="img"
      aria-label={`Colour bar: ${COLORMAP_LABELS[cm]} of ${of}, ${fmtValue(min)} to ${fmtValue(max)}`}
    >
      <figcaption>
        {COLORMAP_LABELS[cm]} · {of}
        {auto ? ' · auto range' : ''}
      </figcaption>
      <canvas ref={ref} width={256} height={12} />
      <div className="ticks">
        <span>{fmtValue(min)}</span>
        <span>{fmtValue((min + max) / 2)}</span>
        <span>{fmtValue(max)}</span>
      </div>
    </figure>
  );
}
