// Draws the thumbnail grid: every visible cell from the thumbnail atlas in one instanced pass, tone-mapped with the
// display's SDR settings (the grid canvas stays 8-bit), so an exposure change re-tone-maps the whole grid at once.
import type { Thumbnail } from '../host-client/api-types.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import { GRID_CELL_BYTES, GRID_VIEW_BYTES, UniformBlock, packGridView } from '../../shaders/layouts.js';
import { ThumbAtlas } from './thumb-atlas.js';
import { BACKGROUND } from './preview-drawer.js';
import type { GpuSession } from './gpu-session.js';
import type { GridCell } from './engine-types.js';

const MAX_CELLS = 4096;

/** What the grid shows, as set on the engine (outlives a device). */
export interface GridView {
  display: DisplayParams;
  cells: readonly GridCell[];
  pinned: ReadonlySet<string>;
}

export class GridDrawer {
  readonly atlas: ThumbAtlas;
  private readonly viewBuffer: GPUBuffer;
  private readonly cellBuffer: GPUBuffer;
  private readonly viewGroup: GPUBindGroup;
  private readonly atlasGroup: GPUBindGroup;
  private readonly block = new UniformBlock(GRID_VIEW_BYTES);
  private readonly cellData = new Float32Array((MAX_CELLS * GRID_CELL_BYTES) / 4);
  private canvas: HTMLCanvasElement | null = null;
  private context: GPUCanvasContext | null = null;
  /** Thumbnails drawn in the last grid frame. */
  drawnCells = 0;

  constructor(
    private readonly session: GpuSession,
    private readonly view: GridView,
  ) {
    const { device, kit, format } = session;
    this.atlas = new ThumbAtlas(device);
    this.viewBuffer = device.createBuffer({
      label: 'grid view',
      size: GRID_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.cellBuffer = device.createBuffer({
      label: 'grid cells',
      size: this.cellData.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    this.viewGroup = device.createBindGroup({
      layout: kit.gridViewLayout,
      entries: [
        { binding: 0, resource: { buffer: this.viewBuffer } },
        { binding: 1, resource: { buffer: this.cellBuffer } },
      ],
    });
    this.atlasGroup = device.createBindGroup({
      layout: kit.imageLayout,
      entries: [{ binding: 0, resource: this.atlas.texture.createView() }],
    });
    // warm the pipelines so the first frame does not compile
    kit.grid(format);
    kit.mip();
    kit.assemble();
  }

  attach(canvas: HTMLCanvasElement): void {
    this.canvas = canvas;
    this.context = canvas.getContext('webgpu') as GPUCanvasContext;
    this.context.configure({
      device: this.session.device,
      format: this.session.format,
      alphaMode: 'opaque',
      usage: GPUTextureUsage.RENDER_ATTACHMENT | GPUTextureUsage.COPY_SRC,
    });
  }

  detach(): void {
    this.context?.unconfigure();
    this.context = null;
    this.canvas = null;
  }

  putThumbnail(fileId: string, t: Thumbnail): void {
    this.atlas.put(fileId, t, this.view.pinned);
  }

  /** Encodes one grid frame; the canvas texture drawn. */
  encode(encoder: GPUCommandEncoder): GPUTexture | null {
    if (!this.canvas || !this.context) return null;
    const { device, kit, format } = this.session;
    const n = this.packCells();
    packGridView(this.block, this.view.display, this.canvas.width, this.canvas.height, BACKGROUND);
    device.queue.writeBuffer(this.viewBuffer, 0, this.block.bytes);
    if (n) device.queue.writeBuffer(this.cellBuffer, 0, this.cellData.buffer, 0, n * GRID_CELL_BYTES);
    const texture = this.context.getCurrentTexture();
    const pass = encoder.beginRenderPass({
      label: 'grid',
      colorAttachments: [
        {
          view: texture.createView(),
          loadOp: 'clear',
          storeOp: 'store',
          clearValue: { r: BACKGROUND, g: BACKGROUND, b: BACKGROUND, a: 1 },
        },
      ],
    });
    if (n) {
      pass.setPipeline(kit.grid(format));
      pass.setBindGroup(0, this.viewGroup);
      pass.setBindGroup(1, this.atlasGroup);
      pass.setBindGroup(2, kit.staticBindGroup);
      pass.draw(4, n);
    }
    pass.end();
    return texture;
  }

  /** Each visible cell that has a thumbnail: where it goes (fitted, aspect kept) and where it is in the atlas. */
  private packCells(): number {
    let n = 0;
    for (const c of this.view.cells) {
      if (n >= MAX_CELLS) break;
      const slot = this.atlas.get(c.fileId);
      if (!slot) continue;
      const s = Math.min(c.widthPx / slot.widthPx, c.heightPx / slot.heightPx);
      const w = slot.widthPx * s,
        h = slot.heightPx * s;
      const d = this.cellData,
        o = n * 8;
      d[o] = c.xPx + (c.widthPx - w) / 2;
      d[o + 1] = c.yPx + (c.heightPx - h) / 2;
      d[o + 2] = w;
      d[o + 3] = h;
      d[o + 4] = slot.xPx;
      d[o + 5] = slot.yPx;
      d[o + 6] = slot.widthPx;
      d[o + 7] = slot.heightPx;
      n++;
    }
    this.drawnCells = n;
    return n;
  }

  destroy(): void {
    this.atlas.destroy();
    this.viewBuffer.destroy();
    this.cellBuffer.destroy();
  }

  /** At dispose: the canvas lets go of the device. */
  release(): void {
    this.context?.unconfigure();
  }
}
