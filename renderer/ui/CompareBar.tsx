// The toolbar's compare and inspect groups, apart so that the toolbar can move one to its ⋯ menu: Set as reference,
// Compare mode, Colormap with its range and auto range, and the Layers, Histogram and pixel-values toggles.
import { COMPARE_MODES, COMPARE_MODE_LABELS, type CompareMode } from '../../shaders/compare-params.js';
import { COLORMAPS, COLORMAP_LABELS, type Colormap } from '../../shaders/colormaps.js';
import { useApp, useController } from './context.js';
import { Icon } from './icons.js';

export function CompareBar() {
  return (
    <>
      <CompareGroup />
      <InspectGroup />
    </>
  );
}

/** Set as reference, Compare mode and the mode's own button (the toolbar may show it apart from Inspect). */
export function CompareGroup() {
  const c = useController();
  const a = c.actions;
  const ref = useApp((s) => s.compare.reference);
  const mode = useApp((s) => s.compare.mode);
  const showB = useApp((s) => s.compare.showB);
  const wipeAxis = useApp((s) => s.compare.wipeAxis);
  const fileId = useApp((s) => s.image.currentFileId);
  const part = useApp((s) => s.image.part);
  const layer = useApp((s) => s.image.layer);
  const channel = useApp((s) => s.image.channel);
  const isRef = !!ref && ref.file.id === fileId && ref.part === part && ref.layer === layer && ref.channel === channel;
  return (
    <div className="group" role="group" aria-label="Compare">
      <button
        type="button"
        aria-pressed={isRef}
        disabled={!fileId}
        onClick={() => a.toggleReference()}
        title={
          ref
            ? `Reference (B): ${ref.file.name}${ref.layer ? ` · ${ref.layer}` : ''}. Click on it again to clear (R)`
            : 'Make the image on screen the reference B (R)'
        }
      >
        <Icon name="target" /> Set as reference
      </button>
      {ref && (
        <span className="ref-name" title={`B: ${ref.file.relativePath}`}>
          B: {ref.file.name}
        </span>
      )}
      <select
        aria-label="Compare mode"
        value={mode}
        onChange={(e) => a.setCompareMode(e.target.value as CompareMode)}
        title="How A (on screen) and B (the reference) are shown (C cycles, B flips A/B)"
      >
        {COMPARE_MODES.map((m) => (
          <option key={m} value={m}>
            {COMPARE_MODE_LABELS[m]}
          </option>
        ))}
      </select>
      {mode === 'flip' && (
        <button type="button" onClick={() => a.flip()} title="Show the other image (B)">
          <Icon name="flip" /> {showB ? 'showing B' : 'showing A'}
        </button>
      )}
      {mode === 'wipe' && (
        <button
          type="button"
          onClick={() => a.setCompare({ wipeAxis: wipeAxis === 'x' ? 'y' : 'x' })}
          title="Divider vertical or horizontal; drag the divider to move it (W)"
        >
          <Icon name="wipe" /> {wipeAxis === 'x' ? 'vertical' : 'horizontal'}
        </button>
      )}
    </div>
  );
}

/** Colormap with its range and auto range; the Layers, Histogram and pixel-values toggles. */
export function InspectGroup() {
  const c = useController();
  const a = c.actions;
  const inspect = useApp((s) => s.inspect);
  return (
    <div className="group" role="group" aria-label="Inspect">
      <select
        aria-label="Colormap"
        value={inspect.colormap}
        onChange={(e) => a.setInspect({ colormap: e.target.value as Colormap })}
        title="Colormap for a single channel or a difference (M cycles)"
      >
        {COLORMAPS.map((m) => (
          <option key={m} value={m}>
            {COLORMAP_LABELS[m]}
          </option>
        ))}
      </select>
      {inspect.colormap !== 'none' && (
        <>
          <input
            type="number"
            aria-label="Range minimum"
            step="any"
            value={+inspect.rangeMin.toPrecision(6)}
            disabled={inspect.autoRange}
            onChange={(e) => a.setInspect({ rangeMin: Number(e.target.value) })}
            title="Value at the colormap's start (turn auto range off to edit)"
          />
          <input
            type="number"
            aria-label="Range maximum"
            step="any"
            value={+inspect.rangeMax.toPrecision(6)}
            disabled={inspect.autoRange}
            onChange={(e) => a.setInspect({ rangeMax: Number(e.target.value) })}
            title="Value at the colormap's end"
          />
          <label className="toggle" title="Range from the image's finite minimum and maximum (symmetric about 0 for the diverging map) (A)">
            <input
              type="checkbox"
              checked={inspect.autoRange}
              onChange={(e) => {
                a.setInspect({ autoRange: e.target.checked });
                if (e.target.checked) c.compare.autoRange();
              }}
            />{' '}
            auto range
          </label>
        </>
      )}
      <button
        type="button"
        aria-pressed={inspect.layersView}
        onClick={() => a.setInspect({ layersView: !inspect.layersView })}
        title="Every layer of this image side by side (Shift+L)"
      >
        <Icon name="layers" /> Layers
      </button>
      <button
        type="button"
        aria-pressed={inspect.histogramOpen}
        onClick={() => a.setInspect({ histogramOpen: !inspect.histogramOpen })}
        title="Histogram of what is shown (Shift+H; linear or log axis: Y)"
      >
        <Icon name="histogram" /> Histogram
      </button>
      <button
        type="button"
        aria-pressed={inspect.pixelValues}
        onClick={() => a.setInspect({ pixelValues: !inspect.pixelValues })}
        title="Values drawn inside pixels when zoomed in (V)"
      >
        <Icon name="values" /> Values
      </button>
    </div>
  );
}
