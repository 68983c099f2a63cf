// Encodes a checked expression on the GPU: one compute pass reading its planes straight from the cache's plane textures
// into level 0 of the layer texture. Only planes beyond the device's sampled-texture limit are packed four to a scratch
// texture first (the assemble pass); the scratch is per device and reused, so a build creates no texture.
import { encodeAssemble, type DummyPlanes, type PlaneTexture } from '../passes.js';
import type { ShaderKit } from '../pipelines.js';
import type { ExpressionProgram } from './check.js';
import { EXPRESSION_WORKGROUP, expressionWgsl, textureBindings, uniformBytes, type PlaneRead } from './wgsl.js';

/** Where the planes sit: the data window's origin and size (the expression's output size). */
export interface ExpressionLayout {
  originX: number;
  originY: number;
  widthPx: number;
  heightPx: number;
}

const PIPELINES_KEPT = 32;
/** Uniform buffers kept by content: one per image geometry and plane sampling, so few, and never rewritten. */
const UNIFORMS_KEPT = 64;

/** Pipelines, layouts, uniforms and packing scratch of one device. */
class ExpressionResources {
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  /** Explicit layouts by binding kinds: an 'auto' layout would drop the uniform when the shader does not read it. */
  private readonly layouts = new Map<string, GPUBindGroupLayout>();
  private readonly uniforms = new Map<string, GPUBuffer>();
  private scratch: GPUTexture[] = [];

  constructor(private readonly device: GPUDevice) {}

  layout(bound: readonly ('float' | 'uint' | 'packed')[]): GPUBindGroupLayout {
    const key = bound.join(',');
    let layout = this.layouts.get(key);
    if (!layout) {
      const compute = GPUShaderStage.COMPUTE;
      const entries: GPUBindGroupLayoutEntry[] = [{ binding: 0, visibility: compute, buffer: { type: 'uniform' } }];
      bound.forEach((b, k) =>
        entries.push({ binding: k + 1, visibility: compute, texture: { sampleType: b === 'uint' ? 'uint' : 'unfilterable-float' } }),
      );
      entries.push({ binding: bound.length + 1, visibility: compute, storageTexture: { access: 'write-only', format: 'rgba32float' } });
      layout = this.device.createBindGroupLayout({ label: `channel expression, ${bound.length} inputs`, entries });
      this.layouts.set(key, layout);
    }
    return layout;
  }

  pipeline(program: ExpressionProgram, reads: readonly PlaneRead[]): GPUComputePipeline {
    const code = expressionWgsl(program, reads);
    let pipeline = this.pipelines.get(code);
    if (pipeline) {
      this.pipelines.delete(code);
      this.pipelines.set(code, pipeline);
      return pipeline;
    }
    pipeline = this.device.createComputePipeline({
      label: 'channel expression',
      layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.layout(textureBindings(reads))] }),
      compute: { module: this.device.createShaderModule({ label: 'channel expression', code }), entryPoint: 'main' },
    });
    this.pipelines.set(code, pipeline);
    if (this.pipelines.size > PIPELINES_KEPT) this.pipelines.delete(this.pipelines.keys().next().value!);
    return pipeline;
  }

  /** The uniform for `layout` and the planes' sampling; an evicted one is left to the collector (a pending encoder may hold it). */
  uniform(planes: readonly PlaneTexture[], layout: ExpressionLayout): GPUBuffer {
    const bytes = new ArrayBuffer(uniformBytes(planes.length));
    new Float32Array(bytes, 0, 2).set([NaN, Infinity]);
    const ints = new Int32Array(bytes);
    ints.set([layout.originX, layout.originY], 2);
    planes.forEach((p, k) => {
      // the first sample's index, as OpenEXR places subsampled planes: ceil(origin / sampling)
      const first = [Math.ceil(layout.originX / p.xSampling), Math.ceil(layout.originY / p.ySampling)];
      ints.set([p.xSampling, p.ySampling, first[0]!, first[1]!], 8 + 4 * k);
    });
    const key = ints.join(',');
    let buffer = this.uniforms.get(key);
    if (buffer) {
      this.uniforms.delete(key);
    } else {
      buffer = this.device.createBuffer({
        label: 'expression params',
        size: bytes.byteLength,
        usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
      });
      this.device.queue.writeBuffer(buffer, 0, bytes);
    }
    this.uniforms.set(key, buffer);
    if (this.uniforms.size > UNIFORMS_KEPT) this.uniforms.delete(this.uniforms.keys().next().value!);
    return buffer;
  }

  /**
   * Scratch texture `group`, at least `layout`'s size: grown (never per build once the largest layer is seen); the one it
   * replaces goes to `retired`, destroyed once the build is submitted.
   */
  scratchTexture(group: number, layout: ExpressionLayout, retired: GPUTexture[]): GPUTexture {
    const old = this.scratch[group];
    if (old && old.width >= layout.widthPx && old.height >= layout.heightPx) return old;
    if (old) retired.push(old);
    const texture = this.device.createTexture({
      label: `expression scratch ${group}`,
      size: { width: Math.max(layout.widthPx, old?.width ?? 0), height: Math.max(layout.heightPx, old?.height ?? 0) },
      format: 'rgba32float',
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING,
    });
    this.scratch[group] = texture;
    return texture;
  }

  releaseScratch(): void {
    for (const t of this.scratch) t.destroy();
    this.scratch = [];
  }
}

const perDevice = new WeakMap<GPUDevice, ExpressionResources>();

function resourcesOf(device: GPUDevice): ExpressionResources {
  let r = perDevice.get(device);
  if (!r) perDevice.set(device, (r = new ExpressionResources(device)));
  return r;
}

/** Frees `device`'s packing scratch (only made for expressions over more planes than the device binds); call once idle. */
export function releaseExpressionScratch(device: GPUDevice): void {
  perDevice.get(device)?.releaseScratch();
}

/**
 * How each of `planes` is read: directly, as many as the limit leaves room for beside the packed textures the rest need
 * (four planes each); the last ones packed.
 */
export function planeReads(planes: readonly PlaneTexture[], maxSampledTextures: number): PlaneRead[] {
  const n = planes.length;
  let direct = Math.min(n, maxSampledTextures);
  while (direct > 0 && direct + Math.ceil((n - direct) / 4) > maxSampledTextures) direct--;
  return planes.map((p, k) =>
    k < direct
      ? { from: 'plane', kind: p.kind, subsampled: p.xSampling !== 1 || p.ySampling !== 1 }
      : { from: 'packed', group: Math.floor((k - direct) / 4), component: (k - direct) % 4 },
  );
}

/** One pass's timestamp writes from the build's first (begin) and last (end). */
function merged(first?: GPUComputePassTimestampWrites, last?: GPUComputePassTimestampWrites): GPUComputePassTimestampWrites | undefined {
  if (!first || !last || first.querySet !== last.querySet) return last ?? first;
  return {
    querySet: last.querySet,
    beginningOfPassWriteIndex: first.beginningOfPassWriteIndex,
    endOfPassWriteIndex: last.endOfPassWriteIndex,
  };
}

/**
 * Encodes `program` over `planes` (program.planes' textures, in order) into level 0 of `dst` (rgba32float, the layout's
 * size). `timestamps.first` go to the first pass, `.last` to the expression pass. Returns what to destroy once submitted.
 */
export function encodeExpression(
  kit: ShaderKit,
  encoder: GPUCommandEncoder,
  program: ExpressionProgram,
  planes: readonly PlaneTexture[],
  layout: ExpressionLayout,
  dst: GPUTexture,
  dummies: DummyPlanes,
  timestamps: { first?: GPUComputePassTimestampWrites; last?: GPUComputePassTimestampWrites } = {},
): { destroy(): void } {
  const device = kit.device;
  const own = resourcesOf(device);
  const reads = planeReads(planes, device.limits.maxSampledTexturesPerShaderStage);
  const pipeline = own.pipeline(program, reads);
  const made: { destroy(): void }[] = [];
  const retired: GPUTexture[] = [];
  const direct: GPUTextureView[] = [];
  const packed: GPUTextureView[] = [];
  reads.forEach((r, k) => {
    if (r.from === 'plane') direct.push(planes[k]!.texture.createView());
    else if (r.component === 0) {
      const scratch = own.scratchTexture(r.group, layout, retired);
      const slots = [0, 1, 2, 3].map((c) => planes[k + c] ?? null);
      const first = packed.length === 0 ? timestamps.first : undefined;
      made.push(encodeAssemble(kit, encoder, { slots, mode: 'direct', ...layout }, scratch, dummies, first));
      packed.push(scratch.createView());
    }
  });
  const views = [...direct, ...packed];
  const entries: GPUBindGroupEntry[] = [{ binding: 0, resource: { buffer: own.uniform(planes, layout) } }];
  views.forEach((view, k) => entries.push({ binding: k + 1, resource: view }));
  entries.push({ binding: views.length + 1, resource: dst.createView({ baseMipLevel: 0, mipLevelCount: 1 }) });
  const bindGroup = device.createBindGroup({ label: 'channel expression', layout: own.layout(textureBindings(reads)), entries });
  const ts = packed.length ? timestamps.last : merged(timestamps.first, timestamps.last);
  const pass = encoder.beginComputePass(ts ? { label: 'channel expression', timestampWrites: ts } : { label: 'channel expression' });
  pass.setPipeline(pipeline);
  pass.setBindGroup(0, bindGroup);
  pass.dispatchWorkgroups(Math.ceil(layout.widthPx / EXPRESSION_WORKGROUP), Math.ceil(layout.heightPx / EXPRESSION_WORKGROUP));
  pass.end();
  return { destroy: () => [...made, ...retired].forEach((m) => m.destroy()) };
}
