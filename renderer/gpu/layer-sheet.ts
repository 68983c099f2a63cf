// The Layers view on the GPU: every layer of an image drawn side by side into the preview canvas by the thumbnail
// grid's pipeline (same tone-map, so the layers are tone-mapped together), each tile from the MIP level nearest its size.
import { GRID_CELL_BYTES, GRID_VIEW_BYTES, UniformBlock, packGridView } from '../../shaders/layouts.js';
import type { DisplayParams } from '../../shaders/display-params.js';
import type { LayerTexture } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import type { SheetTile } from './sheet-layout.js';

const MAX_TILES = 256;

export class LayerSheet {
  private readonly viewBuffer: GPUBuffer;
  private readonly cellBuffer: GPUBuffer;
  private readonly group: GPUBindGroup;
  private readonly block = new UniformBlock(GRID_VIEW_BYTES);
  private readonly cells = new Float32Array((MAX_TILES * GRID_CELL_BYTES) / 4);
  /** Per tile: the bind group of the MIP level drawn (made when the tiles change, not per frame). */
  private tiles: { tile: SheetTile; group: GPUBindGroup; level: number; layer: LayerTexture }[] = [];

  constructor(private readonly kit: ShaderKit) {
    const d = kit.device;
    this.viewBuffer = d.createBuffer({
      label: 'sheet view',
      size: GRID_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.cellBuffer = d.createBuffer({
      label: 'sheet cells',
      size: this.cells.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    this.group = d.createBindGroup({
      label: 'sheet',
      layout: kit.gridViewLayout,
      entries: [
        { binding: 0, resource: { buffer: this.viewBuffer } },
        { binding: 1, resource: { buffer: this.cellBuffer } },
      ],
    });
  }

  get active(): boolean {
    return this.tiles.length > 0;
  }

  /** The layers and where each goes (device px); empty ends the view. */
  set(layers: readonly LayerTexture[], tiles: readonly SheetTile[]): void {
    this.tiles = layers.slice(0, MAX_TILES).map((layer, i) => {
      const tile = tiles[i]!;
      // the largest level still at least the tile's size: nearest sampling from it stays sharp without aliasing much
      let level = 0;
      while (level < layer.levelCount - 1 && Math.max(1, layer.widthPx >> (level + 1)) >= tile.widthPx) level++;
      const group = this.kit.device.createBindGroup({
        label: 'sheet tile',
        layout: this.kit.imageLayout,
        entries: [{ binding: 0, resource: layer.texture.createView({ baseMipLevel: level, mipLevelCount: 1 }) }],
      });
      return { tile, group, level, layer };
    });
  }

  encode(
    encoder: GPUCommandEncoder,
    view: GPUTextureView,
    format: GPUTextureFormat,
    display: DisplayParams,
    canvasWidthPx: number,
    canvasHeightPx: number,
    background: number,
  ): void {
    this.tiles.forEach(({ tile, level, layer }, i) => {
      const o = i * 8;
      this.cells.set(
        [tile.xPx, tile.yPx, tile.widthPx, tile.heightPx, 0, 0, Math.max(1, layer.widthPx >> level), Math.max(1, layer.heightPx >> level)],
        o,
      );
    });
    packGridView(this.block, display, canvasWidthPx, canvasHeightPx, background);
    const q = this.kit.device.queue;
    q.writeBuffer(this.viewBuffer, 0, this.block.bytes);
    if (this.tiles.length) q.writeBuffer(this.cellBuffer, 0, this.cells.buffer, 0, this.tiles.length * GRID_CELL_BYTES);
    const pass = encoder.beginRenderPass({
      label: 'layers sheet',
      colorAttachments: [{ view, loadOp: 'clear', storeOp: 'store', clearValue: { r: background, g: background, b: background, a: 1 } }],
    });
    pass.setPipeline(this.kit.grid(format));
    pass.setBindGroup(0, this.group);
    pass.setBindGroup(2, this.kit.staticBindGroup);
    this.tiles.forEach((t, i) => {
      pass.setBindGroup(1, t.group);
      pass.draw(4, 1, 0, i);
    });
    pass.end();
  }

  destroy(): void {
    this.viewBuffer.destroy();
    this.cellBuffer.destroy();
  }
}
