// Draws the preview canvas: the shown layer tone-mapped (a compute pass straight into the canvas texture where the
// canvas format allows storage writes, else a render pass), a compare frame against the reference, or the Layers sheet.
// The canvas is the extended-range rgba16float one while the display asks for HDR and the device allows it.
import type { DisplayParams } from '../../shaders/display-params.js';
import type { LayerTexture } from '../../shaders/passes.js';
import { PREVIEW_VIEW_BYTES, UniformBlock, packPreviewView } from '../../shaders/layouts.js';
import { encodePreviewCompute } from '../../shaders/passes.js';
import { emptyGeometry, previewGeometry, type PanZoom } from '../model/view-geometry.js';
import { ComparePreview } from './compare-preview.js';
import { compareGeometry, type CompareView } from './compare-geometry.js';
import { HDR_CANVAS_FORMAT, hdrCanvasConfiguration } from './hdr-output.js';
import { LayerSheet } from './layer-sheet.js';
import type { GpuSession } from './gpu-session.js';
import type { CompareCounters, OnScreen, Shown } from './engine-types.js';

export const BACKGROUND = 0.12;

/** What the preview shows, as set on the engine (outlives a device). */
export interface PreviewView {
  display: DisplayParams;
  panZoom: PanZoom;
  compareView: CompareView | null;
  hdrCanvas: boolean;
}

export class PreviewDrawer {
  readonly compare: ComparePreview;
  readonly sheet: LayerSheet;
  private readonly buffer: GPUBuffer;
  private readonly group: GPUBindGroup;
  private readonly block = new UniformBlock(PREVIEW_VIEW_BYTES);
  private readonly geometry = emptyGeometry();
  private canvas: HTMLCanvasElement | OffscreenCanvas | null = null;
  private context: GPUCanvasContext | null = null;
  /** A layer drawn instead of the shown one (the Cryptomatte view over it), its passes encoded first; null: the shown one. */
  substitute: ((encoder: GPUCommandEncoder, shown: LayerTexture) => LayerTexture | null) | null = null;
  /** What to draw in place of the shown layer at this canvas size (a crop of level 0 of a reduced image); null: itself. */
  detail: ((shown: Shown, widthPx: number, heightPx: number) => Shown | null) | null = null;

  constructor(
    private readonly session: GpuSession,
    private readonly view: PreviewView,
    private readonly screen: OnScreen,
    private readonly counters: CompareCounters,
  ) {
    const { device, kit, format, toneMap } = session;
    this.compare = new ComparePreview(kit);
    this.sheet = new LayerSheet(kit);
    this.compare.warm(format, toneMap.path === 'compute');
    this.buffer = device.createBuffer({
      label: 'preview view',
      size: PREVIEW_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.group = device.createBindGroup({ layout: kit.previewViewLayout, entries: [{ binding: 0, resource: { buffer: this.buffer } }] });
    // warm the pipeline so the first frame does not compile
    if (toneMap.path === 'render pass') kit.preview(format);
  }

  /** The preview canvas's format now (rgba16float while HDR output is on). */
  get format(): GPUTextureFormat {
    return this.view.hdrCanvas ? HDR_CANVAS_FORMAT : this.session.format;
  }

  attach(canvas: HTMLCanvasElement | OffscreenCanvas): void {
    this.canvas = canvas;
    this.context = canvas.getContext('webgpu') as GPUCanvasContext;
    this.configure();
  }

  detach(): void {
    this.context?.unconfigure();
    this.context = null;
    this.canvas = null;
  }

  /**
   * SDR: the preferred format, with STORAGE_BINDING where the compute tone-map writes the canvas texture itself
   * (RENDER_ATTACHMENT stays for the clear and the render-pass path; COPY_SRC for captures). HDR: rgba16float,
   * extended, always the render pass.
   */
  configure(): void {
    const { device, format, toneMap } = this.session;
    if (!this.context) return;
    if (this.view.hdrCanvas) {
      this.context.configure(hdrCanvasConfiguration(device, GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC));
    } else {
      const storage = toneMap.path === 'compute' ? GPUTextureUsage.STORAGE_BINDING : 0;
      this.context.configure({
        device,
        format,
        alphaMode: 'opaque',
        usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC | storage,
      });
    }
  }

  /** Encodes one preview frame; the canvas texture drawn, and whether the tone-map was timed. */
  encode(encoder: GPUCommandEncoder): { texture: GPUTexture; timed: boolean } | null {
    if (!this.context || !this.canvas) return null;
    const texture = this.context.getCurrentTexture();
    return { texture, timed: this.encodeInto(encoder, texture, this.canvas.width, this.canvas.height) };
  }

  private encodeInto(encoder: GPUCommandEncoder, texture: GPUTexture, widthPx: number, heightPx: number): boolean {
    const { device, kit, toneMap, toneTimer } = this.session;
    const view = texture.createView();
    const cur = this.screen.current;
    const display = this.view.display;
    if (this.sheet.active) {
      this.sheet.encode(encoder, view, this.session.format, { ...display, channelView: 'rgb' }, widthPx, heightPx, BACKGROUND);
      return false;
    }
    if (!cur) {
      const clearValue = { r: BACKGROUND, g: BACKGROUND, b: BACKGROUND, a: 1 };
      encoder.beginRenderPass({ colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue }] }).end();
      return false;
    }
    const cv = this.view.compareView;
    if (cv && (cv.colormap !== 0 || (this.screen.reference && cv.mode !== 'off')))
      return this.encodeCompare(encoder, texture, view, cur, cv);
    const substitute = this.substitute?.(encoder, cur.layer) ?? null;
    // a crop of level 0 zoomed in past a reduced level (region-texture.ts): drawn in its place where it holds the view
    const drawn = (!substitute && this.detail?.(cur, widthPx, heightPx)) || cur;
    const layer = substitute ?? drawn.layer;
    previewGeometry(
      this.geometry,
      inLevel(this.view.panZoom, drawn.image.levelScale),
      drawn.image.dataWindow,
      drawn.image.displayWindow,
      layer.levelCount,
      widthPx,
      heightPx,
      BACKGROUND,
    );
    packPreviewView(this.block, display, this.geometry);
    device.queue.writeBuffer(this.buffer, 0, this.block.bytes);
    const writes = toneTimer?.begin();
    if (toneMap.path === 'compute' && !this.view.hdrCanvas) {
      // the canvas hands out a new texture each frame, so its one-entry bind group is made per frame (as the render
      // pass needs a new view); every other binding, buffer and pipeline is the render path's, made once
      encodePreviewCompute(
        kit,
        encoder,
        texture,
        { view: this.group, image: layer.imageBindGroup, target: this.session.canvasTarget(view) },
        writes,
      );
    } else {
      const pass = encoder.beginRenderPass({
        label: 'tone-map',
        colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: 0, g: 0, b: 0, a: 1 } }],
        ...(writes ? { timestampWrites: writes } : {}),
      });
      pass.setPipeline(kit.preview(this.format));
      pass.setBindGroup(0, this.group);
      pass.setBindGroup(1, layer.imageBindGroup);
      pass.setBindGroup(2, kit.staticBindGroup);
      pass.draw(3);
      pass.end();
    }
    if (writes) toneTimer!.resolve(encoder);
    return !!writes;
  }

  /** A compare frame: A and the reference (or A twice, for a colormap alone) through compare.wgsl. */
  private encodeCompare(encoder: GPUCommandEncoder, texture: GPUTexture, view: GPUTextureView, cur: Shown, cv: CompareView): boolean {
    const { toneMap, toneTimer } = this.session;
    const ref = this.screen.reference && cv.mode !== 'off' ? this.screen.reference : cur;
    const place = (s: Shown) => ({ dataWindow: s.image.dataWindow, displayWindow: s.image.displayWindow, levelCount: s.layer.levelCount });
    const g = compareGeometry(
      inLevel(this.view.panZoom, cur.image.levelScale),
      place(cur),
      place(ref),
      ref === cur ? { ...cv, mode: 'off' } : cv,
      texture.width,
      texture.height,
      BACKGROUND,
    );
    const writes = toneTimer?.begin();
    const target = toneMap.path === 'compute' ? this.session.canvasTarget(view) : null;
    this.compare.encode(encoder, texture, target, this.view.display, g, cur.layer.texture, ref.layer.texture, writes);
    this.counters.compareFrames++;
    this.counters.sinceLoad.frames++;
    if (writes) toneTimer!.resolve(encoder);
    return !!writes;
  }

  destroy(): void {
    this.sheet.destroy();
    this.compare.dispose();
    this.buffer.destroy();
  }

  /** At dispose: the canvas lets go of the device. */
  release(): void {
    this.context?.unconfigure();
  }
}

/** Pan and zoom (in level 0's pixels, as the view keeps them) in the pixels of a level reduced by `scale`. */
export function inLevel(v: PanZoom, scale: number): PanZoom {
  return scale === 1 ? v : { zoom: v.zoom * scale, centerX: v.centerX / scale, centerY: v.centerY / scale };
}
