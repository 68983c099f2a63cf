// The deep panel over the preview of a deep image: click a pixel to list its samples (Z, ZBack, every channel, in file
// order with depth order marked), F3 for the depth range (near and far handles over the part's Z extent; only the
// samples between them are composited, on the GPU), the CPU reference's composite of the listed pixel beside it. The
// file (and part and layer, where there is a choice) the samples are of is named above them.
import { useEffect, useSyncExternalStore, type RefObject } from 'react';
import { deepSamplesOf, isDeepPart, type DeepState } from '../app/deep-samples.js';
import { canvasToImage } from '../model/view-geometry.js';
import { rangeFraction } from '../../shaders/deep/range-composite.js';
import { formatValue } from './pixel-readout.js';
import { deepSourceLabel } from './DeepPanelSource.js';
import { useApp, useController } from './context.js';

/** A press that moves less than this (CSS px) is a click, not a pan. */
const CLICK_SLOP_PX = 3;
/** Steps of a handle over the Z extent. */
const HANDLE_STEPS = 1000;

function useDeep(): DeepState {
  const d = deepSamplesOf(useController());
  return useSyncExternalStore(
    (l) => d.subscribe(l),
    () => d.current,
  );
}

export function DeepPanel({ canvas }: { canvas: RefObject<HTMLCanvasElement | null> }) {
  const c = useController();
  const deep = deepSamplesOf(c);
  const state = useDeep();
  useApp((s) => s.library.files); // the part's summary arrives with the file list
  const partIndex = useApp((s) => s.image.part);
  const fileId = useApp((s) => s.image.currentFileId);
  const file = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId) ?? null);
  const layerName = useApp((s) => s.image.layer);
  const part = c.currentPart();
  const isDeep = fileId !== null && isDeepPart(part);

  useEffect(() => {
    const cv = canvas.current;
    if (!cv) return;
    let down: { x: number; y: number } | null = null;
    const onDown = (e: PointerEvent): void => {
      // Shift-drag is the statistics rectangle; a Cryptomatte layer's click picks names
      down = e.button === 0 && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey ? { x: e.clientX, y: e.clientY } : null;
    };
    const onUp = (e: PointerEvent): void => {
      const from = down;
      down = null;
      if (!from || Math.hypot(e.clientX - from.x, e.clientY - from.y) > CLICK_SLOP_PX) return;
      if (c.store.getState().cryptomatte.layer !== null) return;
      const r = cv.getBoundingClientRect();
      const dpr = window.devicePixelRatio || 1;
      const [x, y] = canvasToImage(
        c.store.getState().view.panZoom,
        (e.clientX - r.left) * dpr,
        (e.clientY - r.top) * dpr,
        cv.width,
        cv.height,
      );
      deep.pick(Math.floor(x), Math.floor(y));
    };
    const onKey = (e: KeyboardEvent): void => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      if (e.key !== 'F3' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (!isDeepPart(c.currentPart())) return;
      e.preventDefault();
      void deep.toggleRange();
    };
    cv.addEventListener('pointerdown', onDown);
    cv.addEventListener('pointerup', onUp);
    window.addEventListener('keydown', onKey);
    return () => {
      cv.removeEventListener('pointerdown', onDown);
      cv.removeEventListener('pointerup', onUp);
      window.removeEventListener('keydown', onKey);
    };
  }, [c, deep, canvas]);

  if (!isDeep) return null;
  const { list, range } = state;
  const composite = list && range.on ? deep.compositeAt(list.xPx, list.yPx) : null;
  const zAt = list ? list.channels.indexOf('Z') : -1;
  const zBackAt = list ? list.channels.indexOf('ZBack') : -1;
  // Z and ZBack first, then the other channels in the file's order
  const order = list
    ? [zAt, zBackAt, ...list.channels.map((_, i) => i).filter((i) => i !== zAt && i !== zBackAt)].filter((i) => i >= 0)
    : [];
  const inRange = (values: number[]): boolean => {
    if (!range.on || zAt < 0) return false;
    const z = values[zAt]!;
    return rangeFraction(z, zBackAt >= 0 ? values[zBackAt]! : z, range.range) > 0;
  };
  const [lo, hi] = range.extent ?? [0, 0];
  const step = hi > lo ? (hi - lo) / HANDLE_STEPS : 1;

  return (
    <aside className="deep-panel" aria-label="Deep samples" data-part={partIndex}>
      <header>
        <strong>Deep samples</strong>
        <button
          type="button"
          aria-pressed={range.on}
          title="Depth range (F3): composite only the samples between two depths, on the GPU"
          onClick={() => void deep.toggleRange()}
        >
          Depth range
        </button>
        {list && (
          <button type="button" aria-label="Close the sample list" title="Close the sample list" onClick={() => deep.closeList()}>
            ×
          </button>
        )}
      </header>
      {file && (
        <p className="deep-source" title={file.relativePath}>
          {deepSourceLabel(file.name, file.summary?.parts ?? [], partIndex, layerName)}
        </p>
      )}
      {range.on && (
        <div className="deep-range" role="group" aria-label="Depth range" data-near={range.range.near} data-far={range.range.far}>
          {range.loading && <span role="status">reading the samples…</span>}
          {range.extent && (
            <>
              <label title="Near handle: samples in front of it are left out (a volume sample it cuts keeps its share behind it)">
                near
                <input
                  type="range"
                  aria-label="Near depth"
                  min={lo}
                  max={hi}
                  step={step}
                  value={range.range.near}
                  onChange={(e) => deep.setRange(Number(e.target.value), Math.max(Number(e.target.value), range.range.far))}
                />
                <output aria-label="Near depth value">{formatValue(range.range.near)}</output>
              </label>
              <label title="Far handle: samples behind it are left out (a volume sample it cuts keeps its share in front of it)">
                far
                <input
                  type="range"
                  aria-label="Far depth"
                  min={lo}
                  max={hi}
                  step={step}
                  value={range.range.far}
                  onChange={(e) => deep.setRange(Math.min(range.range.near, Number(e.target.value)), Number(e.target.value))}
                />
                <output aria-label="Far depth value">{formatValue(range.range.far)}</output>
              </label>
            </>
          )}
          {!range.loading && !range.extent && !range.error && (
            <p className="deep-note">this part has no Z channel: every sample is shown</p>
          )}
        </div>
      )}
      {range.error && (
        <p className="deep-error" role="alert">
          {range.error}
        </p>
      )}
      {!list && !state.listLoading && !state.listError && <p className="deep-note">click a pixel to list its samples</p>}
      {state.listLoading && <p role="status">reading the pixel&rsquo;s chunk…</p>}
      {state.listError && (
        <p className="deep-error" role="alert">
          {state.listError}
        </p>
      )}
      {list && (
        <>
          <p className="deep-pixel">
            pixel {list.xPx}, {list.yPx}: {list.rows.length} sample{list.rows.length === 1 ? '' : 's'}
          </p>
          {list.rows.length > 0 && (
            <div className="deep-table">
              <table aria-label="Samples of the pixel">
                <thead>
                  <tr>
                    <th title="Index in the file's order">#</th>
                    <th title="Place in depth order (1: nearest)">depth</th>
                    {order.map((i) => (
                      <th key={i}>{list.channels[i]}</th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {list.rows.map((row) => (
                    <tr key={row.fileIndex} className={inRange(row.values) ? 'in-range' : undefined}>
                      <td>{row.fileIndex}</td>
                      <td>{row.depthIndex + 1}</td>
                      {order.map((i) => (
                        <td key={i}>{list.uintChannels[i] ? String(row.values[i]) : formatValue(row.values[i]!)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {composite && (
            <p
              className="deep-composite"
              aria-label="Composite in the range"
              title="The CPU reference's composite of this pixel's samples in the range"
            >
              in range:{' '}
              {composite.names
                .map((n, i) => {
                  const v = composite.values[i]!;
                  return `${n}=${list.uintChannels[list.channels.indexOf(n)] ? String(v) : formatValue(v)}`;
                })
                .join(' ')}
            </p>
          )}
        </>
      )}
    </aside>
  );
}
