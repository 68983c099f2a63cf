// The virtualized thumbnail grid: a listbox of the visible options over one canvas the engine draws every
// visible thumbnail into (tone-mapped on the GPU, so exposure applies to the whole grid at once). Multi-select: see selection.ts.
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { clickSelect, keySelect } from '../state/selection.js';
import { gridItems } from '../state/grid-items.js';
import { selectionOf } from '../state/store.js';
import { cellPosition, gridLayout } from './grid-layout.js';
import { useApp, useController, useEngine } from './context.js';
import { Icon } from './icons.js';
import { middleEllipsis } from './format.js';
import { damageTitle, renderingLabel, renderingTitle } from './damage-badge.js';

const CELL_PX = 128;
const GAP_PX = 8;
const LABEL_PX = 16;
const LABEL_FONT = '12px system-ui, sans-serif';

let measureCtx: CanvasRenderingContext2D | null | undefined;
/** The label cut in the middle to fit the cell (names that differ at their end stay told apart); the title has it whole. */
function fitLabel(label: string, widthPx: number): string {
  if (measureCtx === undefined) measureCtx = document.createElement('canvas').getContext('2d');
  const ctx = measureCtx;
  if (!ctx) return middleEllipsis(label, Math.floor(widthPx / 7));
  ctx.font = LABEL_FONT;
  if (ctx.measureText(label).width <= widthPx) return label;
  let lo = 1,
    hi = [...label].length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(middleEllipsis(label, mid)).width <= widthPx) lo = mid;
    else hi = mid - 1;
  }
  return middleEllipsis(label, lo);
}

export function Grid() {
  const c = useController();
  // the fields the grid shows, each its own subscription: the library slice also carries the thumbnail progress, which
  // changes with every thumbnail, and sorting 10,000 names again for each one stalls the scroll for seconds
  const folderId = useApp((s) => s.library.folderId);
  const allFiles = useApp((s) => s.library.files);
  const sequences = useApp((s) => s.library.sequences);
  const filter = useApp((s) => s.library.filter);
  const sort = useApp((s) => s.library.sort);
  const selection = useApp((s) => s.library.selection);
  const folders = useApp((s) => s.library.folders);
  const current = useApp((s) => s.image.currentFileId);
  // single files and one item per sequence (its id: the frame it opens on)
  const files = useMemo(
    () => gridItems({ ...c.store.getState().library, files: allFiles, sequences, filter, sort }),
    [c, allFiles, sequences, filter, sort],
  );
  const order = useMemo(() => files.map((f) => f.id), [files]);
  const selected = useMemo(() => new Set(selection), [selection]);
  const scroller = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [box, setBox] = useState({ width: 300, height: 600, scrollTop: 0 });
  const engine = useEngine();
  // a thumbnail that fails marks its cell: re-render when the count of failures changes, not on every thumbnail
  const [, setFailures] = useState('');
  useEffect(() => c.subscribe(() => setFailures(`${c.thumbFailures.size}:${c.thumbDamage.size}`)), [c]);

  useEffect(() => {
    const el = scroller.current!;
    const ro = new ResizeObserver(() => setBox((b) => ({ ...b, width: el.clientWidth, height: el.clientHeight })));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // another folder starts at its top, not at the scroll position of the last one
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = 0;
    setBox((b) => (b.scrollTop === 0 ? b : { ...b, scrollTop: 0 }));
  }, [folderId]);

  const layout = gridLayout(files.length, box.width, box.scrollTop, box.height, CELL_PX + LABEL_PX, GAP_PX);
  const shown = files.slice(layout.first, layout.last + 1);
  const currentIndex = current === null ? -1 : order.indexOf(current);

  const onOptionClick = (e: MouseEvent, id: string): void => {
    c.actions.select(clickSelect(selectionOf(c.store.getState()), order, id, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey }));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const next = keySelect(
      selectionOf(c.store.getState()),
      order,
      { key: e.key, shift: e.shiftKey, ctrl: e.ctrlKey || e.metaKey },
      layout.columns,
    );
    if (!next) return;
    e.preventDefault();
    c.actions.select(next);
    // keep the focused option in view (the grid is virtualized: an option out of view is not in the DOM)
    const i = next.focus === null ? -1 : order.indexOf(next.focus);
    const el = scroller.current;
    if (i < 0 || !el) return;
    const top = cellPosition(layout, i).yPx;
    const pitch = CELL_PX + LABEL_PX + GAP_PX;
    if (top < el.scrollTop) el.scrollTop = top - GAP_PX;
    else if (top + pitch > el.scrollTop + el.clientHeight) el.scrollTop = top + pitch - el.clientHeight;
  };

  useLayoutEffect(() => {
    const cv = canvas.current;
    if (!cv || !engine) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(box.width * dpr)),
      h = Math.max(1, Math.round(box.height * dpr));
    if (cv.width !== w || cv.height !== h) {
      cv.width = w;
      cv.height = h;
    }
    if (!cv.dataset.attached) {
      engine.attachGrid(cv);
      cv.dataset.attached = '1';
    }
    // a sequence's cell is a filmstrip: its first, middle and last frames side by side
    engine.setGridCells(
      shown.flatMap((f, k) => {
        const p = cellPosition(layout, layout.first + k);
        const widthPx = (CELL_PX * dpr) / f.strip.length;
        return f.strip.map((fileId, i) => ({
          fileId,
          xPx: p.xPx * dpr + i * widthPx,
          yPx: (p.yPx - box.scrollTop) * dpr,
          widthPx,
          heightPx: CELL_PX * dpr,
        }));
      }),
    );
    c.requestThumbnails(shown.flatMap((f) => f.strip));
  });

  // the codec's reason for a file that cannot be read (header or thumbnail), or that it is still being written
  const fileById = useMemo(() => new Map(allFiles.map((f) => [f.id, f])), [allFiles]);
  const problem = (item: (typeof files)[number]): string | null => {
    // a sequence lists its damaged and missing frames in its own tooltip; it plays on past them
    const f = item.sequence ? null : fileById.get(item.id);
    if (!f) return null;
    if (f.rendering) return renderingTitle(f.name, f.rendering);
    const damage = c.thumbDamage.get(f.id);
    if (damage && f.status !== 'incomplete') return damageTitle(f.name, damage);
    return f.status === 'incomplete'
      ? `${f.name} is still being written: ${f.error ?? 'shorter than its header says'}. Shown once complete.`
      : f.status === 'error'
        ? `${f.name}: ${f.error ?? 'cannot be read'}`
        : c.thumbFailures.has(f.id)
          ? `${f.name}: ${c.thumbFailures.get(f.id)}`
          : null;
  };
  // a damaged file shown by its readable chunks: a small badge over its thumbnail instead of the broken-file mark; a file
  // being written likewise, its chunks so far shown (the rest hatched, not damage) under "rendering… N of M chunks"
  const statusOf = (item: (typeof files)[number]): string =>
    item.sequence
      ? 'ok'
      : fileById.get(item.id)?.rendering
        ? 'rendering'
        : c.thumbDamage.has(item.id)
          ? 'damaged'
          : (fileById.get(item.id)?.status ?? 'ok');
  const badged = (status: string) => status === 'damaged' || status === 'rendering';
  const problemClass = (item: (typeof files)[number]): string =>
    problem(item)
      ? statusOf(item) === 'rendering'
        ? ' incomplete rendering'
        : badged(statusOf(item))
          ? ' damaged'
          : ` bad ${statusOf(item)}`
      : '';
  const folder = folders.find((d) => d.id === folderId);

  return (
    <div
      className="grid"
      ref={scroller}
      role="listbox"
      aria-label="Images"
      aria-multiselectable={true}
      tabIndex={0}
      aria-activedescendant={currentIndex >= layout.first && currentIndex <= layout.last ? `grid-option-${currentIndex}` : undefined}
      onKeyDown={onKeyDown}
      onScroll={(e) => {
        const top = e.currentTarget.scrollTop;
        setBox((b) => ({ ...b, scrollTop: top }));
      }}
    >
      <canvas ref={canvas} className="grid-canvas" aria-hidden="true" />
      {folderId !== null && allFiles.length === 0 && (
        <p className="empty-folder" role="note">
          No EXR files in {folder?.displayPath ?? 'this folder'}. Images ending in .exr show here as soon as they are written; or open
          another folder.
        </p>
      )}
      <div className="grid-spacer" style={{ height: layout.totalHeightPx }}>
        {shown.map((f, k) => {
          const p = cellPosition(layout, layout.first + k);
          return (
            <div
              key={f.id}
              id={`grid-option-${layout.first + k}`}
              role="option"
              aria-label={f.label}
              aria-selected={selected.has(f.id)}
              data-sequence={f.sequence ? f.sequence.name : undefined}
              aria-setsize={files.length}
              aria-posinset={layout.first + k + 1}
              className={`cell${selected.has(f.id) ? ' selected' : ''}${f.id === current ? ' current' : ''}${problemClass(f)}${f.sequence ? ' sequence' : ''}`}
              title={problem(f) ?? f.title}
              aria-description={problem(f) ?? undefined}
              style={{ left: p.xPx, top: p.yPx, width: CELL_PX, height: CELL_PX + LABEL_PX }}
              onMouseDown={(e) => {
                if (e.shiftKey) e.preventDefault(); /* no text selection on Shift-click */
              }}
              onClick={(e) => onOptionClick(e, f.id)}
            >
              {statusOf(f) === 'damaged' && (
                <span className="damage-badge" aria-hidden="true">
                  <Icon name="warning" sizePx={12} /> damaged
                </span>
              )}
              {statusOf(f) === 'rendering' && (
                <span className="rendering-badge" role="status">
                  <Icon name="hourglass" sizePx={12} /> {renderingLabel(fileById.get(f.id)!.rendering!)}
                </span>
              )}
              {fileById.get(f.id)?.live && (
                <span className="live-badge" aria-hidden="true">
                  live
                </span>
              )}
              {problem(f) && !badged(statusOf(f)) && (
                <span className="broken-mark" aria-hidden="true">
                  <Icon name={statusOf(f) === 'incomplete' ? 'hourglass' : 'warning'} sizePx={34} />
                  <span className="broken-reason">{statusOf(f) === 'incomplete' ? 'still being written' : 'cannot be read'}</span>
                </span>
              )}
              <span className="cell-name">{fitLabel(f.label, CELL_PX - 4)}</span>
            </div>
          );
        })}
      </div>
    </div>
  );
}
