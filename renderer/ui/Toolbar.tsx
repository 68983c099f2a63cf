// Top bar, in groups: folder (open, filter, sort), view (exposure, offset, gamma, transform, overlays), compare and
// inspect (CompareBar), and the panels (Export, Diagnostics, Help). Every control has a tooltip naming its key.
import { useState } from 'react';
import { DISPLAY_TRANSFORMS, type DisplayTransform } from '../../shaders/display-params.js';
import { EXPOSURE_RANGE_EV, EXPOSURE_STEP_EV, type SortKey } from '../state/store.js';
import { CompareBar } from './CompareBar.js';
import { useApp, useController } from './context.js';
import { LutControls } from './LutControls.js';
import { HdrControls } from './HdrControls.js';
import { Icon } from './icons.js';

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
      <div className="group" role="group" aria-label="Folder">
        <form onSubmit={(e) => { e.preventDefault(); void c.openFolder(path || undefined); }}>
          <input aria-label="Folder" list="recent-folders" placeholder="folder path" value={path} onChange={(e) => setPath(e.target.value)} title="A folder of EXR images; recent ones are offered (O)" />
          <datalist id="recent-folders">{recent.map((r) => <option key={r} value={r} />)}</datalist>
          <button type="submit" title="Open the folder (O: type a folder; or drop a folder or file on the window)"><Icon name="folder" /> Open</button>
        </form>
        <input aria-label="Filter" className="filter" placeholder="filter" value={filter} onChange={(e) => a.setFilter(e.target.value)} title="Show only files whose name contains this (/)" />
        <select aria-label="Sort" value={sort} onChange={(e) => a.setSort(e.target.value as SortKey)} title="Order of the grid (Shift+S: next order)">
          <option value="name">name</option><option value="mtime">newest</option><option value="size">largest</option>
        </select>
      </div>
      <div className="group" role="group" aria-label="View">
        <label className="exposure" title="Exposure in stops (E / Shift+E: ±0.5, 0 resets)">
          <Icon name="sun" />
          <input type="range" aria-label="Exposure" min={-EXPOSURE_RANGE_EV} max={EXPOSURE_RANGE_EV} step={EXPOSURE_STEP_EV}
            value={display.exposureEv} onChange={(e) => a.setExposure(Number(e.target.value))} />
          <output aria-label="Exposure value">{display.exposureEv.toFixed(1)}</output>
        </label>
        <label title="Offset added after exposure (0 resets)">offset <input type="number" aria-label="Offset" step={0.01} value={display.offset} onChange={(e) => a.setDisplay({ offset: Number(e.target.value) || 0 })} /></label>
        <label title="Display gamma after the transform (G / Shift+G: ±0.1; 0 resets)">γ <input type="number" aria-label="Gamma" step={0.1} min={0.1} value={display.gamma} onChange={(e) => a.setDisplay({ gamma: Math.max(0.1, Number(e.target.value) || 1) })} /></label>
        <select aria-label="Display transform" value={display.transform} onChange={(e) => a.setDisplay({ transform: e.target.value as DisplayTransform })} title="Display transform (tone-map) (T / Shift+T: next / previous)">
          {DISPLAY_TRANSFORMS.map((t) => <option key={t} value={t}>{t}</option>)}
        </select>
        <LutControls />
        <HdrControls />
        <label className="toggle" title="False colour: EV zones of luminance (Z)"><input type="checkbox" checked={display.falseColour} onChange={(e) => a.setDisplay({ falseColour: e.target.checked })} /> false colour</label>
        <label className="toggle" title="Clipping: over 1 in red, at or under 0 in blue (X)"><input type="checkbox" checked={display.clipping} onChange={(e) => a.setDisplay({ clipping: e.target.checked })} /> clipping</label>
        <label className="toggle" title="NaN in magenta, ±Inf in cyan (I)"><input type="checkbox" checked={display.nanInf} onChange={(e) => a.setDisplay({ nanInf: e.target.checked })} /> NaN/Inf</label>
      </div>
      <CompareBar />
      <div className="group end" role="group" aria-label="Panels">
        <button type="button" aria-haspopup="dialog" onClick={() => a.setExport({ open: true, outcome: null })} title="Export the selection through the current view (S)"><Icon name="export" /> Export…</button>
        <button type="button" aria-pressed={diagnosticsOpen} aria-expanded={diagnosticsOpen} aria-controls="diagnostics" onClick={() => a.toggleDiagnostics()} title="Where the time goes: decode, transfer, upload, GPU (D)"><Icon name="pulse" /> Diagnostics</button>
        <button type="button" aria-label="Help" onClick={() => a.toggleHelp()} title="Shortcuts (?)"><Icon name="help" /></button>
      </div>
    </header>
  );
}
