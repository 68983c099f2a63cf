// The Environment view over the preview: loads three.js on first use, follows the layer on screen (from the GPU cache),
// the exposure and the tone-map; drag to look (or orbit the balls), wheel for the field of view.
import { useEffect, useRef, useState } from 'react';
import type { GpuEngine } from '../gpu/engine.js';
import type { EnvKind } from '../env/env-kind.js';
import type { EnvMode, EnvView } from '../env/env-view.js';
import { useApp, useController } from './context.js';

declare global {
  interface Window {
    exrviewEnv?: EnvView | null;
  }
}

export function EnvironmentView({ kind }: { kind: EnvKind }) {
  const c = useController();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [mode, setMode] = useState<EnvMode>('balls');
  const [shadow, setShadow] = useState(true);
  const [state, setState] = useState<{ view: EnvView | null; error: string | null }>({ view: null, error: null });
  const display = useApp((s) => s.view.display);

  useEffect(() => {
    const engine = c.engine as GpuEngine | null;
    if (!engine || typeof (engine as Partial<GpuEngine>).currentLayer !== 'function') {
      setState({ view: null, error: 'the Environment view needs WebGPU, and the viewer runs on the CPU here' });
      return;
    }
    let view: EnvView | null = null;
    let cancelled = false;
    const cv = canvas.current!;
    const dpr = (): number => window.devicePixelRatio || 1;
    const resize = (): void =>
      view?.setSize(Math.max(1, Math.round(cv.clientWidth * dpr())), Math.max(1, Math.round(cv.clientHeight * dpr())));
    const follow = (): void => {
      const layer = engine.currentLayer();
      if (view && layer) view.setSource(layer.key, layer.texture, kind, layer.widthPx, layer.heightPx);
    };
    void import('../env/env-view.js')
      .then(({ EnvView }) => EnvView.create(engine.device, cv))
      .then(
        (v) => {
          if (cancelled) {
            v.dispose();
            return;
          }
          view = v;
          window.exrviewEnv = v;
          resize();
          v.setDisplay(c.store.getState().view.display);
          follow();
          setState({ view: v, error: null });
        },
        (e: unknown) =>
          setState({
            view: null,
            error: `the Environment view could not start: ${e instanceof Error ? e.message : String(e)}. The 2D view still works`,
          }),
      );
    const ro = new ResizeObserver(resize);
    ro.observe(cv);
    engine.onShown = follow;
    let drag: { x: number; y: number } | null = null;
    const onDown = (e: PointerEvent): void => {
      drag = { x: e.clientX, y: e.clientY };
      cv.setPointerCapture(e.pointerId);
    };
    const onMove = (e: PointerEvent): void => {
      if (!drag || !view) return;
      // a full canvas width of drag turns the view by its horizontal field of view
      const degPerPx = view.camera3.fovDeg / Math.max(1, cv.clientHeight);
      view.look(-(e.clientX - drag.x) * degPerPx, (e.clientY - drag.y) * degPerPx);
      drag = { x: e.clientX, y: e.clientY };
    };
    const onUp = (): void => {
      drag = null;
    };
    const onWheel = (e: WheelEvent): void => {
      e.preventDefault();
      view?.zoom(Math.pow(2, e.deltaY / 500));
    };
    cv.addEventListener('pointerdown', onDown);
    cv.addEventListener('pointermove', onMove);
    cv.addEventListener('pointerup', onUp);
    cv.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      cancelled = true;
      ro.disconnect();
      if (engine.onShown === follow) engine.onShown = null;
      cv.removeEventListener('pointerdown', onDown);
      cv.removeEventListener('pointermove', onMove);
      cv.removeEventListener('pointerup', onUp);
      cv.removeEventListener('wheel', onWheel);
      view?.dispose();
      window.exrviewEnv = null;
    };
  }, [c, kind]);

  useEffect(() => {
    state.view?.setDisplay(display);
  }, [state.view, display]);
  useEffect(() => {
    state.view?.setMode(mode, shadow);
  }, [state.view, mode, shadow]);

  return (
    <div className="environment">
      <div className="environment-bar">
        <select aria-label="Environment mode" value={mode} onChange={(e) => setMode(e.target.value as EnvMode)}>
          <option value="balls">look-dev balls</option>
          <option value="panorama">panorama</option>
        </select>
        {mode === 'balls' && (
          <label>
            <input type="checkbox" checked={shadow} onChange={(e) => setShadow(e.target.checked)} /> shadow plane
          </label>
        )}
        {!state.view && !state.error && <span role="status">loading three.js…</span>}
        {state.error && <span role="alert">{state.error}</span>}
      </div>
      <canvas ref={canvas} className="environment-canvas" role="img" aria-label="Environment" tabIndex={0} />
    </div>
  );
}
