// One option of the thumbnail grid: a positioned box over the grid canvas with the file's name and, only where the file
// has one, its badge. Memoised on plain values: a scroll re-renders only the options that enter the view.
import { memo, type MouseEvent } from 'react';
import type { GridItem } from '../state/grid-items.js';
import { Icon } from './icons.js';
import { middleEllipsis } from './format.js';

export const CELL_PX = 128;
export const LABEL_PX = 16;
const LABEL_FONT = '12px system-ui, sans-serif';
/** Labels already fitted: a name is measured once, not on every scroll past it (cleared past this many). */
const FITTED_MAX = 20_000;
const fitted = new Map<string, string>();

let measureCtx: CanvasRenderingContext2D | null | undefined;
/** The label cut in the middle to fit the cell (names that differ at their end stay told apart); the title has it whole. */
function fitLabel(label: string, widthPx: number): string {
  const known = fitted.get(label);
  if (known !== undefined) return known;
  if (fitted.size >= FITTED_MAX) fitted.clear();
  const fit = measureLabel(label, widthPx);
  fitted.set(label, fit);
  return fit;
}

function measureLabel(label: string, widthPx: number): string {
  if (measureCtx === undefined) measureCtx = document.createElement('canvas').getContext('2d');
  const ctx = measureCtx;
  if (!ctx) return middleEllipsis(label, Math.floor(widthPx / 7));
  ctx.font = LABEL_FONT;
  if (ctx.measureText(label).width <= widthPx) return label;
  let lo = 1,
    hi = [...label].length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (ctx.measureText(middleEllipsis(label, mid)).width <= widthPx) lo = mid;
    else hi = mid - 1;
  }
  return middleEllipsis(label, lo);
}

/** What the cell says of its file beyond the name: its status class, tooltip, badge. */
export interface OptionStatus {
  /** 'ok', 'damaged', 'rendering', 'incomplete' or 'error'. */
  status: string;
  /** Why the file cannot be shown whole, or null. */
  problem: string | null;
  /** The "rendering… N of M chunks" badge's text, for a file being written. */
  renderingText: string | null;
  live: boolean;
}

/** Plain values only (the status spread in), so that memo's shallow compare holds across renders. */
interface GridOptionProps extends OptionStatus {
  item: GridItem;
  index: number;
  setSize: number;
  xPx: number;
  yPx: number;
  selected: boolean;
  current: boolean;
  onPick(e: MouseEvent, id: string): void;
}

const badged = (status: string) => status === 'damaged' || status === 'rendering';

function problemClass({ status, problem }: OptionStatus): string {
  if (!problem) return '';
  if (status === 'rendering') return ' incomplete rendering';
  return badged(status) ? ' damaged' : ` bad ${status}`;
}

export const GridOption = memo(function GridOption(props: GridOptionProps) {
  const { item, index, setSize, xPx, yPx, selected, current, problem, onPick } = props;
  const status = props;
  return (
    <div
      id={`grid-option-${index}`}
      role="option"
      aria-label={item.label}
      aria-selected={selected}
      data-sequence={item.sequence ? item.sequence.name : undefined}
      aria-setsize={setSize}
      aria-posinset={index + 1}
      className={`cell${selected ? ' selected' : ''}${current ? ' current' : ''}${problemClass(status)}${item.sequence ? ' sequence' : ''}`}
      title={problem ?? item.title}
      aria-description={problem ?? undefined}
      style={{ left: xPx, top: yPx, width: CELL_PX, height: CELL_PX + LABEL_PX }}
      onMouseDown={(e) => {
        if (e.shiftKey) e.preventDefault(); /* no text selection on Shift-click */
      }}
      onClick={(e) => onPick(e, item.id)}
    >
      {status.status === 'damaged' && (
        <span className="damage-badge" aria-hidden="true">
          <Icon name="warning" sizePx={12} /> damaged
        </span>
      )}
      {status.status === 'rendering' && (
        <span className="rendering-badge" role="status">
          <Icon name="hourglass" sizePx={12} /> {status.renderingText}
        </span>
      )}
      {status.live && (
        <span className="live-badge" aria-hidden="true">
          live
        </span>
      )}
      {problem && !badged(status.status) && (
        <span className="broken-mark" aria-hidden="true">
          <Icon name={status.status === 'incomplete' ? 'hourglass' : 'warning'} sizePx={34} />
          <span className="broken-reason">{status.status === 'incomplete' ? 'still being written' : 'cannot be read'}</span>
        </span>
      )}
      <span className="cell-name">{fitLabel(item.label, CELL_PX - 4)}</span>
    </div>
  );
});
