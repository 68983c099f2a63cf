// While a Cryptomatte layer is shown: the name under the pointer in a tooltip beside it (written through a ref on every
// move, never React state), click to pick it alone, Shift-click to add or remove it; K cycles the matte mode, Delete
// clears the picks.
import { useEffect, useRef, type RefObject } from 'react';
import type { Controller } from '../app/controller.js';
import { canvasToImage } from '../model/view-geometry.js';
import { MATTE_MODES } from '../state/cryptomatte.js';
import { useController } from './context.js';

/** A press that moves less than this (CSS px) is a click, not a pan. */
const CLICK_SLOP_PX = 3;

function imagePixel(c: Controller, cv: HTMLCanvasElement, e: MouseEvent): [number, number] {
  const r = cv.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const [x, y] = canvasToImage(c.store.getState().view.panZoom, (e.clientX - r.left) * dpr, (e.clientY - r.top) * dpr, cv.width, cv.height);
  return [Math.floor(x), Math.floor(y)];
}

/** The text of the tooltip for what is under (x, y). */
export function hoverText(hit: { name: string; coverage: number } | null, layer: string): string {
  if (!hit) return '';
  const share = hit.coverage >= 0.9995 ? '' : ` (${Math.round(hit.coverage * 100)}%)`;
  return `${layer}: ${hit.name}${share}`;
}

function installHover(c: Controller, cv: HTMLCanvasElement, tip: HTMLElement): () => void {
  let down: { x: number; y: number } | null = null;
  let text = '';
  const write = (next: string, e?: MouseEvent): void => {
    if (next !== text) {
      text = next;
      tip.textContent = next;
      tip.hidden = next === '';
    }
    if (e && next) {
      const r = cv.getBoundingClientRect();
      tip.style.transform = `translate(${e.clientX - r.left + 14}px, ${e.clientY - r.top + 14}px)`;
    }
  };
  const active = (): string | null => c.store.getState().cryptomatte.layer;
  const onMove = (e: PointerEvent): void => {
    const layer = active();
    if (layer === null) return write('');
    const [x, y] = imagePixel(c, cv, e);
    write(hoverText(c.cryptomatte.nameAt(x, y), layer), e);
  };
  const onDown = (e: PointerEvent): void => {
    down = e.button === 0 ? { x: e.clientX, y: e.clientY } : null;
  };
  const onUp = (e: PointerEvent): void => {
    const from = down;
    down = null;
    if (!from || active() === null || Math.hypot(e.clientX - from.x, e.clientY - from.y) > CLICK_SLOP_PX) return;
    const [x, y] = imagePixel(c, cv, e);
    c.cryptomatte.pickAt(x, y, e.shiftKey);
  };
  const onLeave = (): void => write('');
  const onKey = (e: KeyboardEvent): void => {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || active() === null || c.player.open) return;
    const s = c.store.getState().cryptomatte;
    if (e.key === 'K') {
      c.actions.setCryptomatte({ mode: MATTE_MODES[(MATTE_MODES.indexOf(s.mode) + 1) % MATTE_MODES.length]! });
    } else if (e.key === 'Delete' || e.key === 'Backspace') {
      c.actions.setCryptomatte({ picked: [] });
    } else return;
    e.preventDefault();
  };
  const listeners: [string, (e: never) => void][] = [
    ['pointermove', onMove],
    ['pointerdown', onDown],
    ['pointerup', onUp],
    ['pointerleave', onLeave],
  ];
  for (const [type, l] of listeners) cv.addEventListener(type, l as EventListener);
  window.addEventListener('keydown', onKey);
  return () => {
    for (const [type, l] of listeners) cv.removeEventListener(type, l as EventListener);
    window.removeEventListener('keydown', onKey);
  };
}

export function CryptomatteHover({ canvas }: { canvas: RefObject<HTMLCanvasElement | null> }) {
  const c = useController();
  const tip = useRef<HTMLDivElement>(null);
  useEffect(() => installHover(c, canvas.current!, tip.current!), [c, canvas]);
  return <div ref={tip} className="cryptomatte-hover" role="tooltip" aria-label="Cryptomatte name under the pointer" hidden />;
}
