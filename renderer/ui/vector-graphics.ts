// A live image's vector graphics (tev's protocol) drawn on the preview's 2D overlay as tev draws them with NanoVG:
// points, sizes and radii in image pixels follow zoom and pan; stroke widths and font sizes are screen pixels unless
// their second value asks for image pixels (tev's relative scale); save/restore kept balanced as tev keeps them.
import type { VectorCommand } from '../host-client/api-types.js';

/** The overlay's 2D context as far as vector graphics use it. */
export type VectorContext = Pick<
  CanvasRenderingContext2D,
  | 'save'
  | 'restore'
  | 'beginPath'
  | 'closePath'
  | 'moveTo'
  | 'lineTo'
  | 'arcTo'
  | 'arc'
  | 'bezierCurveTo'
  | 'quadraticCurveTo'
  | 'ellipse'
  | 'rect'
  | 'roundRect'
  | 'fill'
  | 'stroke'
  | 'fillText'
  | 'fillStyle'
  | 'strokeStyle'
  | 'lineWidth'
  | 'font'
  | 'textAlign'
  | 'textBaseline'
>;

export interface VectorPlacement {
  /** Image px (display window) → overlay canvas px. */
  toCanvas(x: number, y: number): [number, number];
  /** Canvas px per image px. */
  zoom: number;
  /** Canvas px per CSS px: absolute widths and font sizes are CSS px, as tev's are screen points. */
  dpr: number;
}

/** tev's default colour, stroke width (3) and font size (20) before the commands set theirs. */
const DEFAULT_COLOUR = 'rgba(255, 255, 255, 1)';
/** tev's scale kinds for stroke width and font size (`VgCommand::EScaleKind`): 1 is relative (image pixels). */
const RELATIVE = 1;
/** NanoVG's text align bits. */
const ALIGN = { left: 1, center: 2, right: 4, top: 8, middle: 16, bottom: 32, baseline: 64 } as const;

const colour = (v: readonly number[]): string => {
  const c = (x: number | undefined) => Math.round(Math.min(1, Math.max(0, x ?? 0)) * 255);
  return `rgba(${c(v[0])}, ${c(v[1])}, ${c(v[2])}, ${Math.min(1, Math.max(0, v[3] ?? 1))})`;
};

/** Draws `commands` in order; unknown commands and debug ones are skipped. */
export function drawVectorGraphics(ctx: VectorContext, commands: readonly VectorCommand[], at: VectorPlacement): void {
  const { toCanvas, zoom, dpr } = at;
  let fontPx = 20 * dpr;
  const setFont = (): void => void (ctx.font = `${fontPx}px system-ui, sans-serif`);
  ctx.save();
  ctx.fillStyle = DEFAULT_COLOUR;
  ctx.strokeStyle = DEFAULT_COLOUR;
  ctx.lineWidth = 3 * dpr;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  setFont();
  let saves = 0;
  for (const cmd of commands) {
    const v = cmd.values;
    const n = (i: number): number => v[i] ?? 0;
    const p = (i: number): [number, number] => toCanvas(n(i), n(i + 1));
    switch (cmd.kind) {
      case 'save':
        saves++;
        ctx.save();
        break;
      case 'restore':
        // a restore without its save would pop the overlay's own state: skipped, as tev skips it
        if (saves === 0) break;
        saves--;
        ctx.restore();
        break;
      case 'fill-color':
        ctx.fillStyle = colour(v);
        break;
      case 'stroke-color':
        ctx.strokeStyle = colour(v);
        break;
      case 'stroke-width':
        ctx.lineWidth = n(0) * (n(1) === RELATIVE ? zoom : dpr);
        break;
      case 'font-size':
        fontPx = n(0) * (n(1) === RELATIVE ? zoom : dpr);
        setFont();
        break;
      case 'text-align': {
        const a = n(0);
        ctx.textAlign = a & ALIGN.center ? 'center' : a & ALIGN.right ? 'right' : 'left';
        ctx.textBaseline = a & ALIGN.top ? 'top' : a & ALIGN.middle ? 'middle' : a & ALIGN.bottom ? 'bottom' : 'alphabetic';
        break;
      }
      case 'fill':
        ctx.fill();
        break;
      case 'stroke':
        ctx.stroke();
        break;
      case 'begin-path':
        ctx.beginPath();
        break;
      case 'close-path':
        ctx.closePath();
        break;
      case 'move-to':
        ctx.moveTo(...p(0));
        break;
      case 'line-to':
        ctx.lineTo(...p(0));
        break;
      case 'arc-to':
        ctx.arcTo(...p(0), ...p(2), Math.max(0, n(4) * zoom));
        break;
      case 'arc': {
        // NanoVG's direction: 1 counter-clockwise, 2 clockwise
        const [cx, cy] = p(0);
        ctx.arc(cx, cy, Math.max(0, n(2) * zoom), n(3), n(4), n(5) === 1);
        break;
      }
      case 'bezier-to':
        ctx.bezierCurveTo(...p(0), ...p(2), ...p(4));
        break;
      case 'quad-to':
        ctx.quadraticCurveTo(...p(0), ...p(2));
        break;
      case 'circle': {
        const [cx, cy] = p(0);
        const r = Math.max(0, n(2) * zoom);
        ctx.moveTo(cx + r, cy);
        ctx.arc(cx, cy, r, 0, Math.PI * 2);
        break;
      }
      case 'ellipse': {
        const [cx, cy] = p(0);
        const rx = Math.max(0, n(2) * zoom),
          ry = Math.max(0, n(3) * zoom);
        ctx.moveTo(cx + rx, cy);
        ctx.ellipse(cx, cy, rx, ry, 0, 0, Math.PI * 2);
        break;
      }
      case 'rect': {
        const [x, y] = p(0);
        ctx.rect(x, y, n(2) * zoom, n(3) * zoom);
        break;
      }
      case 'rounded-rect': {
        const [x, y] = p(0);
        ctx.roundRect(x, y, n(2) * zoom, n(3) * zoom, Math.max(0, n(4) * zoom));
        break;
      }
      case 'rounded-rect-varying': {
        // NanoVG's radii: top left, top right, bottom right, bottom left, as the canvas takes them
        const [x, y] = p(0);
        const radii = [n(4), n(5), n(6), n(7)].map((r) => Math.max(0, r * zoom));
        ctx.roundRect(x, y, n(2) * zoom, n(3) * zoom, radii);
        break;
      }
      case 'text':
        ctx.fillText(cmd.text ?? '', ...p(0));
        break;
      default:
        // font-face (the overlay has one face), path-winding (the canvas fills non-zero), debug-dump-path-cache
        break;
    }
  }
  for (; saves > 0; saves--) ctx.restore();
  ctx.restore();
}
