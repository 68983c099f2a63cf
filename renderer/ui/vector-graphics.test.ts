// tev's vector graphics on the overlay: points and sizes follow zoom and pan, widths and font sizes are screen pixels
// unless relative, colours are 0–1, save/restore stay balanced whatever the client sent.
import { describe, expect, it } from 'vitest';
import type { VectorCommand } from '../host-client/api-types.js';
import { drawVectorGraphics, type VectorContext } from './vector-graphics.js';

/** A 2D context that writes down each call and each state set, as the canvas would receive them (Node has no canvas). */
function recordingContext(): { ctx: VectorContext; calls: string[] } {
  const calls: string[] = [];
  const state: Record<string, unknown> = {};
  const ctx = new Proxy(state, {
    get: (_t, name: string) =>
      name in state ? state[name] : (...args: unknown[]) => calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(', ')})`),
    set: (_t, name: string, value) => {
      state[name] = value;
      calls.push(`${name} = ${JSON.stringify(value)}`);
      return true;
    },
  }) as unknown as VectorContext;
  return { ctx, calls };
}

const cmd = (kind: string, values: number[] = [], text?: string): VectorCommand => ({ kind, values, ...(text ? { text } : {}) });
/** Zoom 2 with the image's (10, 20) at the canvas origin, on a screen of 2 device px per CSS px. */
const at = { toCanvas: (x: number, y: number): [number, number] => [(x - 10) * 2, (y - 20) * 2], zoom: 2, dpr: 2 };

describe('drawVectorGraphics', () => {
  it('maps points and sizes from image pixels to the canvas, and colours from 0–1', () => {
    const { ctx, calls } = recordingContext();
    drawVectorGraphics(
      ctx,
      [
        cmd('stroke-color', [1, 0, 0, 0.5]),
        cmd('begin-path'),
        cmd('move-to', [10, 20]),
        cmd('line-to', [15, 25]),
        cmd('rect', [10, 20, 4, 3]),
        cmd('circle', [12, 22, 2]),
        cmd('stroke'),
      ],
      at,
    );
    expect(calls).toEqual([
      'save()',
      'fillStyle = "rgba(255, 255, 255, 1)"',
      'strokeStyle = "rgba(255, 255, 255, 1)"',
      'lineWidth = 6',
      'textAlign = "left"',
      'textBaseline = "alphabetic"',
      'font = "40px system-ui, sans-serif"',
      'strokeStyle = "rgba(255, 0, 0, 0.5)"',
      'beginPath()',
      'moveTo(0, 0)',
      'lineTo(10, 10)',
      'rect(0, 0, 8, 6)',
      'moveTo(8, 4)',
      'arc(4, 4, 4, 0, 6.283185307179586)',
      'stroke()',
      'restore()',
    ]);
  });

  it('takes widths and font sizes as screen pixels, or image pixels when relative; draws text with its alignment', () => {
    const { ctx, calls } = recordingContext();
    drawVectorGraphics(
      ctx,
      [
        cmd('stroke-width', [1.5, 0]),
        cmd('stroke-width', [1.5, 1]),
        cmd('font-size', [10, 1]),
        cmd('text-align', [2 | 16]),
        cmd('text', [10, 20], 'hi'),
      ],
      at,
    );
    expect(calls.slice(7)).toEqual([
      'lineWidth = 3',
      'lineWidth = 3',
      'font = "20px system-ui, sans-serif"',
      'textAlign = "center"',
      'textBaseline = "middle"',
      'fillText("hi", 0, 0)',
      'restore()',
    ]);
  });

  it('skips a restore without its save and restores what the client left saved', () => {
    const { ctx, calls } = recordingContext();
    drawVectorGraphics(ctx, [cmd('restore'), cmd('save'), cmd('save'), cmd('restore'), cmd('debug-dump-path-cache')], at);
    expect(calls.filter((c) => c === 'save()' || c === 'restore()')).toEqual([
      'save()',
      'save()',
      'save()',
      'restore()',
      'restore()',
      'restore()',
    ]);
  });
});
