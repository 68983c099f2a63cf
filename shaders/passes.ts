// Device-agnostic GPU work on one image: assemble a layer from its planes, build its MIP chain, count its histogram.
import { ASSEMBLE_BYTES, UniformBlock, packAssemble, type AssembleMode, type AssembleSlot } from './layouts.js';
import { MIP_FORMAT, MIP_WORKGROUP, TONEMAP_WORKGROUP, type ShaderKit, type WorkgroupShape } from './pipelines.js';
import { HIST_BINS } from './display-params.js';
import { mipChainBytes, mipLevelCount, nextLevelSize } from './tonemap-cpu.js';

/** assemble.wgsl and histogram.wgsl declare @workgroup_size(8, 8). */
const WG = 8;

/** A plane on the GPU: r16float / r32float / r32uint, one texel per sample. */
export interface PlaneTexture {
  texture: GPUTexture;
  kind: 'float' | 'uint';
  xSampling: number;
  ySampling: number;
}

export interface LayerSource {
  /** R, G, B, A slots; null: constant (0 for colour, 1 for alpha). */
  slots: readonly (PlaneTexture | null)[];
  mode: AssembleMode;
  originX: number;
  originY: number;
  widthPx: number;
  heightPx: number;
}

/** A layer's MIP chain with what it takes to draw it; bind groups made once here, never per frame. */
export interface LayerTexture {
  texture: GPUTexture;
  levelCount: number;
  widthPx: number;
  heightPx: number;
  bytes: number;
  imageBindGroup: GPUBindGroup;
}

export function createMipTexture(device: GPUDevice, widthPx: number, heightPx: number, label: string): GPUTexture {
  return device.createTexture({
    label,
    size: { width: widthPx, height: heightPx },
    mipLevelCount: mipLevelCount(widthPx, heightPx),
    format: MIP_FORMAT,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC,
  });
}

export function layerBindGroup(kit: ShaderKit, texture: GPUTexture): GPUBindGroup {
  return kit.device.createBindGroup({ label: 'image', layout: kit.imageLayout, entries: [{ binding: 0, resource: texture.createView() }] });
}

/** A layer's MIP chain, empty, with its bind group and size: what assembling a layer, a view or a frame slot fills. */
export function createLayerTexture(kit: ShaderKit, widthPx: number, heightPx: number, label: string): LayerTexture {
  const texture = createMipTexture(kit.device, widthPx, heightPx, label);
  return {
    texture,
    levelCount: texture.mipLevelCount,
    widthPx,
    heightPx,
    bytes: mipChainBytes(widthPx, heightPx),
    imageBindGroup: layerBindGroup(kit, texture),
  };
}

/** 1x1 textures bound to unused assemble slots. */
export class DummyPlanes {
  readonly float: GPUTexture;
  readonly uint: GPUTexture;
  constructor(device: GPUDevice) {
    this.float = device.createTexture({ label: 'dummy f32', size: [1, 1], format: 'r32float', usage: GPUTextureUsage.TEXTURE_BINDING });
    this.uint = device.createTexture({ label: 'dummy u32', size: [1, 1], format: 'r32uint', usage: GPUTextureUsage.TEXTURE_BINDING });
  }
  destroy(): void {
    this.float.destroy();
    this.uint.destroy();
  }
}

/** Encodes level 0 of `dst` from the layer's planes. The small uniform buffer it makes is returned for destruction. */
export function encodeAssemble(
  kit: ShaderKit,
  encoder: GPUCommandEncoder,
  src: LayerSource,
  dst: GPUTexture,
  dummies: DummyPlanes,
  timestampWrites?: GPUComputePassTimestampWrites,
): GPUBuffer {
  const device = kit.device;
  const block = new UniformBlock(ASSEMBLE_BYTES);
  const slots: AssembleSlot[] = [0, 1, 2, 3].map((k) => {
    const p = src.slots[k];
    return p
      ? { kind: p.kind, xSampling: p.xSampling, ySampling: p.ySampling, constant: 0 }
      : { kind: 'constant', xSampling: 1, ySampling: 1, constant: k === 3 ? 1 : 0 };
  });
  packAssemble(block, slots, src.originX, src.originY, src.widthPx, src.heightPx, src.mode);
  const uniform = device.createBuffer({
    label: 'assemble params',
    size: ASSEMBLE_BYTES,
    usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
  });
  device.queue.writeBuffer(uniform, 0, block.bytes);
  const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: uniform } }];
  for (let k = 0; k < 4; k++) {
    const p = src.slots[k];
    entries.push({ binding: 1 + k, resource: (p && p.kind === 'float' ? p.texture : dummies.float).createView() });
    entries.push({ binding: 5 + k, resource: (p && p.kind === 'uint' ? p.texture : dummies.uint).createView() });
  }
  entries.push({ binding: 9, resource: dst.createView({ baseMipLevel: 0, mipLevelCount: 1 }) });
  const bindGroup = device.createBindGroup({ label: 'assemble', layout: kit.assembleLayout, entries });
  const pass = encoder.beginComputePass(timestampWrites ? { label: 'assemble', timestampWrites } : { label: 'assemble' });
  pass.setPipeline(kit.assemble());
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(src.widthPx / WG), Math.ceil(src.heightPx / WG));
  pass.end();
  return uniform;
}

/** Encodes levels 1.. of `texture` from level 0, one dispatch per level, in one compute pass; `shape`: the workgroup. */
export function encodeMips(
  kit: ShaderKit,
  encoder: GPUCommandEncoder,
  texture: GPUTexture,
  timestampWrites?: GPUComputePassTimestampWrites,
  shape: WorkgroupShape = MIP_WORKGROUP,
): void {
  const pass = encoder.beginComputePass(timestampWrites ? { label: 'mips', timestampWrites } : { label: 'mips' });
  pass.setPipeline(kit.mip(shape));
  let w = texture.width,
    h = texture.height;
  for (let level = 1; level < texture.mipLevelCount; level++) {
    w = nextLevelSize(w);
    h = nextLevelSize(h);
    const bindGroup = kit.device.createBindGroup({
      label: `mip ${level}`,
      layout: kit.mipLayout,
      entries: [
        { binding: 0, resource: texture.createView({ baseMipLevel: level - 1, mipLevelCount: 1 }) },
        { binding: 1, resource: texture.createView({ baseMipLevel: level, mipLevelCount: 1 }) },
      ],
    });
    pass.setBindGroup(0, bindGroup);
    pass.dispatchWorkgroups(Math.ceil(w / shape[0]), Math.ceil(h / shape[1]));
  }
  pass.end();
}

/** Per-target group 3 of the compute tone-map: the storage view it writes. */
export function previewTargetBindGroup(kit: ShaderKit, target: GPUTexture): GPUBindGroup {
  return kit.device.createBindGroup({
    label: 'preview target',
    layout: kit.previewTargetLayout(target.format),
    entries: [{ binding: 0, resource: target.createView() }],
  });
}

/**
 * The preview's tone-map as a compute pass into `target` (a storage texture, canvas or not): the caller's bind
 * groups 0-2 as for the render pass, `targetGroup` from previewTargetBindGroup. Covers every target pixel.
 */
export function encodePreviewCompute(
  kit: ShaderKit,
  encoder: GPUCommandEncoder,
  target: GPUTexture,
  groups: { view: GPUBindGroup; image: GPUBindGroup; target: GPUBindGroup },
  timestampWrites?: GPUComputePassTimestampWrites,
  shape: WorkgroupShape = TONEMAP_WORKGROUP,
): void {
  const bindGroups = [groups.view, groups.image, kit.staticBindGroup, groups.target];
  encodeTargetCompute(encoder, 'tone-map (compute)', kit.previewCompute(target.format, shape), bindGroups, target, shape, timestampWrites);
}

/** A display pass's compute form (target-compute.wgsl) over every pixel of `target`, with its bind groups 0-3. */
export function encodeTargetCompute(
  encoder: GPUCommandEncoder,
  label: string,
  pipeline: GPUComputePipeline,
  bindGroups: readonly GPUBindGroup[],
  target: GPUTexture,
  shape: WorkgroupShape,
  timestampWrites?: GPUComputePassTimestampWrites,
): void {
  const pass = encoder.beginComputePass(timestampWrites ? { label, timestampWrites } : { label });
  pass.setPipeline(pipeline);
  bindGroups.forEach((group, index) => pass.setBindGroup(index, group));
  pass.dispatchWorkgroups(Math.ceil(target.width / shape[0]), Math.ceil(target.height / shape[1]));
  pass.end();
}

export const HISTOGRAM_BYTES = 4 * HIST_BINS * 4;

/** Encodes the histogram of one level of `texture` into `bins` (cleared first): [luminance, R, G, B] × 256 u32. */
export function encodeHistogram(kit: ShaderKit, encoder: GPUCommandEncoder, texture: GPUTexture, level: number, bins: GPUBuffer): void {
  encoder.clearBuffer(bins, 0, HISTOGRAM_BYTES);
  const w = Math.max(1, texture.width >> level),
    h = Math.max(1, texture.height >> level);
  const bindGroup = kit.device.createBindGroup({
    label: 'histogram',
    layout: kit.histogramLayout,
    entries: [
      { binding: 0, resource: texture.createView({ baseMipLevel: level, mipLevelCount: 1 }) },
      { binding: 1, resource: { buffer: bins, size: HISTOGRAM_BYTES } },
    ],
  });
  const pass = encoder.beginComputePass({ label: 'histogram' });
  pass.setPipeline(kit.histogram());
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(w / WG), Math.ceil(h / WG));
  pass.end();
}
