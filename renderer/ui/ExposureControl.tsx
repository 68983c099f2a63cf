// Exposure as a grading panel offers it: a slider to drag, the wheel over it, a typed value, and keys at a third of a
// stop (Shift: a whole stop); the slider lets go of the keyboard after a drag so the window's shortcuts keep working.
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { EXPOSURE_RANGE_EV, EXPOSURE_STEP_EV } from '../state/store.js';
import { useApp, useController } from './context.js';
import { Icon } from './icons.js';

/** Exposure as typed and shown: signed, two decimals ("+0.33", "−1.00" with a plain minus for typing back). */
export function formatEv(ev: number): string {
  return `${ev > 0 ? '+' : ''}${ev.toFixed(2)}`;
}

/** A typed exposure ("1.5", "+2/3", "-1 1/3", "−0,5"), or null when it is not a number. */
export function parseEv(text: string): number | null {
  const t = text
    .trim()
    .replace(/^−/, '-')
    .replace(',', '.')
    .replace(/\s*(ev|stops?)$/i, '');
  const m = /^([+-]?)(?:(\d+(?:\.\d*)?|\.\d+)|(?:(\d+)\s+)?(\d+)\/(\d+))$/.exec(t);
  if (!m) return null;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] !== undefined) return sign * Number(m[2]);
  const den = Number(m[5]);
  return den === 0 ? null : sign * (Number(m[3] ?? 0) + Number(m[4]) / den);
}

export function ExposureControl() {
  const a = useController().actions;
  const ev = useApp((s) => s.view.display.exposureEv);
  const [draft, setDraft] = useState<string | null>(null);
  const box = useRef<HTMLLabelElement>(null);

  // the wheel over the control steps it (a listener of our own: React's wheel listeners cannot preventDefault)
  useEffect(() => {
    const el = box.current!;
    const onWheel = (e: WheelEvent): void => {
      if (e.deltaY === 0) return;
      e.preventDefault();
      a.stepExposure((e.deltaY < 0 ? 1 : -1) * (e.shiftKey ? 3 : 1));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [a]);

  const commit = (text: string): void => {
    const v = parseEv(text);
    if (v !== null) a.setExposure(v);
    setDraft(null);
  };
  const onFieldKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'Enter') {
      commit(e.currentTarget.value);
      e.currentTarget.blur();
    } else if (e.key === 'Escape') {
      setDraft(null);
      e.currentTarget.blur();
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      setDraft(null);
      a.stepExposure((e.key === 'ArrowUp' ? 1 : -1) * (e.shiftKey ? 3 : 1));
    } else return;
    e.preventDefault();
  };
  return (
    <label
      className="exposure"
      ref={box}
      title="Exposure in stops: drag, wheel or type a value; a third of a stop a step (E / Shift+E; 0 resets)"
    >
      <Icon name="sun" />
      <input
        type="range"
        aria-label="Exposure"
        min={-EXPOSURE_RANGE_EV}
        max={EXPOSURE_RANGE_EV}
        step={EXPOSURE_STEP_EV}
        value={ev}
        onChange={(e) => a.setExposure(Number(e.target.value))}
        // a drag ends with the keyboard back on the window: E, F, ? and the rest work again at once
        onPointerUp={(e) => e.currentTarget.blur()}
        onKeyDown={(e) => {
          if (e.key === 'Escape') e.currentTarget.blur();
        }}
      />
      <input
        type="text"
        inputMode="decimal"
        className="exposure-value"
        aria-label="Exposure value"
        spellCheck={false}
        value={draft ?? formatEv(ev)}
        onChange={(e) => setDraft(e.target.value)}
        onFocus={(e) => e.currentTarget.select()}
        onBlur={(e) => {
          if (draft !== null) commit(e.currentTarget.value);
        }}
        onKeyDown={onFieldKey}
      />
      <span className="unit">EV</span>
    </label>
  );
}
