// Top bar: folder, filter, sort, exposure, display transform, overlays, Export, Diagnostics toggle, help.
import { useState } from 'react';
import { DISPLAY_TRANSFORMS, type DisplayTransform } from '../../shaders/display-params.js';
import { EXPOSURE_RANGE_EV, EXPOSURE_STEP_EV, type SortKey } from '../state/store.js';
import { useApp, useController } from './context.js';
import { LutControls } from './LutControls.js';
import { HdrControls } from './HdrControls.js';

export function Toolbar() {
  const c = useController();
  const a = c.actions;
  const display = useApp((s) => s.view.display);
  const filter = useApp((s) => s.library.filter);
  const sort = useApp((s) => s.library.sort);
  const recent = useApp((s) => s.library.recent);
  const diagnosticsOpen = useApp((s) => s.ui.diagnosticsOpen);
  const [path, setPath] = useState('');
  return (
    <header className="toolbar">
      <form onSubmit={(e) => { e.preventDefault(); void c.openFolder(path || undefined); }}>
        <input aria-label="Folder" list="recent-folders" placeholder="folder" value={path} onChange={(e) => setPath(e.target.value)} />
        <datalist id="recent-folders">{recent.map((r) => <option key={r} value={r} />)}</datalist>
        <button type="submit">Open</button>
      </form>
      <input aria-label="Filter" placeholder="filter by name" value={filter} onChange={(e) => a.setFilter(e.target.value)} />
      <select aria-label="Sort" value={sort} onChange={(e) => a.setSort(e.target.value as SortKey)}>
        <option value="name">name</option><option value="mtime">newest</option><option value="size">largest</option>
      </select>
      <label className="exposure">
        EV
        <input type="range" aria-label="Exposure" min={-EXPOSURE_RANGE_EV} max={EXPOSURE_RANGE_EV} step={EXPOSURE_STEP_EV}
          value={display.exposureEv} onChange={(e) => a.setExposure(Number(e.target.value))} />
        <output aria-label="Exposure value">{display.exposureEv.toFixed(1)}</output>
      </label>
      <label>offset <input type="number" aria-label="Offset" step={0.01} value={display.offset} onChange={(e) => a.setDisplay({ offset: Number(e.target.value) || 0 })} /></label>
      <label>gamma <input type="number" aria-label="Gamma" step={0.1} min={0.1} value={display.gamma} onChange={(e) => a.setDisplay({ gamma: Math.max(0.1, Number(e.target.value) || 1) })} /></label>
      <select aria-label="Display transform" value={display.transform} onChange={(e) => a.setDisplay({ transform: e.target.value as DisplayTransform })}>
        {DISPLAY_TRANSFORMS.map((t) => <option key={t} value={t}>{t}</option>)}
      </select>
      <LutControls />
      <HdrControls />
      <label><input type="checkbox" checked={display.falseColour} onChange={(e) => a.setDisplay({ falseColour: e.target.checked })} /> false colour</label>
      <label><input type="checkbox" checked={display.clipping} onChange={(e) => a.setDisplay({ clipping: e.target.checked })} /> clipping</label>
      <label><input type="checkbox" checked={display.nanInf} onChange={(e) => a.setDisplay({ nanInf: e.target.checked })} /> NaN/Inf</label>
      <button type="button" aria-haspopup="dialog" onClick={() => a.setExport({ open: true, outcome: null })}>Export…</button>
      <button type="button" aria-pressed={diagnosticsOpen} aria-expanded={diagnosticsOpen} aria-controls="diagnostics" onClick={() => a.toggleDiagnostics()}>Diagnostics</button>
      <button type="button" aria-label="Help" onClick={() => a.toggleHelp()}>?</button>
    </header>
  );
}
