// The virtualized thumbnail grid: a listbox of the visible options over one canvas the engine draws every
// visible thumbnail into (tone-mapped on the GPU, so exposure applies to the whole grid at once). Multi-select: see selection.ts.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { clickSelect, keySelect } from '../state/selection.js';
import { gridItems, type GridItem } from '../state/grid-items.js';
import { selectionOf } from '../state/store.js';
import { canvasCells, cellPosition, gridLayout, rowLayout, scrollRow } from './grid-layout.js';
import { useApp, useController, useEngine } from './context.js';
import { damageTitle, renderingLabel, renderingTitle } from './damage-badge.js';
import { CELL_PX, GridOption, LABEL_PX, type OptionStatus } from './GridOption.js';
import { DrawnMarks } from './thumb-marks.js';

const GAP_PX = 8;
const PITCH_PX = CELL_PX + LABEL_PX + GAP_PX;

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
  const [size, setSize] = useState({ width: 300, height: 600 });
  // the scroll position lives in a ref: the grid renders again only when a scroll crosses into another row
  const scrollTop = useRef(0);
  const [topRow, setTopRow] = useState(0);
  const engine = useEngine();
  // a thumbnail that fails or comes back damaged marks its cell: the grid renders again when the marks differ from those
  // it last drew (thumb-marks.ts), not on every thumbnail
  const marks = useMemo(() => new DrawnMarks(c), [c]);
  marks.drawn();
  const [marksVersion, marksChanged] = useReducer((n: number) => n + 1, 0);
  useEffect(() => c.subscribe(() => marks.changed() && marksChanged()), [c, marks]);

  useEffect(() => {
    const el = scroller.current!;
    const ro = new ResizeObserver(() => setSize({ width: el.clientWidth, height: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // another folder starts at its top, not at the scroll position of the last one
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = 0;
    scrollTop.current = 0;
    setTopRow(0);
  }, [folderId]);

  const layout = rowLayout(files.length, size.width, topRow, size.height, CELL_PX + LABEL_PX, GAP_PX);
  const currentIndex = useMemo(() => (current === null ? -1 : order.indexOf(current)), [order, current]);

  /** The visible cells to the engine, at the scroll position now (called on every scroll step; drawn once per frame). */
  const drawCells = useRef<() => void>(() => {});
  drawCells.current = () => {
    const cv = canvas.current;
    if (!cv || !engine) return;
    const exact = gridLayout(files.length, size.width, scrollTop.current, size.height, CELL_PX + LABEL_PX, GAP_PX, 0);
    engine.setGridCells(canvasCells(exact, (i) => files[i]!.strip, scrollTop.current, CELL_PX, window.devicePixelRatio || 1));
  };

  const onPick = useRef<(e: MouseEvent, id: string) => void>(() => {});
  onPick.current = (e, id) => {
    c.actions.select(clickSelect(selectionOf(c.store.getState()), order, id, { toggle: e.ctrlKey || e.metaKey, range: e.shiftKey }));
  };
  const pick = useCallback((e: MouseEvent, id: string) => onPick.current(e, id), []);

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
    if (top < el.scrollTop) el.scrollTop = top - GAP_PX;
    else if (top + PITCH_PX > el.scrollTop + el.clientHeight) el.scrollTop = top + PITCH_PX - el.clientHeight;
  };

  useLayoutEffect(() => {
    const cv = canvas.current;
    if (!cv || !engine) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(size.width * dpr)),
      h = Math.max(1, Math.round(size.height * dpr));
    if (cv.width !== w || cv.height !== h) {
      cv.width = w;
      cv.height = h;
    }
    if (!cv.dataset.attached) {
      engine.attachGrid(cv);
      cv.dataset.attached = '1';
    }
    drawCells.current();
  });

  // the thumbnails of the rendered cells (the overscan rows too), asked for when that set changes
  const shownIds = useMemo(() => files.slice(layout.first, layout.last + 1).flatMap((f) => f.strip), [files, layout.first, layout.last]);
  useEffect(() => {
    if (engine) c.requestThumbnails(shownIds);
  }, [c, engine, shownIds, marksVersion]);

  // the codec's reason for a file that cannot be read (header or thumbnail), or that it is still being written
  const fileById = useMemo(() => new Map(allFiles.map((f) => [f.id, f])), [allFiles]);
  const statusOf = (item: GridItem): OptionStatus => {
    // a sequence lists its damaged and missing frames in its own tooltip; it plays on past them
    const f = item.sequence ? null : fileById.get(item.id);
    if (!f) return { status: 'ok', problem: null, renderingText: null, live: false };
    const damage = c.thumbDamage.get(f.id);
    // a damaged file shown by its readable chunks: a small badge over its thumbnail instead of the broken-file mark; a
    // file being written likewise, its chunks so far shown (the rest hatched, not damage) under "rendering… N of M chunks"
    const status = f.rendering ? 'rendering' : damage ? 'damaged' : f.status;
    const problem = f.rendering
      ? renderingTitle(f.name, f.rendering)
      : damage && f.status !== 'incomplete'
        ? damageTitle(f.name, damage)
        : f.status === 'incomplete'
          ? `${f.name} is still being written: ${f.error ?? 'shorter than its header says'}. Shown once complete.`
          : f.status === 'error'
            ? `${f.name}: ${f.error ?? 'cannot be read'}`
            : c.thumbFailures.has(f.id)
              ? `${f.name}: ${c.thumbFailures.get(f.id)}`
              : null;
    return { status, problem, renderingText: f.rendering ? renderingLabel(f.rendering) : null, live: !!f.live };
  };
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
        scrollTop.current = e.currentTarget.scrollTop;
        drawCells.current();
        setTopRow(scrollRow(scrollTop.current, PITCH_PX));
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
        {files.slice(layout.first, layout.last + 1).map((f, k) => {
          const p = cellPosition(layout, layout.first + k);
          return (
            <GridOption
              key={f.id}
              item={f}
              index={layout.first + k}
              setSize={files.length}
              xPx={p.xPx}
              yPx={p.yPx}
              selected={selected.has(f.id)}
              current={f.id === current}
              {...statusOf(f)}
              onPick={pick}
            />
          );
        })}
      </div>
    </div>
  );
}
