// The export panel: what (images or thumbnails), PNG or JPEG, through the current view; then what was written, skipped or failed.
import { useMemo } from 'react';
import { describeView, exportTargets, exportView } from '../app/export-request.js';
import type { ExportFormat, ExportKind } from '../state/store.js';
import { useApp, useController } from './context.js';

const MAX_NAMES = 6;

export function ExportDialog() {
  const c = useController();
  const a = c.actions;
  const ex = useApp((s) => s.export);
  // what the targets are read from (not the whole library slice: its thumbnail progress changes with every thumbnail)
  const files = useApp((s) => s.library.files);
  const selection = useApp((s) => s.library.selection);
  const filter = useApp((s) => s.library.filter);
  const sort = useApp((s) => s.library.sort);
  const image = useApp((s) => s.image);
  const display = useApp((s) => s.view.display);
  const electron = c.host.transport === 'ipc';
  const { targets, view, notes } = useMemo(() => {
    const s = c.store.getState();
    return { targets: exportTargets(s), ...exportView(s) };
  }, [c, files, selection, filter, sort, image, display]); // recomputed when the slices it reads change
  if (!ex.open) return null;
  const outcome = ex.outcome;
  const names = targets.map((f) => f.name);
  const shownNames = names.slice(0, MAX_NAMES).join(', ') + (names.length > MAX_NAMES ? ` and ${names.length - MAX_NAMES} more` : '');
  const close = (): void => a.setExport({ open: false, outcome: null });
  return (
    <section
      className="export-dialog"
      role="dialog"
      aria-label="Export"
      onKeyDown={(e) => {
        if (e.key === 'Escape') close();
      }}
    >
      <h2>
        Export {targets.length} {ex.kind === 'thumbnail' ? 'thumbnail' : 'image'}
        {targets.length === 1 ? '' : 's'}
      </h2>
      <p>{targets.length ? shownNames : 'Nothing selected: click images in the grid (Ctrl/Cmd-click adds, Shift-click adds a range).'}</p>
      <fieldset disabled={ex.running}>
        <legend>What</legend>
        <select aria-label="Export what" value={ex.kind} onChange={(e) => a.setExport({ kind: e.target.value as ExportKind })}>
          <option value="image">full images</option>
          <option value="thumbnail">thumbnails</option>
        </select>
        {ex.kind === 'thumbnail' && (
          <label>
            long side{' '}
            <input
              type="number"
              aria-label="Thumbnail size"
              min={16}
              max={4096}
              step={16}
              value={ex.longSidePx}
              onChange={(e) => a.setExport({ longSidePx: Math.min(4096, Math.max(16, Math.round(Number(e.target.value)) || 256)) })}
            />{' '}
            px
          </label>
        )}
        <select aria-label="Format" value={ex.format} onChange={(e) => a.setExport({ format: e.target.value as ExportFormat })}>
          <option value="png">PNG</option>
          <option value="jpg">JPEG</option>
        </select>
      </fieldset>
      <p>Through the current view: {describeView(view)}.</p>
      {notes.map((n) => (
        <p key={n} className="note">
          {n}
        </p>
      ))}
      <p>
        {electron
          ? 'You choose a folder next; files already there are kept unless you confirm replacing them.'
          : 'Your browser saves each file as a download.'}
      </p>
      <div className="buttons">
        <button type="button" disabled={ex.running || !targets.length} onClick={() => void c.exportSelection()}>
          {electron ? 'Export…' : 'Export'}
        </button>
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
      {ex.running && <p role="status">Exporting…</p>}
      {outcome?.error && <p role="alert">{outcome.error}</p>}
      {outcome && !outcome.error && (
        <>
          <p role="status" aria-label="Export summary">
            {outcome.summary}
          </p>
          <ul aria-label="Export results">
            {outcome.lines.map((l) => (
              <li key={`${l.status}:${l.fileId}`} className={l.status}>
                <b>{l.name}</b>: {l.text}
              </li>
            ))}
          </ul>
          {outcome.existing.fileIds.length > 0 && (
            <button
              type="button"
              disabled={ex.running}
              onClick={() =>
                void c.exportSelection({ fileIds: outcome.existing.fileIds, overwrite: true, outDir: outcome.existing.outDir })
              }
            >
              Overwrite {outcome.existing.fileIds.length} existing file{outcome.existing.fileIds.length === 1 ? '' : 's'}
            </button>
          )}
        </>
      )}
    </section>
  );
}
