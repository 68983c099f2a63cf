// The channel-expression bar (F2, as a spreadsheet edits a formula, or the toolbar's ƒx): a field whose expression becomes the layer on screen, its error
// underlined at its place as it is typed, and the saved expressions to reuse on any image.
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type RefObject } from 'react';
import { FUNCTIONS } from '../../shaders/expressions/index.js';
import { checkExpression, keepSavedExpressions, showExpression } from '../app/expressions.js';
import { pickExpression } from '../model/layer-choice.js';
import { useApp, useController } from './context.js';

const LANGUAGE =
  'Channels by name (R, diffuse.R, "odd-name".R), a layer alone is its RGB(A); numbers, pi, inf, nan; + - * /, comparisons ' +
  `< <= > >= == != (1 or 0); ${Object.keys(FUNCTIONS).join(', ')}. Enter shows it as the layer; Esc closes the bar.`;

/** The widest the bar grows (px), and the margin it keeps inside the preview's column. */
const BAR_MAX_WIDTH_PX = 760;
const BAR_MARGIN_PX = 8;

/**
 * Where the bar goes: over the preview's column only, under its picker bar, right-aligned, so that it never covers the
 * grid or the inspector's panels (Statistics) whatever their widths; followed as panels are resized, folded or hidden.
 */
function usePreviewPlacement(open: boolean, bar: RefObject<HTMLDivElement | null>): CSSProperties | undefined {
  const [style, setStyle] = useState<CSSProperties>();
  useLayoutEffect(() => {
    const el = bar.current;
    const host = el?.offsetParent;
    const preview = document.querySelector<HTMLElement>('.preview');
    if (!open || !el || !host || !preview) return;
    const place = (): void => {
      const hostBox = host.getBoundingClientRect();
      const box = preview.getBoundingClientRect();
      const pickers = preview.querySelector('.preview-bar')?.getBoundingClientRect();
      const widthPx = Math.max(0, Math.min(BAR_MAX_WIDTH_PX, box.width - 2 * BAR_MARGIN_PX));
      setStyle({
        left: box.right - hostBox.left - BAR_MARGIN_PX - widthPx,
        right: 'auto',
        top: (pickers ? pickers.bottom : box.top) - hostBox.top + 4,
        width: widthPx,
      });
    };
    place();
    const ro = new ResizeObserver(place);
    ro.observe(preview);
    ro.observe(host);
    const pickers = preview.querySelector('.preview-bar');
    if (pickers) ro.observe(pickers);
    window.addEventListener('resize', place);
    return () => {
      ro.disconnect();
      window.removeEventListener('resize', place);
    };
  }, [open, bar]);
  return open ? style : undefined;
}

export function ExpressionBar() {
  const c = useController();
  const open = useApp((s) => s.expressions.open);
  const text = useApp((s) => s.expressions.text);
  const saved = useApp((s) => s.expressions.saved);
  const shown = useApp((s) => pickExpression(s.image.channel));
  // checked against the image on screen: another image may lack a channel the text names
  useApp((s) => s.image.currentFileId);
  const [draft, setDraft] = useState(text);
  const input = useRef<HTMLInputElement>(null);
  const bar = useRef<HTMLDivElement>(null);
  const placement = usePreviewPlacement(open, bar);
  useEffect(() => setDraft(text), [text]);
  useEffect(() => keepSavedExpressions(c.store, c.actions), [c]);
  // F2 opens the bar and puts the cursor in the field, from anywhere but another field ('=' zooms the preview)
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      const t = e.target as HTMLElement | null;
      if (e.key !== 'F2' || e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented) return;
      if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
      e.preventDefault();
      c.actions.setExpressions({ open: true });
      setTimeout(() => input.current?.focus(), 0);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [c]);
  if (!open) return null;
  const checked = checkExpression(c.store.getState(), draft);
  const error = checked && !checked.ok ? checked.error : null;
  const show = (t: string): void => {
    c.actions.setExpressions({ text: t });
    showExpression(c.store, c.actions, t);
  };
  return (
    <div className="expression-bar" role="group" aria-label="Channel expression" ref={bar} style={placement}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          show(draft);
        }}
      >
        <span className="expression-label" title={LANGUAGE}>
          ƒx
        </span>
        <span className="expression-field">
          <input
            ref={input}
            aria-label="Expression"
            aria-invalid={!!error}
            aria-describedby={error ? 'expression-error' : undefined}
            placeholder="diffuse + specular * 2"
            value={draft}
            spellCheck={false}
            autoComplete="off"
            title={LANGUAGE}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key !== 'Escape') return;
              e.preventDefault();
              e.currentTarget.blur();
              c.actions.setExpressions({ open: false });
            }}
          />
          {error && (
            <span className="expression-underline" aria-hidden="true">
              <span className="before">{draft.slice(0, error.start)}</span>
              <span className="bad">{draft.slice(error.start, error.end) || ' '}</span>
            </span>
          )}
        </span>
        <button type="submit" disabled={!checked?.ok} title="Show the expression as the layer (Enter); it is saved for other images">
          Show
        </button>
        {shown !== null && (
          <button type="button" onClick={() => c.actions.setChannel('rgb')} title="Back to the layer's own RGB">
            Layer RGB
          </button>
        )}
        <select
          aria-label="Saved expressions"
          value=""
          onChange={(e) => {
            if (!e.target.value) return;
            setDraft(e.target.value);
            show(e.target.value);
          }}
          title="Expressions shown before (kept across images and sessions)"
        >
          <option value="">saved ({saved.length})</option>
          {saved.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        {saved.includes(draft) && (
          <button
            type="button"
            className="link"
            onClick={() => c.actions.setExpressions({ saved: saved.filter((t) => t !== draft) })}
            title="Remove this expression from the saved ones"
          >
            forget
          </button>
        )}
        <button
          type="button"
          aria-label="Close the expression bar"
          onClick={() => c.actions.setExpressions({ open: false })}
          title="Close (Esc)"
        >
          ×
        </button>
      </form>
      {error && (
        <p className="expression-error" id="expression-error" role="alert" data-start={error.start} data-end={error.end}>
          at {error.start + 1}: {error.message}
        </p>
      )}
      {!error && shown !== null && (
        <p className="expression-note">
          {checkExpression(c.store.getState(), shown)?.ok === false
            ? `${shown} does not fit this image (type it again to see why): the layer's RGB is shown`
            : `showing: ${shown}`}
        </p>
      )}
    </div>
  );
}
