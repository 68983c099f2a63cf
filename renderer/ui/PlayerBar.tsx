// The player under the preview of a sequence: Play, the Frame slider, rate, loop mode, in and out points, and what
// the frame on screen is. The frame changes every frame: this bar writes it into the DOM from the player's callback.
import { useEffect, useRef } from 'react';
import type { LoopMode } from '../playback/clock.js';
import { useApp, useController } from './context.js';
import { fpsFigure } from './playback-report.js';

const MODES: { value: LoopMode; label: string }[] = [
  { value: 'loop', label: 'Loop' },
  { value: 'ping-pong', label: 'Ping-pong' },
  { value: 'once', label: 'Once' },
];

export function PlayerBar() {
  const c = useController();
  const p = c.player;
  const pb = useApp((s) => s.playback);
  const sequence = useApp((s) => s.library.sequences.find((q) => q.id === s.playback.sequenceId) ?? null);
  const slider = useRef<HTMLInputElement>(null);
  const label = useRef<HTMLOutputElement>(null);
  const dropped = useRef<HTMLOutputElement>(null);
  const fps = useRef<HTMLOutputElement>(null);
  const marks = useRef<HTMLOutputElement>(null);
  const buffering = useRef<HTMLOutputElement>(null);

  useEffect(() => {
    const update = (): void => {
      const frame = p.frame;
      const shown = p.presented;
      if (slider.current && frame !== null && document.activeElement !== slider.current) slider.current.value = String(frame);
      if (label.current) {
        label.current.textContent =
          frame === null
            ? ''
            : `${frame}${shown?.kind === 'damaged' ? ' (damaged: the previous frame stays)' : shown?.kind === 'missing' ? ' (missing: the previous frame stays)' : ''}`;
        label.current.dataset.kind = shown?.kind ?? '';
        label.current.title = shown?.reason ?? '';
      }
      if (buffering.current) buffering.current.textContent = p.buffering ? 'buffering…' : '';
      // the counts Diagnostics shows, as of the same step (the pipeline tells this bar whenever one changes)
      const s = p.summary();
      const countedAtMs = s ? String(Math.round(s.elapsedMs)) : '';
      if (dropped.current) {
        dropped.current.textContent = s ? `${s.dropped}` : '0';
        dropped.current.dataset.countedAtMs = countedAtMs;
      }
      if (fps.current) {
        fps.current.textContent = s ? `${fpsFigure(s.recentFps) ?? 0}` : '0';
        fps.current.dataset.countedAtMs = countedAtMs;
      }
      if (marks.current) {
        const bad = p.damagedFrames;
        marks.current.textContent = bad.length ? `damaged frames: ${bad.join(', ')}` : '';
      }
    };
    update();
    return p.subscribe(update);
  }, [p, sequence]);

  if (!sequence) return null;
  const first = Math.max(sequence.firstFrame, pb.inFrame ?? sequence.firstFrame);
  const last = Math.min(sequence.lastFrame, pb.outFrame ?? sequence.lastFrame);
  const reason = p.unavailableReason;
  const a = c.actions;
  return (
    <div className="player" role="group" aria-label="Player">
      <button type="button" onClick={() => p.play(-1)} disabled={!!reason} title="Play backwards (J)" aria-label="Reverse">
        ◀
      </button>
      <button
        type="button"
        onClick={() => p.toggle()}
        disabled={!!reason}
        title={reason || 'Play or stop (Space; K stops, L plays)'}
        aria-pressed={pb.playing}
      >
        {pb.playing ? 'Stop' : 'Play'}
      </button>
      <button type="button" onClick={() => p.step(-1)} disabled={!!reason} title="Previous frame (←)" aria-label="Previous frame">
        |◀
      </button>
      <button type="button" onClick={() => p.step(1)} disabled={!!reason} title="Next frame (→)" aria-label="Next frame">
        ▶|
      </button>
      <input
        ref={slider}
        className="frame-slider"
        type="range"
        aria-label="Frame"
        min={first}
        max={last}
        step={sequence.step}
        defaultValue={first}
        disabled={!!reason}
        onInput={(e) => p.seek(Number(e.currentTarget.value))}
      />
      <output ref={label} className="frame-label" aria-label="Frame on screen" />
      <label>
        Frame rate{' '}
        <input
          type="number"
          aria-label="Frame rate"
          min={1}
          max={240}
          step={1}
          value={pb.fps}
          title={
            sequence.framesPerSecond ? `the files say ${sequence.framesPerSecond} fps` : 'the files carry no framesPerSecond: 24 until set'
          }
          onChange={(e) => {
            const v = Number(e.target.value);
            if (v > 0 && v <= 240) a.setPlayback({ fps: v });
          }}
        />
      </label>
      <select aria-label="Loop mode" value={pb.mode} onChange={(e) => a.setPlayback({ mode: e.target.value as LoopMode })}>
        {MODES.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </select>
      <button type="button" onClick={() => a.setPlayback({ inFrame: p.frame })} title="In point at the frame on screen (I)">
        In {pb.inFrame ?? sequence.firstFrame}
      </button>
      <button type="button" onClick={() => a.setPlayback({ outFrame: p.frame })} title="Out point at the frame on screen (O)">
        Out {pb.outFrame ?? sequence.lastFrame}
      </button>
      {(pb.inFrame !== null || pb.outFrame !== null) && (
        <button type="button" onClick={() => a.setPlayback({ inFrame: null, outFrame: null })}>
          Clear in/out
        </button>
      )}
      <span title="Frames shown in the last 2 s of playback, as Diagnostics counts them">
        <output ref={fps} aria-label="Achieved frame rate">
          0
        </output>{' '}
        fps
      </span>
      <span>
        Dropped{' '}
        <output ref={dropped} aria-label="Dropped frames">
          0
        </output>
      </span>
      <output
        ref={buffering}
        className="note"
        aria-label="Buffering"
        title="Play waits up to a second for frames to be decoded ahead, rather than drop the first ones"
      />
      <output ref={marks} className="damaged-frames" aria-label="Damaged frames" />
      {reason && <span className="note">{reason}</span>}
    </div>
  );
}
