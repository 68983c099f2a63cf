// The LUT controls in the toolbar: load a .cube (picker; drops are handled window-wide), where it applies, remove it.
import { useRef } from 'react';
import { LUT_SHAPERS, type LutShaper } from '../../shaders/lut-apply.js';
import { loadCubeFile } from '../app/lut-file.js';
import { useApp, useController } from './context.js';

const SHAPER_LABELS: Record<LutShaper, string> = { display: 'after view', log: 'on log shaper', linear: 'on linear' };

export function LutControls() {
  const c = useController();
  const lut = useApp((s) => s.view.display.lut);
  const input = useRef<HTMLInputElement>(null);
  return (
    <span className="lut">
      <input
        ref={input}
        type="file"
        accept=".cube"
        aria-label="LUT file"
        hidden
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) void loadCubeFile(c.actions, f, lut?.shaper ?? 'display');
          e.target.value = '';
        }}
      />
      <button type="button" title="Load a .cube LUT, or drop one on the window (U)" onClick={() => input.current?.click()}>
        LUT…
      </button>
      {lut && (
        <>
          <span className="lut-name" aria-label="LUT name" title={`${lut.lut.title || lut.name} (Shift+U removes it)`}>
            {lut.name}
          </span>
          <select
            aria-label="LUT applies"
            value={lut.shaper}
            onChange={(e) => c.actions.setDisplay({ lut: { ...lut, shaper: e.target.value as LutShaper } })}
          >
            {LUT_SHAPERS.map((s) => (
              <option key={s} value={s}>
                {SHAPER_LABELS[s]}
              </option>
            ))}
          </select>
          <button
            type="button"
            aria-label="Remove LUT"
            title="Remove the LUT (Shift+U)"
            onClick={() => c.actions.setDisplay({ lut: null })}
          >
            ×
          </button>
        </>
      )}
    </span>
  );
}
