// The preview's compare pass on the engine's device: its view uniform, the pair bind group (made when A or B changes,
// never per frame) and the encode into the canvas, by the same tone-map path the preview uses.
import type { DisplayParams } from '../../shaders/display-params.js';
import { COMPARE_VIEW_BYTES, packCompareView, type CompareGeometry } from '../../shaders/compare-layouts.js';
import { CompareKit, encodeCompare } from '../../shaders/compare-kit.js';
import { PALETTE_BYTES, UniformBlock, packPalette } from '../../shaders/layouts.js';
import type { ShaderKit } from '../../shaders/pipelines.js';

export class ComparePreview {
  readonly ck: CompareKit;
  private readonly buffer: GPUBuffer;
  private readonly viewGroup: GPUBindGroup;
  private readonly block = new UniformBlock(COMPARE_VIEW_BYTES);
  private pair: { a: GPUTexture; b: GPUTexture; group: GPUBindGroup } | null = null;
  /** Pair bind groups made: one per change of A or B, not per frame (the diagnostics show it). */
  pairGroupsMade = 0;

  constructor(kit: ShaderKit) {
    this.ck = new CompareKit(kit);
    const palette = new UniformBlock(PALETTE_BYTES);
    packPalette(palette);
    this.ck.writePalette(palette);
    this.buffer = kit.device.createBuffer({
      label: 'compare view',
      size: COMPARE_VIEW_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.viewGroup = kit.device.createBindGroup({
      label: 'compare view',
      layout: this.ck.viewLayout,
      entries: [{ binding: 0, resource: { buffer: this.buffer } }],
    });
  }

  /** Warms the pipeline of the path the canvas uses, so the first compare frame does not compile. */
  warm(format: GPUTextureFormat, compute: boolean): void {
    if (compute) this.ck.compute(format);
    else this.ck.render(format);
  }

  private pairGroup(a: GPUTexture, b: GPUTexture): GPUBindGroup {
    if (this.pair?.a !== a || this.pair.b !== b) {
      this.pair = { a, b, group: this.ck.pairGroup(a, b) };
      this.pairGroupsMade++;
    }
    return this.pair.group;
  }

  /** Encodes one compare frame into the canvas texture (compute where `target` is given, else a render pass). */
  encode(
    encoder: GPUCommandEncoder,
    canvasTexture: GPUTexture,
    target: GPUBindGroup | null,
    display: DisplayParams,
    g: CompareGeometry,
    a: GPUTexture,
    b: GPUTexture,
    writes?: GPUComputePassTimestampWrites,
  ): void {
    packCompareView(this.block, display, g);
    this.ck.device.queue.writeBuffer(this.buffer, 0, this.block.bytes);
    encodeCompare(
      this.ck,
      encoder,
      canvasTexture,
      { view: this.viewGroup, pair: this.pairGroup(a, b), ...(target ? { target } : {}) },
      writes,
    );
  }

  dispose(): void {
    this.buffer.destroy();
    this.ck.dispose();
  }
}
