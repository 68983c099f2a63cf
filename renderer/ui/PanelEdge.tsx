// The edge between a side panel and the preview: drag it to resize the panel (arrow keys when focused), its button
// or a double-click folds the panel away; a folded panel leaves a narrow strip that opens it again.
import { useRef, type KeyboardEvent, type PointerEvent } from 'react';

export interface PanelEdgeProps {
  /** The panel's name as the buttons say it ("grid", "inspector"). */
  name: string;
  /** Which side of the preview the panel is on: dragging towards the preview widens it. */
  side: 'left' | 'right';
  widthPx: number;
  range: readonly [number, number];
  /** The width a drag by `deltaPx` from `startPx` gives (the caller keeps the preview's share). */
  resize: (startPx: number, deltaPx: number) => number;
  onWidth: (widthPx: number) => void;
  onFold: () => void;
}

const KEY_STEP_PX = 16;

export function PanelEdge({ name, side, widthPx, range, resize, onWidth, onFold }: PanelEdgeProps) {
  const drag = useRef<{ x: number; startPx: number } | null>(null);
  const sign = side === 'left' ? 1 : -1;
  const onDown = (e: PointerEvent<HTMLDivElement>): void => {
    if (e.button !== 0 || (e.target as HTMLElement).tagName === 'BUTTON') return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, startPx: widthPx };
    e.preventDefault();
  };
  const onMove = (e: PointerEvent<HTMLDivElement>): void => {
    const d = drag.current;
    if (d) onWidth(resize(d.startPx, (e.clientX - d.x) * sign));
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>): void => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step) {
      onWidth(resize(widthPx, step * sign * (e.shiftKey ? 4 : 1) * KEY_STEP_PX));
      e.preventDefault();
    } else if (e.key === 'Enter') {
      onFold();
      e.preventDefault();
    }
  };
  return (
    <div
      className={`panel-edge ${side}`}
      role="separator"
      aria-orientation="vertical"
      aria-label={`Resize the ${name}`}
      tabIndex={0}
      aria-valuenow={widthPx}
      aria-valuemin={range[0]}
      aria-valuemax={range[1]}
      title={`Drag to resize the ${name}; double-click to fold it away`}
      onPointerDown={onDown}
      onPointerMove={onMove}
      onPointerUp={() => {
        drag.current = null;
      }}
      onPointerCancel={() => {
        drag.current = null;
      }}
      onDoubleClick={onFold}
      onKeyDown={onKey}
    >
      <button type="button" className="fold" aria-label={`Fold the ${name} away`} onClick={onFold}>
        {side === 'left' ? '‹' : '›'}
      </button>
    </div>
  );
}

/** What is left of a folded panel: a strip that opens it again. */
export function FoldedPanel({ name, side, onOpen }: { name: string; side: 'left' | 'right'; onOpen: () => void }) {
  return (
    <button type="button" className={`panel-folded ${side}`} aria-label={`Open the ${name}`} title={`Open the ${name}`} onClick={onOpen}>
      <span>{side === 'left' ? '›' : '‹'}</span>
      <span className="panel-folded-name">{name}</span>
    </button>
  );
}
