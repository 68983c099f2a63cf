// The status line's readouts: the pixel under the pointer and the zoom. Each component owns its node and writes it
// through a ref, on every pointer move or zoom change, never through React state.
import { createContext, useContext, useEffect, useRef } from 'react';
import type { AppState } from '../state/store.js';
import { useController } from './context.js';
import { fmtZoom } from './format.js';

/** A text written from where it is computed (the preview's pointer moves) into the node that shows it. */
export class TextSink {
  private node: HTMLElement | null = null;
  private text = '';

  write(text: string): void {
    if (text === this.text) return;
    this.text = text;
    if (this.node) this.node.textContent = text;
  }

  /** The node that shows the text from now on; returns the detach. */
  attach(node: HTMLElement): () => void {
    this.node = node;
    node.textContent = this.text;
    return () => {
      if (this.node === node) this.node = null;
    };
  }
}

/** One page, one pixel readout: the preview writes it, the status line shows it. */
export const PixelReadoutContext = createContext(new TextSink());

export function usePixelReadout(): TextSink {
  return useContext(PixelReadoutContext);
}

export function PixelReadout() {
  const sink = usePixelReadout();
  const node = useRef<HTMLOutputElement>(null);
  useEffect(() => sink.attach(node.current!), [sink]);
  return <output ref={node} className="readout" aria-label="Pixel value" />;
}

/** Screen px per image px, in per cent of CSS px; "—" once the preview is cleared (no image, or one that failed). */
export function ZoomReadout() {
  const c = useController();
  const node = useRef<HTMLOutputElement>(null);
  useEffect(() => {
    const el = node.current!;
    const onScreen = (s: AppState): boolean => s.image.currentFileId !== null && s.image.error === null;
    const show = (s: AppState): void => {
      el.textContent = fmtZoom(s.view.panZoom.zoom, window.devicePixelRatio, onScreen(s));
    };
    show(c.store.getState());
    return c.store.subscribe((s, p) => {
      if (s.view.panZoom !== p.view.panZoom || onScreen(s) !== onScreen(p)) show(s);
    });
  }, [c]);
  return <output ref={node} className="zoom" aria-label="Zoom" title="Zoom (screen px per image px)" />;
}
