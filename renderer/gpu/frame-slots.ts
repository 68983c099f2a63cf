// The ring of textures a playing sequence goes through: each slot holds one frame's planes and its layer's MIP chain.
//
// Frames of a sequence share size and channels, so a slot's textures are made once and written again for every frame
// that passes through it: no texture is created or destroyed per frame (fresh GPU memory is as slow to touch as fresh
// RAM on a software adapter). The planes go up through the engine's staging ring; the layer is assembled and reduced
// into the slot's own MIP chain in the same submission order, so nothing waits on the CPU side.
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import { createLayerTexture, encodeMips, type DummyPlanes, type LayerTexture } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import { encodeLayerSource } from './layer-source.js';
import { GpuImage } from './gpu-image.js';
import type { LayerChoice } from '../model/layer-choice.js';
import type { GpuTimer } from './gpu-timer.js';
import { planeFormat, type PlaneUploader, type UploadedPlane } from './plane-uploader.js';

export interface FrameSlotsDevice {
  device: GPUDevice;
  kit: ShaderKit;
  dummies: DummyPlanes;
  uploader: PlaneUploader;
  /** Times the layer build (assemble + MIP) where the adapter has timestamps. */
  buildTimer?: GpuTimer | null;
}

export interface SlotFill {
  /** CPU time of the upload call (staging copy, encode, submit) and of it the copy into staging memory. */
  uploadMs: number;
  cpuCopyMs: number;
  waitMs: number;
  bytes: number;
  /** GPU time of the last timed layer build (NaN without timestamps). */
  buildGpuMs: number;
}

interface Slot {
  planes: Map<string, UploadedPlane>;
  layer: LayerTexture | null;
  image: GpuImage | null;
}

export class FrameSlots {
  private readonly slots: Slot[];
  /** Called once when the device goes, with every slot's textures: the player lets its frames in them go. */
  onLost: (() => void) | null = null;

  constructor(
    private readonly gpu: FrameSlotsDevice,
    count: number,
  ) {
    this.slots = Array.from({ length: count }, () => ({ planes: new Map(), layer: null, image: null }));
  }

  get count(): number {
    return this.slots.length;
  }

  get device(): GPUDevice {
    return this.gpu.device;
  }

  /** Writes a decoded frame into slot `index` and builds the layer `choice` from it. */
  async fill(
    index: number,
    image: Pick<DecodedImage, 'planes' | 'dataWindow' | 'displayWindow' | 'widthPx' | 'heightPx'>,
    choice: LayerChoice,
  ): Promise<SlotFill> {
    const slot = this.slots[index]!;
    const { device, kit, dummies, uploader } = this.gpu;
    const targets = image.planes.map((plane) => ({ plane, texture: this.planeTexture(slot, plane).texture }));
    const up = await uploader.uploadInto(targets);
    if (!slot.layer || slot.layer.widthPx !== image.widthPx || slot.layer.heightPx !== image.heightPx) {
      slot.layer?.texture.destroy();
      slot.layer = createLayerTexture(kit, image.widthPx, image.heightPx, `frame slot ${index}`);
    }
    slot.image = new GpuImage(image);
    const timer = this.gpu.buildTimer ?? null;
    const encoder = device.createCommandEncoder({ label: 'frame slot layer' });
    const uniform = encodeLayerSource(
      kit,
      encoder,
      choice,
      (name) => slot.planes.get(name) ?? null,
      { originX: image.dataWindow[0], originY: image.dataWindow[1], widthPx: image.widthPx, heightPx: image.heightPx },
      slot.layer.texture,
      dummies,
      timer?.beginOnly(),
    );
    encodeMips(kit, encoder, slot.layer.texture, timer?.endOnly());
    const timed = !!timer?.begin();
    if (timed) timer!.resolve(encoder);
    device.queue.submit([encoder.finish()]);
    if (timed) timer!.collect();
    uniform.destroy();
    return { uploadMs: up.callMs, cpuCopyMs: up.cpuCopyMs, waitMs: up.waitMs, bytes: up.bytes, buildGpuMs: timer?.lastMs ?? NaN };
  }

  /** What slot `index` shows: the frame's geometry and its layer's MIP chain (null before its first fill). */
  frame(index: number): { image: GpuImage; layer: LayerTexture } | null {
    const slot = this.slots[index]!;
    return slot.image && slot.layer ? { image: slot.image, layer: slot.layer } : null;
  }

  /** The slot's texture for a plane: kept while frames keep its size and type, made again when they change. */
  private planeTexture(slot: Slot, plane: DecodedPlane): UploadedPlane {
    const f = planeFormat(plane.pixelType);
    const width = Math.max(1, plane.widthSamples);
    const height = Math.max(1, plane.heightSamples);
    const held = slot.planes.get(plane.name);
    if (
      held &&
      held.texture.width === width &&
      held.texture.height === height &&
      held.texture.format === f.format &&
      held.xSampling === plane.xSampling &&
      held.ySampling === plane.ySampling
    )
      return held;
    held?.texture.destroy();
    const texture = this.gpu.device.createTexture({
      label: `frame plane ${plane.name}`,
      size: { width, height },
      format: f.format,
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    });
    const made: UploadedPlane = {
      name: plane.name,
      texture,
      kind: f.kind,
      xSampling: plane.xSampling,
      ySampling: plane.ySampling,
      bytes: plane.widthSamples * plane.heightSamples * f.bytes,
    };
    slot.planes.set(plane.name, made);
    return made;
  }

  /** The device is lost: nothing here can be drawn or written any more (the engine makes new slots on the next one). */
  lost(): void {
    const onLost = this.onLost;
    this.onLost = null;
    onLost?.();
  }

  destroy(): void {
    for (const slot of this.slots) {
      for (const p of slot.planes.values()) p.texture.destroy();
      slot.layer?.texture.destroy();
      slot.planes.clear();
      slot.layer = null;
      slot.image = null;
    }
  }
}
