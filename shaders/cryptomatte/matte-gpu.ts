// Builds and encodes the Cryptomatte matte pass (matte.wgsl) for one GPUDevice: rank groups in an rgba32float array
// texture, the picked IDs in a storage buffer, the matte into an r32float storage texture. Pipelines cached by key.

import matteSrc from './matte.wgsl';
import type { CryptoId } from './hash.js';

/** Workgroup shape, passed as the shader's WG_X / WG_Y overrides. */
export type MatteWorkgroup = readonly [number, number];
export const MATTE_WORKGROUP: MatteWorkgroup = [8, 8];
export const RANKS_FORMAT: GPUTextureFormat = 'rgba32float';
export const MATTE_FORMAT: GPUTextureFormat = 'r32float';
const PARAMS_BYTES = 16;

export class MattePass {
  private readonly layout: GPUBindGroupLayout;
  private readonly pipelines = new Map<string, GPUComputePipeline>();
  private readonly params: GPUBuffer;
  private picked: GPUBuffer;

  constructor(private readonly device: GPUDevice) {
    const compute = GPUShaderStage.COMPUTE;
    this.layout = device.createBindGroupLayout({
      label: 'cryptomatte matte',
      entries: [
        { binding: 0, visibility: compute, buffer: { type: 'uniform', minBindingSize: PARAMS_BYTES } },
        { binding: 1, visibility: compute, texture: { sampleType: 'unfilterable-float', viewDimension: '2d-array' } },
        { binding: 2, visibility: compute, buffer: { type: 'read-only-storage' } },
        { binding: 3, visibility: compute, storageTexture: { access: 'write-only', format: MATTE_FORMAT } },
      ],
    });
    this.params = device.createBuffer({
      label: 'matte params',
      size: PARAMS_BYTES,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.picked = this.pickedBuffer(64);
  }

  private pickedBuffer(count: number): GPUBuffer {
    return this.device.createBuffer({
      label: 'matte picked IDs',
      size: Math.max(1, count) * 4,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
  }

  /** The pipeline for a workgroup shape, built on first use. */
  pipeline(workgroup: MatteWorkgroup = MATTE_WORKGROUP): GPUComputePipeline {
    const key = `matte ${workgroup[0]}x${workgroup[1]}`;
    let pipeline = this.pipelines.get(key);
    if (!pipeline) {
      pipeline = this.device.createComputePipeline({
        label: key,
        layout: this.device.createPipelineLayout({ bindGroupLayouts: [this.layout] }),
        compute: {
          module: this.device.createShaderModule({ label: 'cryptomatte matte', code: matteSrc }),
          entryPoint: 'main',
          constants: { WG_X: workgroup[0], WG_Y: workgroup[1] },
        },
      });
      this.pipelines.set(key, pipeline);
    }
    return pipeline;
  }

  /**
   * Encodes the matte of `picked` over `ranks` (from uploadRankGroups) into `target` (from createMatteTarget, same size).
   * Picks are written through the queue: submit the encoder before the next call.
   */
  encode(
    encoder: GPUCommandEncoder,
    ranks: GPUTexture,
    picked: readonly CryptoId[],
    target: GPUTexture,
    workgroup = MATTE_WORKGROUP,
  ): void {
    if (ranks.width !== target.width || ranks.height !== target.height)
      throw new RangeError(`the matte target is ${target.width}×${target.height}, the ranks ${ranks.width}×${ranks.height}`);
    if (this.picked.size < picked.length * 4) {
      this.picked.destroy();
      this.picked = this.pickedBuffer(picked.length);
    }
    this.device.queue.writeBuffer(this.params, 0, new Uint32Array([picked.length, 0, 0, 0]));
    if (picked.length) this.device.queue.writeBuffer(this.picked, 0, Uint32Array.from(picked));
    const group = this.device.createBindGroup({
      label: 'cryptomatte matte',
      layout: this.layout,
      entries: [
        { binding: 0, resource: { buffer: this.params } },
        { binding: 1, resource: ranks.createView({ dimension: '2d-array' }) },
        { binding: 2, resource: { buffer: this.picked } },
        { binding: 3, resource: target.createView() },
      ],
    });
    const pass = encoder.beginComputePass({ label: 'cryptomatte matte' });
    pass.setPipeline(this.pipeline(workgroup));
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(Math.ceil(target.width / workgroup[0]), Math.ceil(target.height / workgroup[1]));
    pass.end();
  }

  destroy(): void {
    this.params.destroy();
    this.picked.destroy();
  }
}

/** The rank groups (each RGBA float32 interleaved, see interleaveGroup) as one array layer each. */
export function uploadRankGroups(
  device: GPUDevice,
  groups: readonly Float32Array<ArrayBuffer>[],
  widthPx: number,
  heightPx: number,
): GPUTexture {
  const texture = device.createTexture({
    label: 'cryptomatte ranks',
    size: [widthPx, heightPx, groups.length],
    // a 2-layer texture would be taken as 2d by a default view: the bind group asks for '2d-array' explicitly
    format: RANKS_FORMAT,
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  groups.forEach((rgba, layer) =>
    device.queue.writeTexture({ texture, origin: [0, 0, layer] }, rgba, { bytesPerRow: widthPx * 16, rowsPerImage: heightPx }, [
      widthPx,
      heightPx,
      1,
    ]),
  );
  return texture;
}

/** A matte target the pass writes and a copy or a later pass reads. */
export function createMatteTarget(device: GPUDevice, widthPx: number, heightPx: number): GPUTexture {
  return device.createTexture({
    label: 'cryptomatte matte',
    size: [widthPx, heightPx],
    format: MATTE_FORMAT,
    usage: GPUTextureUsage.STORAGE_BINDING | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_SRC,
  });
}
