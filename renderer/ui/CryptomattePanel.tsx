// The Cryptomatte panel over the preview: the layer's names to filter and tick (each with its colour in the ID view), the
// matte's mode (overlay, alpha, isolated), what is wrong with the layer, and the matte's export (EXR, PNG).
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { idColourCss } from '../../shaders/cryptomatte/colour.js';
import { MATTE_MODES, type MatteMode } from '../state/cryptomatte.js';
import { useApp, useController } from './context.js';

export const MODE_LABELS: Record<MatteMode, { label: string; title: string }> = {
  overlay: { label: 'Overlay', title: 'the picked mattes tinted over the beauty, the other IDs faint (K: next mode)' },
  alpha: { label: 'Alpha', title: 'the matte alone, as grey (K: next mode)' },
  isolate: { label: 'Isolated', title: 'the beauty times the matte: only the picked objects (K: next mode)' },
};

/** At most this many names are drawn; the filter finds the rest. */
const LIST_LIMIT = 500;

function useCryptomatte() {
  const c = useController();
  return useSyncExternalStore(
    (l) => c.cryptomatte.subscribe(l),
    () => c.cryptomatte.state,
  );
}

export function CryptomattePanel() {
  const c = useController();
  const layer = useApp((s) => s.cryptomatte.layer);
  const picked = useApp((s) => s.cryptomatte.picked);
  const mode = useApp((s) => s.cryptomatte.mode);
  const open = useApp((s) => s.cryptomatte.panelOpen);
  const cpuPath = useApp((s) => s.ui.path === 'cpu');
  const state = useCryptomatte();
  const [filter, setFilter] = useState('');
  const [exported, setExported] = useState('');
  const names = state.kind === 'ready' ? state.names : null;
  const shown = useMemo(() => {
    if (!names) return [];
    const f = filter.trim().toLowerCase();
    return (f ? names.filter((n) => n.name.toLowerCase().includes(f)) : names).slice(0, LIST_LIMIT);
  }, [names, filter]);
  useEffect(() => setExported(''), [layer]);
  if (layer === null) return null;
  if (!open)
    return (
      <button
        type="button"
        className="cryptomatte-open"
        title="Show the Cryptomatte names, the matte mode and its export"
        onClick={() => c.actions.setCryptomatte({ panelOpen: true })}
      >
        Cryptomatte {picked.length ? `(${picked.length} picked)` : ''}
      </button>
    );
  const unknown = c.cryptomatte.unknownPicks;
  const notes = state.kind === 'ready' ? state.layer.notes : [];
  const exportAs = (format: 'exr' | 'png') => void c.cryptomatte.export(format).then(setExported);
  return (
    <aside className="cryptomatte-panel" aria-label="Cryptomatte">
      <header>
        <strong>{layer}</strong>
        <span className="cryptomatte-count">{picked.length} picked</span>
        <button type="button" title="Hide this panel (the layer stays)" onClick={() => c.actions.setCryptomatte({ panelOpen: false })}>
          ×
        </button>
      </header>
      <div className="cryptomatte-modes" role="radiogroup" aria-label="Matte shown as">
        {MATTE_MODES.map((m) => (
          <button
            key={m}
            type="button"
            role="radio"
            aria-checked={mode === m}
            title={MODE_LABELS[m].title}
            onClick={() => c.actions.setCryptomatte({ mode: m })}
          >
            {MODE_LABELS[m].label}
          </button>
        ))}
      </div>
      {cpuPath && (
        <p className="cryptomatte-note" role="note">
          Drawn on the CPU (no WebGPU in this window): the same colours and mattes, slower on large images.
        </p>
      )}
      {state.kind === 'loading' && <p role="status">reading {layer}…</p>}
      {state.kind === 'error' && (
        <p className="cryptomatte-error" role="alert">
          {state.message}
        </p>
      )}
      {notes.map((n) => (
        <p key={n} className="cryptomatte-note" role="note">
          {n}
        </p>
      ))}
      {unknown.length > 0 && (
        <p className="cryptomatte-note" role="note">
          Not in this layer: {unknown.map((n) => JSON.stringify(n)).join(', ')} (their matte is empty here).
        </p>
      )}
      {names && (
        <>
          <input
            type="search"
            aria-label="Filter names"
            placeholder={`filter ${names.length} names`}
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
          />
          <ul className="cryptomatte-names" aria-label="Names">
            {shown.map(({ name, id }) => (
              <li key={name}>
                <label title={`ID ${id.toString(16).padStart(8, '0')}`}>
                  <input type="checkbox" checked={picked.includes(name)} onChange={() => c.cryptomatte.toggle(name)} />
                  <span className="cryptomatte-swatch" style={{ background: idColourCss(id) }} />
                  <span className="cryptomatte-name">{name}</span>
                </label>
              </li>
            ))}
            {names.length > shown.length && !filter && <li className="cryptomatte-more">… {names.length - shown.length} more: filter</li>}
          </ul>
        </>
      )}
      <footer>
        <button
          type="button"
          disabled={!picked.length}
          title="Clear the picked names (Delete)"
          onClick={() => c.actions.setCryptomatte({ picked: [] })}
        >
          Clear
        </button>
        <button
          type="button"
          disabled={!picked.length}
          title="Export the matte as a float EXR (channel A), as exrview matte writes it"
          onClick={() => exportAs('exr')}
        >
          Export EXR
        </button>
        <button
          type="button"
          disabled={!picked.length}
          title="Export the matte as an 8-bit grey PNG, as exrview matte writes it"
          onClick={() => exportAs('png')}
        >
          Export PNG
        </button>
      </footer>
      {exported && (
        <p className="cryptomatte-exported" role="status">
          {exported}
        </p>
      )}
    </aside>
  );
}
