// The depth-range pass on a GPUDevice: the packed deep samples uploaded once (storage buffers), then range.wgsl run
// into an rgba32float texture each time the range moves: a 48-byte uniform write, no sample upload.
import rangeSrc from './range.wgsl';
import type { DepthRange } from './range-composite.js';
import type { PackedDeepSamples } from './range-pack.js';

const PARAMS_BYTES = 48;
export type RangeWorkgroup = readonly [number, number];

/** Samples on the device: made once per image and layer by `uploadDeepSamples`. */
export interface DeepSampleBuffers {
  widthPx: number;
  heightPx: number;
  offsets: GPUBuffer;
  samples: GPUBuffer;
  modes: PackedDeepSamples['modes'];
  bytes: number;
  destroy(): void;
}

/** Uploads packed samples; throws with the reason when they are larger than one storage binding of this device. */
export function uploadDeepSamples(device: GPUDevice, packed: PackedDeepSamples): DeepSampleBuffers {
  const limit = device.limits.maxStorageBufferBindingSize;
  if (packed.samples.byteLength > limit) {
    throw new Error(
      `the deep samples take ${(packed.samples.byteLength / 2 ** 20).toFixed(0)} MiB, more than this GPU binds at once ` +
        `(${(limit / 2 ** 20).toFixed(0)} MiB): the depth range cannot be shown for this image; its flattened view still can`,
    );
  }
  const buffer = (label: string, data: Uint32Array<ArrayBuffer> | Float32Array<ArrayBuffer>): GPUBuffer => {
    const b = device.createBuffer({ label, size: Math.max(4, data.byteLength), usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
    if (data.byteLength) device.queue.writeBuffer(b, 0, data);
    return b;
  };
  const offsets = buffer('deep sample offsets', packed.offsets);
  const samples = buffer('deep samples', packed.samples);
  return {
    widthPx: packed.widthPx,
    heightPx: packed.heightPx,
    offsets,
    samples,
    modes: packed.modes,
    bytes: offsets.size + samples.size,
    destroy: () => {
      offsets.destroy();
      samples.destroy();
    },
  };
}

export class DeepRangePass {
  private readonly layout: GPUBindGroupLayout;
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly params: GPUBuffer;

  constructor(private readonly device: GPUDevice) {
    const compute = GPUShaderStage.COMPUTE;
    this.layout = device.createBindGroupLayout({
      label: 'deep range',
      entries: [
        { binding: 0, visibility: compute, buffer: { type: 'uniform', minBindingSize: PARAMS_BYTES } },
        { binding: 1, visibility: compute, buffer: { type: 'read-only-storage' } },
        { binding: 2, visibility: compute, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: compute, storageTexture: { access: 'write-only', format: 'rgba32float' } },
      ],
    });
    this.params = device.createBuffer({
      label: 'deep range params',
      size: PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
  }

  private pipeline(workgroup: RangeWorkgroup): GPUComputePipeline {
    const key = workgroup.join('x');
    let p = this.pipelines.get(key);
    if (!p) {
      p = this.device.createComputePipeline({
        label: `deep range ${key}`,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.layout] }),
        compute: {
          module: this.device.createShaderModule({ label: 'deep range', code: rangeSrc }),
          entryPoint: 'main',
          constants: { WG_X: workgroup[0], WG_Y: workgroup[1] },
        },
      });
      this.pipelines.set(key, p);
    }
    return p;
  }

  /** Composites `range` of `deep` into level 0 of `dst` (rgba32float, the deep image's size). */
  encode(
    encoder: GPUCommandEncoder,
    deep: DeepSampleBuffers,
    range: DepthRange,
    grey: boolean,
    dst: GPUTexture,
    workgroup: RangeWorkgroup = [8, 8],
  ): void {
    const block = new ArrayBuffer(PARAMS_BYTES);
    const u = new Uint32Array(block);
    const f = new Float32Array(block);
    u[0] = deep.widthPx;
    u[1] = deep.heightPx;
    f[2] = range.near;
    f[3] = range.far;
    u.set(deep.modes, 4);
    u[8] = grey ? 1 : 0;
    this.device.queue.writeBuffer(this.params, 0, block);
    const group = this.device.createBindGroup({
      label: 'deep range',
      layout: this.layout,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: { buffer: deep.offsets } },
        { binding: 2, resource: { buffer: deep.samples } },
        { binding: 3, resource: dst.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
      ],
    });
    const pass = encoder.beginComputePass({ label: 'deep range' });
    pass.setPipeline(this.pipeline(workgroup));
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(deep.widthPx / workgroup[0]), Math.ceil(deep.heightPx / workgroup[1]));
    pass.end();
  }

  destroy(): void {
    this.params.destroy();
  }
}
