// The frame playback rests on becomes the image: only once paused for FRAME_REST_MS, never while playing or scrubbing
// past it, never a missing or damaged frame, never the frame that already is the image.
import { describe, expect, it } from 'vitest';
import type { SequenceInfo } from '../host-client/api-types.js';
import type { Presented } from '../playback/pipeline.js';
import { FrameAtRest } from './frame-at-rest.js';

const sequence: SequenceInfo = {
  id: 'q',
  folderId: 'f',
  relativePattern: 'shot.####.exr',
  name: 'shot.####.exr',
  padding: 4,
  firstFrame: 1,
  lastFrame: 4,
  step: 1,
  frames: [1, 2, 4].map((frame) => ({ frame, fileId: `file-${frame}`, status: 'ok' as const })),
  missingFrames: [3],
  damagedFrames: [],
  framesPerSecond: null,
  widthPx: 16,
  heightPx: 9,
  sizeBytes: 3000,
  mtimeMs: 0,
};

/** A player, a store and a clock the test moves by hand. */
function rig() {
  const listeners = new Set<() => void>();
  const timers: { at: number; run: () => void; id: number }[] = [];
  const state = { presented: null as Presented | null, playing: false, current: 'file-1' as string | null, now: 0, shown: [] as string[] };
  let ids = 0;
  const rest = new FrameAtRest(
    {
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      presented: () => state.presented,
      sequence: () => sequence,
      playing: () => state.playing,
      currentFileId: () => state.current,
      showFrame: (id) => {
        state.shown.push(id);
        state.current = id;
      },
      setTimer: (run, ms) => {
        const t = { at: state.now + ms, run, id: ++ids };
        timers.push(t);
        return t.id;
      },
      clearTimer: (id) => {
        const i = timers.findIndex((t) => t.id === id);
        if (i >= 0) timers.splice(i, 1);
      },
    },
    150,
  );
  const emit = (p: Presented | null, playing = state.playing): void => {
    state.presented = p;
    state.playing = playing;
    for (const l of listeners) l();
  };
  const advance = (ms: number): void => {
    state.now += ms;
    for (const t of timers.filter((x) => x.at <= state.now)) {
      timers.splice(timers.indexOf(t), 1);
      t.run();
    }
  };
  return { rest, state, emit, advance, timers };
}

const shown = (frame: number): Presented => ({ frame, kind: 'shown', reason: '' });

describe('FrameAtRest', () => {
  it('makes the paused frame the image once it has rested', () => {
    const r = rig();
    r.emit(shown(2));
    r.advance(149);
    expect(r.state.shown).toEqual([]);
    r.advance(1);
    expect(r.state.shown).toEqual(['file-2']);
  });

  it('scrubbing past frames loads none of them; the one it stops on is loaded', () => {
    const r = rig();
    for (const f of [2, 4, 2, 4]) {
      r.emit(shown(f));
      r.advance(50);
    }
    expect(r.state.shown).toEqual([]);
    r.advance(100);
    expect(r.state.shown).toEqual(['file-4']);
  });

  it('nothing while playing; the frame playback stops on after it stops', () => {
    const r = rig();
    r.emit(shown(2), true);
    r.emit(shown(4), true);
    r.advance(1000);
    expect(r.state.shown).toEqual([]);
    r.emit(shown(4), false);
    r.advance(150);
    expect(r.state.shown).toEqual(['file-4']);
  });

  it('a play started before the frame rested cancels it', () => {
    const r = rig();
    r.emit(shown(2));
    r.advance(100);
    r.emit(shown(2), true);
    r.advance(500);
    expect(r.state.shown).toEqual([]);
  });

  it('a missing or damaged frame, or the frame that is already the image, changes nothing', () => {
    const r = rig();
    r.emit({ frame: 3, kind: 'missing', reason: '' });
    r.emit({ frame: 4, kind: 'damaged', reason: 'bad chunk' });
    r.advance(500);
    r.emit(shown(1));
    r.advance(500);
    expect(r.state.shown).toEqual([]);
    expect(r.timers).toHaveLength(0);
  });

  it('stops listening when disposed', () => {
    const r = rig();
    r.emit(shown(2));
    r.rest.dispose();
    r.advance(500);
    r.emit(shown(4));
    r.advance(500);
    expect(r.state.shown).toEqual([]);
  });
});
