// The 2D layer over the preview canvas, drawn outside React and only when something it shows changed (view, images,
// mode, region): a damaged image's missing pixels hatched, values inside pixels when zoomed in (as tev), a live image's
// vector graphics, the statistics rectangle, the wipe grip, A and B labels.
import type { Controller } from '../app/controller.js';
import { alignmentShift, pickAt, sideBySide } from '../gpu/compare-geometry.js';
import type { Region } from '../../shaders/compare-cpu.js';
import { layerChoice, partChannelNames } from '../model/layer-choice.js';
import { shortValue, shownValues } from './pixel-values.js';
import { drawMissingHatch } from './missing-hatch.js';
import { drawVectorGraphics } from './vector-graphics.js';

/** Device px per image px from which values are drawn: room for a few short numbers. */
export const VALUES_MIN_ZOOM = 36;

export class PreviewOverlay {
  private raf = 0;
  /** A rectangle being dragged (A's pixel space), drawn until it is committed to the store. */
  dragging: Region | null = null;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly canvas: HTMLCanvasElement,
    private readonly c: Controller,
  ) {
    this.offs.push(
      c.store.subscribe((s, p) => {
        if (
          s.view !== p.view ||
          s.image.decoded !== p.image.decoded ||
          s.image.header !== p.image.header ||
          s.compare !== p.compare ||
          s.inspect.region !== p.inspect.region ||
          s.inspect.pixelValues !== p.inspect.pixelValues ||
          s.inspect.layersView !== p.inspect.layersView
        )
          this.invalidate();
      }),
    );
    this.offs.push(c.compare.onChange(() => this.invalidate()));
    this.offs.push(c.liveVectors.onChange(() => this.invalidate()));
  }

  invalidate(): void {
    if (!this.raf)
      this.raf = requestAnimationFrame(() => {
        this.raf = 0;
        this.draw();
      });
  }

  dispose(): void {
    cancelAnimationFrame(this.raf);
    for (const o of this.offs) o();
  }

  private draw(): void {
    const cv = this.canvas;
    const ctx = cv.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, cv.width, cv.height);
    const s = this.c.store.getState();
    if (s.inspect.layersView) return;
    const v = s.view.panZoom;
    const W = cv.width,
      H = cv.height;
    const cmp = this.c.compare.compareView(s);
    const view = cmp ?? {
      mode: 'off' as const,
      showB: false,
      wipeFraction: 0.5,
      wipeAxis: 'x' as const,
      colormap: 0,
      rangeMin: 0,
      rangeMax: 1,
    };
    const side = sideBySide(view.mode);
    const halfW = side ? W / 2 : W;
    const dpr = window.devicePixelRatio || 1;
    // image px → canvas px in A's half (side by side draws the same view twice)
    const toCanvas = (x: number, y: number, offset = 0): [number, number] => [
      offset + halfW / 2 + (x - v.centerX) * v.zoom,
      H / 2 + (y - v.centerY) * v.zoom,
    ];

    const part = this.c.currentPart();
    const a = s.image.decoded;
    // a damaged image's pixels that could not be read (A's half of a side by side); not while a sequence plays, when
    // the frame on screen is another file than the one whose regions these are
    if (a?.missing && a.fileId === s.image.currentFileId && !s.playback.playing) drawMissingHatch(ctx, a.missing.regions, toCanvas, dpr);
    const layer = part?.layers.find((l) => l.name === s.image.layer) ?? part?.layers[0];
    if (s.inspect.pixelValues && v.zoom >= VALUES_MIN_ZOOM && a && layer && a.fileId === s.image.currentFileId) {
      const aChoice = layerChoice(layer, s.image.channel, part ? partChannelNames(part) : undefined).choice;
      const ref = this.c.compare.referenceImage,
        refChoice = this.c.compare.referenceChoice;
      const b =
        s.compare.reference && ref && refChoice && part
          ? {
              image: ref,
              choice: refChoice,
              shift: alignmentShift(
                { dataWindow: part.dataWindow, displayWindow: part.displayWindow, levelCount: 1 },
                { dataWindow: ref.dataWindow, displayWindow: ref.displayWindow, levelCount: 1 },
              ),
            }
          : null;
      const mode = s.compare.reference ? s.compare.mode : 'off';
      const z = v.zoom;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.lineJoin = 'round';
      for (let py = Math.floor(v.centerY - H / 2 / z); py <= v.centerY + H / 2 / z; py++) {
        for (let px = Math.floor(v.centerX - W / 2 / z) - (side ? Math.ceil(W / 2 / z) : 0); px <= v.centerX + W / 2 / z; px++) {
          for (const offset of side ? [0, halfW] : [0]) {
            const [cx, cy] = toCanvas(px + 0.5, py + 0.5, offset);
            if (cx < offset || cx >= offset + halfW || cy < 0 || cy >= H) continue;
            const pick = pickAt(v, view, cx, cy, W, H);
            const values = shownValues({ image: a, choice: aChoice }, b, mode, pick.side, s.view.display.channelView, px, py);
            if (!values) continue;
            const font = Math.min((z * 0.8) / values.length, z / 4.4, 16 * dpr);
            if (font < 7 * dpr) continue;
            ctx.font = `${font}px ui-monospace, monospace`;
            ctx.lineWidth = Math.max(2, font / 4);
            values.forEach((val, i) => {
              const ty = cy + (i - (values.length - 1) / 2) * font * 1.1;
              const text = shortValue(val.value);
              ctx.strokeStyle = 'rgba(0, 0, 0, 0.85)';
              ctx.strokeText(text, cx, ty);
              ctx.fillStyle = val.colour;
              ctx.fillText(text, cx, ty);
            });
          }
        }
      }
    }

    // a live image's vector graphics (tev's protocol), in A's half; not while a sequence plays another file
    const vectors = s.playback.playing ? [] : this.c.liveVectors.of(s.image.currentFileId, s.image.header);
    if (vectors.length) drawVectorGraphics(ctx, vectors, { toCanvas: (x, y) => toCanvas(x, y), zoom: v.zoom, dpr });

    // the statistics rectangle (committed or being dragged)
    const r = this.dragging ?? s.inspect.region;
    if (r) {
      const [x0, y0] = toCanvas(r.x0, r.y0);
      const [x1, y1] = toCanvas(r.x0 + r.widthPx, r.y0 + r.heightPx);
      ctx.setLineDash([6 * dpr, 4 * dpr]);
      ctx.lineWidth = 2 * dpr;
      ctx.strokeStyle = '#000';
      ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
      ctx.strokeStyle = '#ffd54a';
      ctx.lineDashOffset = 5 * dpr;
      ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
      ctx.setLineDash([]);
      ctx.lineDashOffset = 0;
    }

    // A and B labels and the wipe's grip
    if (cmp && s.compare.reference && cmp.mode !== 'off') {
      ctx.font = `${12 * dpr}px system-ui, sans-serif`;
      ctx.textBaseline = 'top';
      const label = (text: string, x: number, y: number, align: CanvasTextAlign): void => {
        ctx.textAlign = align;
        const w = ctx.measureText(text).width + 10 * dpr;
        ctx.fillStyle = 'rgba(20, 20, 20, 0.75)';
        ctx.fillRect(align === 'right' ? x - w : x, y, w, 18 * dpr);
        ctx.fillStyle = '#eee';
        ctx.fillText(text, align === 'right' ? x - 5 * dpr : x + 5 * dpr, y + 3 * dpr);
      };
      let aName = `A · ${this.c.currentFile()?.name ?? ''}`,
        bName = `B · ${s.compare.reference.file.name}`;
      // side by side on a narrow preview: the names would run into each other, the letters alone do not
      if (
        (cmp.mode === 'wipe' || side) &&
        (cmp.wipeAxis === 'x' || side) &&
        ctx.measureText(aName).width + ctx.measureText(bName).width + 40 * dpr > W
      ) {
        aName = 'A';
        bName = 'B';
      }
      if (cmp.mode === 'wipe' || side) {
        if (cmp.wipeAxis === 'x' || side) {
          label(aName, 6 * dpr, 6 * dpr, 'left');
          label(bName, W - 6 * dpr, 6 * dpr, 'right');
        } else {
          label(aName, 6 * dpr, 6 * dpr, 'left');
          label(bName, 6 * dpr, H - 24 * dpr, 'left');
        }
      } else if (cmp.mode === 'flip') label(cmp.showB ? bName : aName, 6 * dpr, 6 * dpr, 'left');
      else label(`${s.compare.mode.replace(/-/g, ' ')}: A − B`, 6 * dpr, 6 * dpr, 'left');
      if (cmp.mode === 'wipe') {
        const along = cmp.wipeFraction * (cmp.wipeAxis === 'x' ? W : H);
        const [gx, gy] = cmp.wipeAxis === 'x' ? [along, H / 2] : [W / 2, along];
        ctx.beginPath();
        ctx.arc(gx, gy, 9 * dpr, 0, Math.PI * 2);
        ctx.fillStyle = 'rgba(230, 230, 230, 0.95)';
        ctx.fill();
        ctx.fillStyle = '#333';
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        ctx.fillText(cmp.wipeAxis === 'x' ? '⇔' : '⇕', gx, gy);
      }
    }
  }
}
