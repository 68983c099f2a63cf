// The frame loop holds the grid while told to: its changes wait (no frame is asked for), then are drawn once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameLoop, type FrameParts } from './frame-loop.js';

let callbacks: FrameRequestCallback[] = [];
beforeEach(() => {
  callbacks = [];
  vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => callbacks.push(cb));
  vi.stubGlobal('cancelAnimationFrame', () => {});
});
afterEach(() => vi.unstubAllGlobals());

/** Runs the frames asked for so far. */
const runFrames = () => callbacks.splice(0).forEach((cb) => cb(0));

function parts() {
  const drawn = { grid: 0, preview: 0 };
  const p = {
    session: { device: { createCommandEncoder: () => ({ finish: () => ({}) }), queue: { submit: () => {} } }, toneTimer: null },
    preview: {
      encode: () => {
        drawn.preview++;
        return { texture: {}, timed: false };
      },
    },
    grid: {
      encode: () => {
        drawn.grid++;
        return {};
      },
    },
  } as unknown as FrameParts;
  return { p, drawn };
}

describe('FrameLoop hold', () => {
  it('draws no grid while held, the preview still; the held changes are drawn once when let go', () => {
    const { p, drawn } = parts();
    const loop = new FrameLoop(() => p);
    loop.hold('grid', true);
    loop.invalidate('grid');
    expect(callbacks).toHaveLength(0);
    loop.invalidate('preview');
    loop.invalidate('grid');
    runFrames();
    expect(drawn).toEqual({ grid: 0, preview: 1 });
    expect(loop.gridFrames).toBe(0);

    loop.hold('grid', false);
    runFrames();
    expect(drawn).toEqual({ grid: 1, preview: 1 });
    expect(loop.gridFrames).toBe(1);
    // nothing changed meanwhile: letting go again asks for no frame
    loop.hold('grid', true);
    loop.hold('grid', false);
    expect(callbacks).toHaveLength(0);
  });
});
