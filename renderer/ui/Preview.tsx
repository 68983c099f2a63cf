// The preview: the canvas the engine draws into with the overlay above it, or the Environment view; pan/zoom by
// mouse, trackpad and keys; Shift-drag for the statistics rectangle; the wipe divider dragged; the sequence player
// below. Pointer moves update the store and DOM nodes directly (readout, zoom); no React render per move.
import { useEffect, useRef, useState } from 'react';
import { guessEnvKind, type EnvKind } from '../env/env-kind.js';
import { EnvironmentView } from './EnvironmentView.js';
import { canvasToImage, oneToOne, panBy, zoomAt } from '../model/view-geometry.js';
import { alignmentShift, pickAt } from '../gpu/compare-geometry.js';
import { layerChoice } from '../model/layer-choice.js';
import { pixelReadout } from './pixel-readout.js';
import { shortValue, shownValues } from './pixel-values.js';
import { Pickers } from './Pickers.js';
import { HeaderPanel } from './HeaderPanel.js';
import { PlayerBar } from './PlayerBar.js';
import { ColourBar } from './ColourBar.js';
import { HistogramPanel } from './HistogramPanel.js';
import { LayersLabels } from './LayersLabels.js';
import { FileProblemBox } from './FileProblemBox.js';
import { PreviewOverlay } from './preview-overlay.js';
import { useApp, useController } from './context.js';
import { Icon } from './icons.js';

/** Canvas px within which a press grabs the wipe divider. */
const GRAB_PX = 10;

export function Preview() {
  const c = useController();
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlayCanvas = useRef<HTMLCanvasElement>(null);
  const loading = useApp((s) => s.image.loading);
  const hasImage = useApp((s) => s.image.currentFileId !== null);
  const header = useApp((s) => s.image.header);
  const partIndex = useApp((s) => s.image.part);
  useApp((s) => s.library.files); // re-render when the summary (data window) arrives
  const [env, setEnv] = useState<{ on: boolean; kind: EnvKind | null }>({ on: false, kind: null });
  const part = c.currentPart();
  const dw = part?.dataWindow;
  const guess = guessEnvKind(header, partIndex, dw ? dw[2] - dw[0] + 1 : 0, dw ? dw[3] - dw[1] + 1 : 0);
  const envKind: EnvKind = env.kind ?? guess.kind ?? 'latlong';

  useEffect(() => {
    const cv = canvas.current!;
    const ov = overlayCanvas.current!;
    const overlay = new PreviewOverlay(ov, c);
    const dpr = (): number => window.devicePixelRatio || 1;
    let attached = false;
    const resize = (): void => {
      const w = Math.max(1, Math.round(cv.clientWidth * dpr())), h = Math.max(1, Math.round(cv.clientHeight * dpr()));
      if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
      if (ov.width !== w || ov.height !== h) { ov.width = w; ov.height = h; }
      c.setPreviewSize(w, h);
      overlay.invalidate();
    };
    const ro = new ResizeObserver(resize);
    ro.observe(cv);
    const attach = setInterval(() => {
      if (!c.engine || attached) return;
      attached = true;
      clearInterval(attach);
      resize();
      c.engine.attachPreview(cv);
    }, 30);
    const zoomOut = document.getElementById('zoom-readout');
    const showZoom = (): void => { if (zoomOut) zoomOut.textContent = `${Math.round(c.store.getState().view.panZoom.zoom * 100 / dpr())} %`; };
    const offZoom = c.store.subscribe((s, p) => { if (s.view.panZoom !== p.view.panZoom) showZoom(); });
    showZoom();
    type Drag = { kind: 'pan'; x: number; y: number } | { kind: 'region'; x0: number; y0: number } | { kind: 'wipe' };
    let drag: Drag | null = null;
    const local = (e: PointerEvent | WheelEvent | MouseEvent): [number, number] => {
      const r = cv.getBoundingClientRect();
      return [(e.clientX - r.left) * dpr(), (e.clientY - r.top) * dpr()];
    };
    const imageAt = (px: number, py: number): [number, number] => {
      const s = c.store.getState();
      const view = c.compare.compareView(s);
      if (view) { const p = pickAt(s.view.panZoom, view, px, py, cv.width, cv.height); return [p.x, p.y]; }
      return canvasToImage(s.view.panZoom, px, py, cv.width, cv.height);
    };
    const readoutEl = (): HTMLElement | null => document.getElementById('pixel-readout');
    const onMove = (e: PointerEvent): void => {
      const s = c.store.getState();
      const [px, py] = local(e);
      if (drag?.kind === 'pan') {
        c.actions.setPanZoom(panBy(s.view.panZoom, (e.clientX - drag.x) * dpr(), (e.clientY - drag.y) * dpr()));
        drag = { ...drag, x: e.clientX, y: e.clientY };
      } else if (drag?.kind === 'wipe') {
        c.actions.setWipe(s.compare.wipeAxis === 'x' ? px / cv.width : py / cv.height);
      } else if (drag?.kind === 'region') {
        const [ix, iy] = imageAt(px, py);
        const x0 = Math.floor(Math.min(drag.x0, ix)), y0 = Math.floor(Math.min(drag.y0, iy));
        overlay.dragging = { x0, y0, widthPx: Math.floor(Math.max(drag.x0, ix)) - x0 + 1, heightPx: Math.floor(Math.max(drag.y0, iy)) - y0 + 1 };
        overlay.invalidate();
      }
      const [ix, iy] = imageAt(px, py);
      const x = Math.floor(ix), y = Math.floor(iy);
      const img = s.image.decoded;
      const part = c.currentPart();
      const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
      let text = img && layer && img.fileId === s.image.currentFileId ? pixelReadout(img, layer.channels, x, y) : null;
      const ref = c.compare.referenceImage, refChoice = c.compare.referenceChoice;
      if (text !== null && s.compare.reference && ref && refChoice && part && img && layer) {
        const shift = alignmentShift({ dataWindow: part.dataWindow, displayWindow: part.displayWindow, levelCount: 1 }, { dataWindow: ref.dataWindow, displayWindow: ref.displayWindow, levelCount: 1 });
        const b = shownValues({ image: img, choice: layerChoice(layer, s.image.channel).choice }, { image: ref, choice: refChoice, shift }, 'off', 'b', 'rgba', x, y);
        text += `  │  B ${b ? b.map((v) => `${v.label}=${shortValue(v.value)}`).join(' ') : 'outside'}`;
      }
      const out = readoutEl();
      if (out) out.textContent = text ?? '';
    };
    const onDown = (e: PointerEvent): void => {
      const s = c.store.getState();
      const [px, py] = local(e);
      cv.setPointerCapture(e.pointerId);
      if (e.shiftKey) {
        const [ix, iy] = imageAt(px, py);
        drag = { kind: 'region', x0: ix, y0: iy };
        return;
      }
      const view = c.compare.compareView(s);
      if (view?.mode === 'wipe') {
        const along = view.wipeAxis === 'x' ? px : py, at = view.wipeFraction * (view.wipeAxis === 'x' ? cv.width : cv.height);
        if (Math.abs(along - at) <= GRAB_PX * dpr()) { drag = { kind: 'wipe' }; return; }
      }
      drag = { kind: 'pan', x: e.clientX, y: e.clientY };
    };
    const onUp = (): void => {
      if (drag?.kind === 'region') {
        const r = overlay.dragging;
        overlay.dragging = null;
        c.actions.setInspect({ region: r && r.widthPx * r.heightPx > 1 ? r : null });
        overlay.invalidate();
      }
      drag = null;
    };
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      const s = c.store.getState();
      const [px, py] = local(e);
      if (e.ctrlKey || Math.abs(e.deltaY) >= Math.abs(e.deltaX)) c.actions.setPanZoom(zoomAt(s.view.panZoom, Math.pow(2, -e.deltaY / (e.ctrlKey ? 100 : 300)), px, py, cv.width, cv.height));
      else c.actions.setPanZoom(panBy(s.view.panZoom, -e.deltaX * dpr(), 0));
    };
    const onDouble = (): void => c.actions.setPanZoom(oneToOne(c.store.getState().view.panZoom));
    const onKey = (e: KeyboardEvent): void => {
      const s = c.store.getState().view.panZoom;
      const step = 64;
      const moves: Record<string, () => void> = {
        '+': () => c.actions.setPanZoom(zoomAt(s, 2, cv.width / 2, cv.height / 2, cv.width, cv.height)),
        '=': () => c.actions.setPanZoom(zoomAt(s, 2, cv.width / 2, cv.height / 2, cv.width, cv.height)),
        '-': () => c.actions.setPanZoom(zoomAt(s, 0.5, cv.width / 2, cv.height / 2, cv.width, cv.height)),
        '1': () => c.actions.setPanZoom(oneToOne(s)),
        h: () => c.actions.setPanZoom(panBy(s, step, 0)), l: () => c.actions.setPanZoom(panBy(s, -step, 0)),
        k: () => c.actions.setPanZoom(panBy(s, 0, step)), j: () => c.actions.setPanZoom(panBy(s, 0, -step)),
      };
      // on a sequence J/K/L are the player's (shortcuts.ts), as in every player
      if (c.player.open && 'jkl'.includes(e.key)) return;
      const m = moves[e.key];
      if (m) { m(); e.preventDefault(); }
    };
    cv.addEventListener('pointermove', onMove);
    cv.addEventListener('pointerdown', onDown);
    cv.addEventListener('pointerup', onUp);
    cv.addEventListener('wheel', onWheel, { passive: false });
    cv.addEventListener('dblclick', onDouble);
    cv.addEventListener('keydown', onKey);
    return () => {
      ro.disconnect(); clearInterval(attach); offZoom(); overlay.dispose();
      cv.removeEventListener('pointermove', onMove); cv.removeEventListener('pointerdown', onDown); cv.removeEventListener('pointerup', onUp);
      cv.removeEventListener('wheel', onWheel); cv.removeEventListener('dblclick', onDouble); cv.removeEventListener('keydown', onKey);
    };
  }, [c]);

  return (
    <section className="preview" aria-label="Preview area">
      <div className="preview-bar">
        <Pickers />
        <span className="view-switch" role="group" aria-label="View mode">
          <button type="button" aria-pressed={!env.on} title="The image in 2D (H: 2D / Environment)" onClick={() => setEnv({ ...env, on: false })}>2D</button>
          <button type="button" aria-pressed={env.on} disabled={!hasImage} title={`${guess.kind ? guess.why : 'not marked as an environment map: pick its layout after switching'} (H)`}
            className={guess.kind ? 'suggested' : undefined} onClick={() => setEnv({ ...env, on: true })}>Environment</button>
          {env.on && (
            <select aria-label="Map layout" value={envKind} onChange={(e) => setEnv({ ...env, kind: e.target.value as EnvKind })}>
              <option value="latlong">lat-long</option>
              <option value="cube">cube (6 faces stacked)</option>
            </select>
          )}
        </span>
        <button type="button" onClick={() => c.fit()} title="Fit the image (F)"><Icon name="fit" /> Fit</button>
        <button type="button" onClick={() => c.actions.setPanZoom(oneToOne(c.store.getState().view.panZoom))} title="One image pixel per screen pixel (1, double-click)"><Icon name="actual" /> 1:1</button>
        {loading && <span className="loading" role="status">loading…</span>}
      </div>
      <div className="preview-stage">
        <canvas ref={canvas} className="preview-canvas" role="img" aria-label="Preview" tabIndex={0} data-has-image={hasImage} style={env.on ? { visibility: 'hidden' } : undefined} />
        <canvas ref={overlayCanvas} className="preview-overlay" aria-hidden="true" style={env.on ? { visibility: 'hidden' } : undefined} />
        {!env.on && <LayersLabels />}
        <FileProblemBox />
        {!env.on && <HistogramPanel />}
        {!env.on && <ColourBar />}
        {env.on && hasImage && <EnvironmentView kind={envKind} />}
      </div>
      <PlayerBar />
      <HeaderPanel />
    </section>
  );
}
