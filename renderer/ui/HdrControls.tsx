// The "HDR output" toggle with its paper white, peak and roll-off settings; disabled, with the reason shown, where HDR cannot be had.
import { useApp, useController } from './context.js';

export function HdrControls() {
  const c = useController();
  const support = useApp((s) => s.view.hdr.support);
  const settings = useApp((s) => s.view.hdr.settings);
  const on = useApp((s) => !!s.view.display.hdr);
  const available = !!support?.available;
  const reason = support ? support.reason : 'checking the display…';
  return (
    <span className="hdr">
      <label title={`${reason} (Q)`}>
        <input
          type="checkbox"
          aria-label="HDR output"
          aria-describedby="hdr-reason"
          disabled={!available}
          checked={on}
          onChange={(e) => c.actions.setHdrOutput(e.target.checked)}
        />{' '}
        HDR output
      </label>
      {available && on ? (
        <>
          <label>
            paper white{' '}
            <input
              type="number"
              aria-label="Paper white (nits)"
              min={40}
              max={1000}
              step={10}
              value={settings.paperWhiteNits}
              onChange={(e) => c.actions.setHdrSettings({ paperWhiteNits: Math.min(1000, Math.max(40, Number(e.target.value) || 203)) })}
            />{' '}
            nits
          </label>
          <label>
            peak{' '}
            <input
              type="number"
              aria-label="Display peak (nits)"
              min={100}
              max={10000}
              step={50}
              value={settings.peakNits}
              onChange={(e) => c.actions.setHdrSettings({ peakNits: Math.min(10000, Math.max(100, Number(e.target.value) || 1000)) })}
            />{' '}
            nits
          </label>
          <label>
            <input
              type="checkbox"
              aria-label="Highlight roll-off"
              checked={settings.rollOff}
              onChange={(e) => c.actions.setHdrSettings({ rollOff: e.target.checked })}
            />{' '}
            roll-off
          </label>
        </>
      ) : null}
      <span id="hdr-reason" className={available ? 'hdr-reason' : 'hdr-reason off'} aria-label="HDR output status">
        {available ? (on ? 'HDR on' : 'HDR available') : `off: ${reason}`}
      </span>
    </span>
  );
}
