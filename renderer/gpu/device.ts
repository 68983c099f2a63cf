// Finds a WebGPU adapter and device, asking for the optional features the engine uses; says why when there is none.

export interface GpuDeviceInfo {
  device: GPUDevice;
  adapterDescription: string;
  adapterFeatures: string[];
  hasTimestamps: boolean;
}

export class NoWebGpuError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'NoWebGpuError';
  }
}

export async function requestGpuDevice(): Promise<GpuDeviceInfo> {
  const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
  if (!gpu) {
    const secure = typeof window !== 'undefined' && window.isSecureContext;
    throw new NoWebGpuError(
      secure ? 'this browser has no WebGPU (navigator.gpu is missing)' : 'WebGPU needs a secure context (https, localhost or 127.0.0.1)',
    );
  }
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new NoWebGpuError('WebGPU is present but no adapter was found (GPU blocklisted or disabled)');
  const hasTimestamps = adapter.features.has('timestamp-query');
  const requiredFeatures: GPUFeatureName[] = hasTimestamps ? ['timestamp-query'] : [];
  // lets the compute tone-map write a bgra8unorm canvas texture (engine.ts chooseToneMapPath)
  if (adapter.features.has('bgra8unorm-storage')) requiredFeatures.push('bgra8unorm-storage');
  const device = await adapter.requestDevice({
    requiredFeatures,
    requiredLimits: {
      maxTextureDimension2D: adapter.limits.maxTextureDimension2D,
      maxBufferSize: adapter.limits.maxBufferSize,
      maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize,
      // a channel expression binds each plane it reads (shaders/expressions/gpu.ts); beyond this it packs some first
      maxSampledTexturesPerShaderStage: adapter.limits.maxSampledTexturesPerShaderStage,
    },
  });
  const info = adapter.info;
  const adapterDescription =
    [info.vendor, info.architecture, info.device, info.description].filter((s) => s).join(' ') || 'unknown adapter';
  return { device, adapterDescription, adapterFeatures: [...adapter.features].map(String).sort(), hasTimestamps };
}
