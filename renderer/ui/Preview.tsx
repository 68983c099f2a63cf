// The preview: the canvas the engine draws into, pan/zoom by mouse, trackpad and keys, pickers and the pixel
// inspector. Pointer moves update the store and a DOM node directly; no React render per move.
import { useEffect, useRef, useState } from 'react';
import { guessEnvKind, type EnvKind } from '../env/env-kind.js';
import { EnvironmentView } from './EnvironmentView.js';
import { canvasToImage, oneToOne, panBy, zoomAt } from '../gpu/view-geometry.js';
import { pixelReadout } from './pixel-readout.js';
import { Pickers } from './Pickers.js';
import { HeaderPanel } from './HeaderPanel.js';
import { PlayerBar } from './PlayerBar.js';
import { useApp, useController } from './context.js';

export function Preview() {
  const c = useController();
  const canvas = useRef<HTMLCanvasElement>(null);
  const readout = useRef<HTMLOutputElement>(null);
  const loading = useApp((s) => s.image.loading);
  const error = useApp((s) => s.image.error);
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
    const dpr = (): number => window.devicePixelRatio || 1;
    let attached = false;
    const resize = (): void => {
      const w = Math.max(1, Math.round(cv.clientWidth * dpr())), h = Math.max(1, Math.round(cv.clientHeight * dpr()));
      if (cv.width !== w || cv.height !== h) { cv.width = w; cv.height = h; }
      c.setPreviewSize(w, h);
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
    let drag: { x: number; y: number } | null = null;
    const local = (e: PointerEvent | WheelEvent | MouseEvent): [number, number] => {
      const r = cv.getBoundingClientRect();
      return [(e.clientX - r.left) * dpr(), (e.clientY - r.top) * dpr()];
    };
    const onMove = (e: PointerEvent): void => {
      const s = c.store.getState();
      if (drag) {
        c.actions.setPanZoom(panBy(s.view.panZoom, (e.clientX - drag.x) * dpr(), (e.clientY - drag.y) * dpr()));
        drag = { x: e.clientX, y: e.clientY };
      }
      const [px, py] = local(e);
      const [ix, iy] = canvasToImage(s.view.panZoom, px, py, cv.width, cv.height);
      const img = s.image.decoded;
      const part = c.currentPart();
      const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
      const text = img && layer && img.fileId === s.image.currentFileId ? pixelReadout(img, layer.channels, Math.floor(ix), Math.floor(iy)) : null;
      if (readout.current) readout.current.textContent = text ?? '';
    };
    const onDown = (e: PointerEvent): void => { drag = { x: e.clientX, y: e.clientY }; cv.setPointerCapture(e.pointerId); };
    const onUp = (): void => { drag = null; };
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
      ro.disconnect(); clearInterval(attach);
      cv.removeEventListener('pointermove', onMove); cv.removeEventListener('pointerdown', onDown); cv.removeEventListener('pointerup', onUp);
      cv.removeEventListener('wheel', onWheel); cv.removeEventListener('dblclick', onDouble); cv.removeEventListener('keydown', onKey);
    };
  }, [c]);

  return (
    <section className="preview" aria-label="Preview area">
      <div className="preview-bar">
        <Pickers />
        <span className="view-switch" role="group" aria-label="View mode">
          <button type="button" aria-pressed={!env.on} onClick={() => setEnv({ ...env, on: false })}>2D</button>
          <button type="button" aria-pressed={env.on} disabled={!hasImage} title={guess.kind ? guess.why : 'not marked as an environment map: pick its layout after switching'}
            className={guess.kind ? 'suggested' : undefined} onClick={() => setEnv({ ...env, on: true })}>Environment</button>
          {env.on && (
            <select aria-label="Map layout" value={envKind} onChange={(e) => setEnv({ ...env, kind: e.target.value as EnvKind })}>
              <option value="latlong">lat-long</option>
              <option value="cube">cube (6 faces stacked)</option>
            </select>
          )}
        </span>
        <button type="button" onClick={() => c.fit()}>Fit</button>
        <button type="button" onClick={() => c.actions.setPanZoom(oneToOne(c.store.getState().view.panZoom))}>1:1</button>
        <output ref={readout} className="readout" aria-label="Pixel value" />
        {loading && <span role="status">loading…</span>}
        {error && <span role="alert">{error}</span>}
      </div>
      <div className="preview-stage">
        <canvas ref={canvas} className="preview-canvas" role="img" aria-label="Preview" tabIndex={0} data-has-image={hasImage} style={env.on ? { visibility: 'hidden' } : undefined} />
        {env.on && hasImage && <EnvironmentView kind={envKind} />}
      </div>
      <PlayerBar />
      <HeaderPanel />
    </section>
  );
}
