// Top bar, one row whatever the window's width: folder, view (exposure, transform), compare, inspect (CompareBar.tsx),
// look (LUT, HDR), grade (offset, gamma), marks; what does not fit goes to the "⋯" menu, the least
// important first. The panel and window buttons stay at the right. Every control has a tooltip naming its key.
import { useEffect, useRef, useState, type ReactElement } from 'react';
import { DISPLAY_TRANSFORMS, type DisplayTransform } from '../../shaders/display-params.js';
import { CompareGroup, InspectGroup } from './CompareBar.js';
import { useApp, useController } from './context.js';
import { LutControls } from './LutControls.js';
import { ColourControls } from './ColourControls.js';
import { HdrControls } from './HdrControls.js';
import { ExposureControl } from './ExposureControl.js';
import { useToolbarOverflow, type ToolbarItem } from './toolbar-overflow.js';
import { toggleFullscreen, useFullscreen } from './fullscreen.js';
import { Icon } from './icons.js';
import { ExpressionBar } from './ExpressionBar.js';
import { pollingNote } from '../model/polling-note.js';

const GAP_PX = 8;

function FolderGroup() {
  const c = useController();
  const recent = useApp((s) => s.library.recent);
  // the open folder names itself in the field (browser mode: as the server shows it, which it opens again as typed)
  const openPath = useApp((s) => s.library.folders.find((d) => d.id === s.library.folderId)?.displayPath ?? '');
  const polling = pollingNote(useApp((s) => s.library.folders.find((d) => d.id === s.library.folderId)));
  const [path, setPath] = useState(openPath);
  useEffect(() => setPath(openPath), [openPath]);
  // a folder that could not be opened says why and what to do under the field, until dismissed or another opens
  const status = useApp((s) => s.ui.status);
  const [dismissed, setDismissed] = useState('');
  const problem = status.startsWith('could not open') && status !== dismissed ? status : null;
  return (
    <div className="group" role="group" aria-label="Folder">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          e.currentTarget.querySelector('input')?.blur();
          void c.openFolder(path || undefined);
        }}
      >
        <input
          aria-label="Folder"
          list="recent-folders"
          placeholder="folder path"
          value={path}
          onChange={(e) => setPath(e.target.value)}
          title={`${openPath ? `Open now: ${openPath}. ` : ''}A folder of EXR images; recent ones are offered (O)`}
          spellCheck={false}
        />
        <datalist id="recent-folders">
          {recent.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
        <button type="submit" aria-label="Open" title="Open the folder typed (O: type a folder; or drop a folder or file on the window)">
          <Icon name="folder" />
        </button>
      </form>
      {polling && (
        <span className="folder-polling" role="status" aria-label="Watching by polling" title={polling.title}>
          {polling.label}
        </span>
      )}
      {problem && (
        <div className="folder-problem" role="alert">
          <Icon name="warning" /> <span>{problem.replace(/^could not open /, 'Could not open ')}</span>
          <button type="button" className="link" onClick={() => setDismissed(problem)}>
            dismiss
          </button>
        </div>
      )}
    </div>
  );
}

function ViewGroup() {
  const a = useController().actions;
  const transform = useApp((s) => s.view.display.transform);
  return (
    <div className="group" role="group" aria-label="View">
      <ExposureControl />
      <select
        aria-label="Display transform"
        value={transform}
        onChange={(e) => a.setDisplay({ transform: e.target.value as DisplayTransform })}
        title="Display transform (tone-map) (T / Shift+T: next / previous)"
      >
        {DISPLAY_TRANSFORMS.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </select>
    </div>
  );
}

function GradeGroup() {
  const a = useController().actions;
  const offset = useApp((s) => s.view.display.offset);
  const gamma = useApp((s) => s.view.display.gamma);
  return (
    <div className="group" role="group" aria-label="Offset and gamma">
      <label title="Offset added after exposure (0 resets)">
        offset{' '}
        <input
          type="number"
          aria-label="Offset"
          step={0.01}
          value={offset}
          onChange={(e) => a.setDisplay({ offset: Number(e.target.value) || 0 })}
        />
      </label>
      <label title="Display gamma after the transform (G / Shift+G: ±0.1; 0 resets)">
        γ{' '}
        <input
          type="number"
          aria-label="Gamma"
          step={0.1}
          min={0.1}
          value={gamma}
          onChange={(e) => a.setDisplay({ gamma: Math.max(0.1, Number(e.target.value) || 1) })}
        />
      </label>
    </div>
  );
}

function MarksGroup() {
  const a = useController().actions;
  const display = useApp((s) => s.view.display);
  return (
    <div className="group" role="group" aria-label="Marks">
      <label className="toggle" title="False colour: EV zones of luminance (Z)">
        <input type="checkbox" checked={display.falseColour} onChange={(e) => a.setDisplay({ falseColour: e.target.checked })} /> false
        colour
      </label>
      <label className="toggle" title="Clipping: over 1 in red, at or under 0 in blue (X)">
        <input type="checkbox" checked={display.clipping} onChange={(e) => a.setDisplay({ clipping: e.target.checked })} /> clipping
      </label>
      <label className="toggle" title="NaN in magenta, ±Inf in cyan (I)">
        <input type="checkbox" checked={display.nanInf} onChange={(e) => a.setDisplay({ nanInf: e.target.checked })} /> NaN/Inf
      </label>
    </div>
  );
}

function LookGroup() {
  return (
    <div className="group" role="group" aria-label="Look">
      <LutControls />
      <HdrControls />
    </div>
  );
}

/** OpenColorIO: a group of its own, so that its pickers do not widen Look as HDR and LUT controls change. */
function ColourGroup() {
  return (
    <div className="group" role="group" aria-label="Colour">
      <ColourControls />
    </div>
  );
}

/** In display order; `priority`: lower goes to the menu first. */
const ITEMS: (ToolbarItem & { render: () => ReactElement })[] = [
  { key: 'folder', priority: 100, render: () => <FolderGroup /> },
  { key: 'view', priority: 90, render: () => <ViewGroup /> },
  { key: 'compare', priority: 80, render: () => <CompareGroup /> },
  { key: 'inspect', priority: 75, render: () => <InspectGroup /> },
  // a LUT loaded is looked at and changed while grading: its controls before compare's (R, C and B work from the menu too)
  { key: 'look', priority: 85, render: () => <LookGroup /> },
  { key: 'colour', priority: 70, render: () => <ColourGroup /> },
  { key: 'grade', priority: 60, render: () => <GradeGroup /> },
  { key: 'marks', priority: 50, render: () => <MarksGroup /> },
];

function PanelsGroup({ moreCount, menuOpen, onMenu }: { moreCount: number; menuOpen: boolean; onMenu: () => void }) {
  const a = useController().actions;
  const diagnosticsOpen = useApp((s) => s.ui.diagnosticsOpen);
  const panelsHidden = useApp((s) => s.layout.panelsHidden);
  const fullscreen = useFullscreen();
  const expressionOpen = useApp((s) => s.expressions.open);
  return (
    <div className="group end" role="group" aria-label="Panels">
      {moreCount > 0 && (
        <button
          type="button"
          className="more"
          aria-label="More controls"
          aria-haspopup="true"
          aria-expanded={menuOpen}
          aria-controls="toolbar-more"
          onClick={onMenu}
        >
          ⋯
        </button>
      )}
      <button
        type="button"
        aria-label="Channel expression"
        aria-pressed={expressionOpen}
        onClick={() => a.setExpressions({ open: !expressionOpen })}
        title="Channel expression: a layer computed from channels, as diffuse + specular or luminance(beauty) > 1 (F2)"
      >
        ƒx
      </button>
      <button
        type="button"
        aria-label="Export…"
        aria-haspopup="dialog"
        onClick={() => a.setExport({ open: true, outcome: null })}
        title="Export the selection through the current view (S)"
      >
        <Icon name="export" />
      </button>
      <button
        type="button"
        aria-label="Diagnostics"
        aria-pressed={diagnosticsOpen}
        aria-expanded={diagnosticsOpen}
        aria-controls="diagnostics"
        onClick={() => a.toggleDiagnostics()}
        title="Diagnostics: where the time goes, decode, transfer, upload, GPU (D)"
      >
        <Icon name="pulse" />
      </button>
      <button
        type="button"
        aria-label="Panels"
        aria-pressed={!panelsHidden}
        onClick={() => a.setLayout({ panelsHidden: !panelsHidden })}
        title={`${panelsHidden ? 'Show' : 'Hide'} the grid and the inspector: the image alone (Tab)`}
      >
        <Icon name="panels" />
      </button>
      <button
        type="button"
        aria-label="Full screen"
        aria-pressed={fullscreen}
        onClick={() => toggleFullscreen()}
        title="Full screen on or off (Shift+F)"
      >
        <Icon name="fullscreen" />
      </button>
      <button type="button" aria-label="Help" onClick={() => a.toggleHelp()} title="Shortcuts (?)">
        <Icon name="help" />
      </button>
    </div>
  );
}

export function Toolbar() {
  const row = useRef<HTMLDivElement>(null);
  const bar = useRef<HTMLElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const out = useToolbarOverflow(ITEMS, row, menu, GAP_PX);
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => {
    if (!out.length) setMenuOpen(false);
  }, [out.length]);
  // the menu closes on a click elsewhere and on Esc, as menus do
  useEffect(() => {
    if (!menuOpen) return;
    const onDown = (e: PointerEvent): void => {
      if (!bar.current?.contains(e.target as Node)) setMenuOpen(false);
    };
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('pointerdown', onDown);
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('pointerdown', onDown);
      window.removeEventListener('keydown', onKey);
    };
  }, [menuOpen]);
  const inMenu = new Set(out);
  return (
    <header className="toolbar" ref={bar}>
      <div className="toolbar-row" ref={row}>
        {ITEMS.filter((it) => !inMenu.has(it.key)).map((it) => (
          <div key={it.key} className="toolbar-item" data-item={it.key}>
            {it.render()}
          </div>
        ))}
      </div>
      <PanelsGroup moreCount={out.length} menuOpen={menuOpen} onMenu={() => setMenuOpen(!menuOpen)} />
      {/* kept in the page (laid out, unseen) while closed: the keys that press its buttons (U) and the state its boxes
          show still work, and its groups are measured as they change */}
      <div id="toolbar-more" ref={menu} className="toolbar-menu" role="group" aria-label="More controls" hidden={!menuOpen || !out.length}>
        {ITEMS.filter((it) => inMenu.has(it.key)).map((it) => (
          <div key={it.key} className="toolbar-item" data-menu-item={it.key}>
            {it.render()}
          </div>
        ))}
      </div>
      <ExpressionBar />
    </header>
  );
}
