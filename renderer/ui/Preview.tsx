// The preview: the canvas the engine draws into with the overlay above it, or the Environment view; the sequence
// player below. Its input (pan, zoom, the statistics rectangle, the wipe, the pixel readout) is preview-input.ts.
import { useEffect, useRef, useState } from 'react';
import { guessEnvKind, type EnvKind } from '../env/env-kind.js';
import { EnvironmentView } from './EnvironmentView.js';
import { oneToOne } from '../model/view-geometry.js';
import { Pickers } from './Pickers.js';
import { HeaderPanel } from './HeaderPanel.js';
import { PlayerBar } from './PlayerBar.js';
import { ColourBar } from './ColourBar.js';
import { HistogramPanel } from './HistogramPanel.js';
import { LayersLabels } from './LayersLabels.js';
import { FileProblemBox } from './FileProblemBox.js';
import { PreviewOverlay } from './preview-overlay.js';
import { useApp, useController, useEngine } from './context.js';
import { installPreviewInput } from './preview-input.js';
import { usePixelReadout } from './readouts.js';
import { Icon } from './icons.js';
import { CryptomatteHover } from './CryptomatteHover.js';
import { CryptomattePanel } from './CryptomattePanel.js';
import { DeepPanel } from './DeepPanel.js';
import { reducedNote } from './reduced-note.js';
import { renderingLabel, renderingTitle } from './damage-badge.js';

export function Preview() {
  const c = useController();
  const engine = useEngine();
  const readout = usePixelReadout();
  const canvas = useRef<HTMLCanvasElement>(null);
  const overlayCanvas = useRef<HTMLCanvasElement>(null);
  const loading = useApp((s) => s.image.loading);
  const hasImage = useApp((s) => s.image.currentFileId !== null);
  const header = useApp((s) => s.image.header);
  const partIndex = useApp((s) => s.image.part);
  useApp((s) => s.library.files); // re-render when the summary (data window) arrives
  // a file still being written: how many of its chunks are there (the rest hatched); the label goes when it is complete
  const rendering = useApp((s) => s.library.files.find((f) => f.id === s.image.currentFileId)?.rendering);
  const name = c.currentFile()?.name ?? '';
  const [env, setEnv] = useState<{ on: boolean; kind: EnvKind | null }>({ on: false, kind: null });
  const part = c.currentPart();
  const dw = part?.dataWindow;
  const guess = guessEnvKind(header, partIndex, dw ? dw[2] - dw[0] + 1 : 0, dw ? dw[3] - dw[1] + 1 : 0);
  const envKind: EnvKind = env.kind ?? guess.kind ?? 'latlong';

  useEffect(() => {
    const cv = canvas.current!;
    const ov = overlayCanvas.current!;
    const overlay = new PreviewOverlay(ov, c);
    const resize = (): void => {
      const dpr = window.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(cv.clientWidth * dpr)),
        h = Math.max(1, Math.round(cv.clientHeight * dpr));
      if (cv.width !== w || cv.height !== h) {
        cv.width = w;
        cv.height = h;
      }
      if (ov.width !== w || ov.height !== h) {
        ov.width = w;
        ov.height = h;
      }
      c.setPreviewSize(w, h);
      overlay.invalidate();
    };
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(cv);
    const uninstall = installPreviewInput(cv, overlay, c, readout);
    return () => {
      ro.disconnect();
      uninstall();
      overlay.dispose();
    };
  }, [c, readout]);

  // the engine draws into the canvas from when the controller has started it
  useEffect(() => {
    engine?.attachPreview(canvas.current!);
  }, [engine]);

  return (
    <section className="preview" aria-label="Preview area">
      <div className="preview-bar">
        <Pickers />
        <span className="view-switch" role="group" aria-label="View mode">
          <button
            type="button"
            aria-pressed={!env.on}
            title="The image in 2D (H: 2D / Environment)"
            onClick={() => setEnv({ ...env, on: false })}
          >
            2D
          </button>
          <button
            type="button"
            aria-pressed={env.on}
            disabled={!hasImage}
            title={`${guess.kind ? guess.why : 'not marked as an environment map: pick its layout after switching'} (H)`}
            className={guess.kind ? 'suggested' : undefined}
            onClick={() => setEnv({ ...env, on: true })}
          >
            Environment
          </button>
          {env.on && (
            <select aria-label="Map layout" value={envKind} onChange={(e) => setEnv({ ...env, kind: e.target.value as EnvKind })}>
              <option value="latlong">lat-long</option>
              <option value="cube">cube (6 faces stacked)</option>
            </select>
          )}
        </span>
        <button type="button" onClick={() => c.fit()} title="Fit the image (F)">
          <Icon name="fit" /> Fit
        </button>
        <button
          type="button"
          onClick={() => c.actions.setPanZoom(oneToOne(c.store.getState().view.panZoom))}
          title="One image pixel per screen pixel (1, double-click)"
        >
          <Icon name="actual" /> 1:1
        </button>
        {loading && (
          <span className="loading" role="status">
            loading…
          </span>
        )}
      </div>
      <div className="preview-stage">
        <canvas
          ref={canvas}
          className="preview-canvas"
          role="img"
          aria-label="Preview"
          tabIndex={0}
          data-has-image={hasImage}
          style={env.on ? { visibility: 'hidden' } : undefined}
        />
        <canvas ref={overlayCanvas} className="preview-overlay" aria-hidden="true" style={env.on ? { visibility: 'hidden' } : undefined} />
        {rendering && (
          <span className="rendering-label" role="status" aria-label="Rendering progress" title={renderingTitle(name, rendering)}>
            <Icon name="hourglass" sizePx={12} /> {renderingLabel(rendering)}
          </span>
        )}
        {!env.on && <LayersLabels />}
        <FileProblemBox />
        {!env.on && <ReducedLevelNote />}
        {!env.on && <HistogramPanel />}
        {!env.on && <ColourBar />}
        {!env.on && <CryptomattePanel />}
        <CryptomatteHover canvas={canvas} />
        {!env.on && <DeepPanel canvas={canvas} />}
        {env.on && hasImage && <EnvironmentView kind={envKind} />}
      </div>
      <PlayerBar />
      <HeaderPanel />
    </section>
  );
}

/** Over an image too large for the GPU: which reduced level is shown, and why. */
function ReducedLevelNote() {
  const shown = useApp((s) => (s.image.decoded?.fileId === s.image.currentFileId ? s.image.decoded : null));
  if (!shown?.reduced) return null;
  const n = reducedNote(shown.reduced, shown.widthPx, shown.heightPx);
  return (
    <p className="reduced-note" role="note" aria-label="Reduced level">
      <Icon name="warning" sizePx={14} /> {n.title}: {n.why}. <span className="caveat">{n.caveat}.</span>
    </p>
  );
}
