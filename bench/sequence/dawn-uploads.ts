// Uploads for the sequence bench on a real GPU through Dawn: the renderer's frame slots (staging ring, slot textures,
// assemble and MIP passes), each frame counted as uploaded once the GPU has finished it. `webgpu` is loaded only here.
import type { DecodedImage } from '../../contract/host-api.js';
import { DummyPlanes } from '../../shaders/passes.js';
import { ShaderKit } from '../../shaders/pipelines.js';
import { FrameSlots } from '../../renderer/gpu/frame-slots.js';
import { GpuTimer } from '../../renderer/gpu/gpu-timer.js';
import { createPlaneUploader } from '../../renderer/gpu/plane-uploader.js';
import type { Uploads } from './node-io.js';

/** dawn.node does not keep its instance alive by itself (bench/gpu/dawn.ts says why): every one stays referenced here. */
const liveInstances: unknown[] = [];

export async function dawnUploads(slotCount: number): Promise<Uploads> {
  let webgpu: { create(flags: string[]): GPU; globals: Record<string, unknown> };
  try {
    webgpu = (await import('webgpu')) as unknown as typeof webgpu;
  } catch (error) {
    throw new Error(
      `--upload dawn needs the webgpu package (npm install, or .gpu/ from ../shared/tools/gpu-kit.sh): ${(error as Error).message}`,
    );
  }
  Object.assign(globalThis, webgpu.globals);
  const gpu = webgpu.create(['disable-dawn-features=timestamp_quantization']);
  liveInstances.push(gpu);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter: is a Vulkan driver visible? (see ../shared/GPU.md)');
  const timestamps = adapter.features.has('timestamp-query');
  const requiredLimits: Record<string, number> = {};
  for (const k of ['maxBufferSize', 'maxStorageBufferBindingSize'])
    requiredLimits[k] = (adapter.limits as unknown as Record<string, number>)[k]!;
  const device = await adapter.requestDevice({ requiredFeatures: timestamps ? ['timestamp-query'] : [], requiredLimits });
  const kit = new ShaderKit(device);
  kit.assemble();
  kit.mip();
  const uploader = await createPlaneUploader(device);
  const buildTimer = timestamps ? new GpuTimer(device, 'frame build') : null;
  const slots = new FrameSlots({ device, kit, dummies: new DummyPlanes(device), uploader, buildTimer }, slotCount);
  const choice = { slots: ['R', 'G', 'B', 'A'], mode: 'direct' as const };
  const info = adapter.info as unknown as Record<string, string | undefined>;
  let gpuWaitMs = 0;
  let frames = 0;
  return {
    kind: 'dawn',
    async upload(slot, image: DecodedImage) {
      const t0 = performance.now();
      const fill = await slots.fill(slot, image, choice);
      // the frame is up only once the copies and the layer build have run on the GPU
      const tWait = performance.now();
      await device.queue.onSubmittedWorkDone();
      gpuWaitMs += performance.now() - tWait;
      frames++;
      return { uploadMs: performance.now() - t0, buildMs: fill.buildGpuMs };
    },
    describe: () => ({
      kind: 'dawn: staging ring into frame slot textures, assemble + MIP, until the GPU is done',
      adapter: info.description || [info.vendor, info.architecture, info.device].filter(Boolean).join(' '),
      uploader: uploader.name,
      timestamps,
      meanGpuWaitMs: frames ? Number((gpuWaitMs / frames).toFixed(2)) : null,
    }),
  };
}
