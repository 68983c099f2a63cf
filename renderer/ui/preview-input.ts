// The preview canvas's input: pan by drag, wheel and keys; zoom by wheel, pinch, keys and double-click; Shift-drag for
// the statistics rectangle; the wipe divider dragged; the pixel under the pointer written to the readout. Pointer
// moves update the store and the readout's node directly: no React render per move.
import type { Controller } from '../app/controller.js';
import { alignmentShift, pickAt } from '../gpu/compare-geometry.js';
import { layerChoice, partChannelNames } from '../model/layer-choice.js';
import { canvasToImage, oneToOne, panBy, zoomAt } from '../model/view-geometry.js';
import { formatValue, pixelReadout } from './pixel-readout.js';
import { shortValue, shownValues } from './pixel-values.js';
import type { PreviewOverlay } from './preview-overlay.js';
import type { TextSink } from './readouts.js';

/** Canvas px within which a press grabs the wipe divider. */
const GRAB_PX = 10;
const KEY_PAN_PX = 64;

type Drag = { kind: 'pan'; x: number; y: number } | { kind: 'region'; x0: number; y0: number } | { kind: 'wipe' };

const dpr = (): number => window.devicePixelRatio || 1;

/** The readout's text for image pixel (x, y): A's values, and B's where a reference is set. */
function readoutAt(c: Controller, x0: number, y0: number): string {
  const s = c.store.getState();
  // a reduced level of an image too large for the GPU: its pixel over level 0's (the preview's note says so), or level
  // 0's own from the crop fetched for the view zoomed in past it
  const img = c.detailAt(Math.floor(x0), Math.floor(y0)) ?? s.image.decoded;
  const x = Math.floor(x0 / (img?.reduced?.factor ?? 1)),
    y = Math.floor(y0 / (img?.reduced?.factor ?? 1));
  const part = c.currentPart();
  const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
  if (!img || !layer || !part || img.fileId !== s.image.currentFileId) return '';
  const aChoice = layerChoice(layer, s.image.channel, partChannelNames(part)).choice;
  const read = pixelReadout(img, layer.channels, x, y);
  // an expression's values follow the channels it is computed from
  const fx = aChoice.expression && read !== null ? shownValues({ image: img, choice: aChoice }, null, 'off', 'a', 'rgb', x, y) : null;
  const text = fx ? `${read}  ƒx ${fx.map((v) => `${v.label}=${formatValue(v.value)}`).join(' ')}` : read;
  const ref = c.compare.referenceImage,
    refChoice = c.compare.referenceChoice;
  if (text === null) return '';
  if (!s.compare.reference || !ref || !refChoice) return text;
  const shift = alignmentShift(
    { dataWindow: part.dataWindow, displayWindow: part.displayWindow, levelCount: 1 },
    { dataWindow: ref.dataWindow, displayWindow: ref.displayWindow, levelCount: 1 },
  );
  const b = shownValues({ image: img, choice: aChoice }, { image: ref, choice: refChoice, shift }, 'off', 'b', 'rgba', x, y);
  return `${text}  │  B ${b ? b.map((v) => `${v.label}=${shortValue(v.value)}`).join(' ') : 'outside'}`;
}

/** Listens on the preview canvas; returns the uninstall. */
export function installPreviewInput(cv: HTMLCanvasElement, overlay: PreviewOverlay, c: Controller, readout: TextSink): () => void {
  let drag: Drag | null = null;
  const setPanZoom = c.actions.setPanZoom;
  const local = (e: PointerEvent | WheelEvent | MouseEvent): [number, number] => {
    const r = cv.getBoundingClientRect();
    return [(e.clientX - r.left) * dpr(), (e.clientY - r.top) * dpr()];
  };
  const imageAt = (px: number, py: number): [number, number] => {
    const s = c.store.getState();
    const view = c.compare.compareView(s);
    if (view) {
      const p = pickAt(s.view.panZoom, view, px, py, cv.width, cv.height);
      return [p.x, p.y];
    }
    return canvasToImage(s.view.panZoom, px, py, cv.width, cv.height);
  };
  const onMove = (e: PointerEvent): void => {
    const s = c.store.getState();
    const [px, py] = local(e);
    if (drag?.kind === 'pan') {
      setPanZoom(panBy(s.view.panZoom, (e.clientX - drag.x) * dpr(), (e.clientY - drag.y) * dpr()));
      drag = { ...drag, x: e.clientX, y: e.clientY };
    } else if (drag?.kind === 'wipe') {
      c.actions.setWipe(s.compare.wipeAxis === 'x' ? px / cv.width : py / cv.height);
    } else if (drag?.kind === 'region') {
      const [ix, iy] = imageAt(px, py);
      const x0 = Math.floor(Math.min(drag.x0, ix)),
        y0 = Math.floor(Math.min(drag.y0, iy));
      overlay.dragging = {
        x0,
        y0,
        widthPx: Math.floor(Math.max(drag.x0, ix)) - x0 + 1,
        heightPx: Math.floor(Math.max(drag.y0, iy)) - y0 + 1,
      };
      overlay.invalidate();
    }
    // after a pan: the pixel now under the pointer
    const [ix, iy] = imageAt(px, py);
    readout.write(readoutAt(c, Math.floor(ix), Math.floor(iy)));
  };
  const onDown = (e: PointerEvent): void => {
    const [px, py] = local(e);
    cv.setPointerCapture(e.pointerId);
    if (e.shiftKey) {
      const [ix, iy] = imageAt(px, py);
      drag = { kind: 'region', x0: ix, y0: iy };
      return;
    }
    const view = c.compare.compareView(c.store.getState());
    if (view?.mode === 'wipe') {
      const along = view.wipeAxis === 'x' ? px : py,
        at = view.wipeFraction * (view.wipeAxis === 'x' ? cv.width : cv.height);
      if (Math.abs(along - at) <= GRAB_PX * dpr()) {
        drag = { kind: 'wipe' };
        return;
      }
    }
    drag = { kind: 'pan', x: e.clientX, y: e.clientY };
  };
  const onUp = (): void => {
    if (drag?.kind === 'region') {
      const r = overlay.dragging;
      overlay.dragging = null;
      // a Shift-click draws no rectangle (it adds a Cryptomatte name): the one there stays; Esc clears it
      if (r && r.widthPx * r.heightPx > 1) c.actions.setInspect({ region: r });
      overlay.invalidate();
    }
    drag = null;
  };
  const onWheel = (e: WheelEvent): void => {
    e.preventDefault();
    const pz = c.store.getState().view.panZoom;
    const [px, py] = local(e);
    if (e.ctrlKey || Math.abs(e.deltaY) >= Math.abs(e.deltaX))
      setPanZoom(zoomAt(pz, Math.pow(2, -e.deltaY / (e.ctrlKey ? 100 : 300)), px, py, cv.width, cv.height));
    else setPanZoom(panBy(pz, -e.deltaX * dpr(), 0));
  };
  const onDouble = (): void => setPanZoom(oneToOne(c.store.getState().view.panZoom));
  const onKey = (e: KeyboardEvent): void => {
    // on a sequence J/K/L are the player's (shortcuts.ts), as in every player
    if (c.player.open && 'jkl'.includes(e.key)) return;
    const pz = c.store.getState().view.panZoom;
    const zoom = (f: number) => () => setPanZoom(zoomAt(pz, f, cv.width / 2, cv.height / 2, cv.width, cv.height));
    const pan = (x: number, y: number) => () => setPanZoom(panBy(pz, x, y));
    const moves: Record<string, () => void> = {
      '+': zoom(2),
      '=': zoom(2),
      '-': zoom(0.5),
      '1': () => setPanZoom(oneToOne(pz)),
      h: pan(KEY_PAN_PX, 0),
      l: pan(-KEY_PAN_PX, 0),
      k: pan(0, KEY_PAN_PX),
      j: pan(0, -KEY_PAN_PX),
    };
    const m = moves[e.key];
    if (m) {
      m();
      e.preventDefault();
    }
  };
  const listeners: [string, (e: never) => void, AddEventListenerOptions?][] = [
    ['pointermove', onMove],
    ['pointerdown', onDown],
    ['pointerup', onUp],
    ['wheel', onWheel, { passive: false }],
    ['dblclick', onDouble],
    ['keydown', onKey],
  ];
  for (const [type, l, options] of listeners) cv.addEventListener(type, l as EventListener, options);
  return () => {
    for (const [type, l] of listeners) cv.removeEventListener(type, l as EventListener);
  };
}
