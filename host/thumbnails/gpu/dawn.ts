// WebGPU in Node through Dawn's `webgpu` package: the globals shaders/ needs, a device, and the Vulkan environment a child needs.
import { existsSync, readdirSync } from 'node:fs';

/** Adapter names as calibrations are keyed: description if the driver gives one, else vendor/architecture/device. */
export interface DawnAdapter {
  key: string;
  vendor: string;
  architecture: string;
  device: string;
  description: string;
}

/**
 * Every `GPU` object created stays referenced here for the life of the process. dawn.node schedules
 * `Instance::ProcessEvents` on its own and does not keep the instance alive: once the `GPU` object is
 * garbage-collected, the next tick locks a freed mutex and aborts the process (bench/gpu/NOTES.md, the crash of
 * ../shared/GPU.md). Never let one go.
 */
const liveInstances: unknown[] = [];

let globalsInstalled = false;

/** Installs GPUBufferUsage & co. on globalThis: shaders/ reads them when its modules load, so call this first. */
export async function loadDawn(): Promise<typeof import('webgpu')> {
  const webgpu = await import('webgpu');
  if (!globalsInstalled) {
    Object.assign(globalThis, webgpu.globals);
    globalsInstalled = true;
  }
  return webgpu;
}

export async function openDawnDevice(): Promise<{ device: GPUDevice; adapter: DawnAdapter }> {
  const { create } = await loadDawn();
  const gpu = create([]);
  liveInstances.push(gpu);
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) throw new Error('no WebGPU adapter (no Vulkan driver found)');
  const requiredLimits: Record<string, number> = {};
  // large images need large staging buffers and textures: ask for what the adapter has
  for (const k of ['maxBufferSize', 'maxTextureDimension2D']) {
    const v = (adapter.limits as unknown as Record<string, number>)[k];
    if (typeof v === 'number') requiredLimits[k] = v;
  }
  const device = await adapter.requestDevice({ requiredLimits });
  const info = adapter.info as unknown as Record<string, string | undefined>;
  const a = {
    vendor: info.vendor ?? '',
    architecture: info.architecture ?? '',
    device: info.device ?? '',
    description: info.description ?? '',
  };
  const key = a.description || [a.vendor, a.architecture, a.device].filter(Boolean).join(' ') || 'unknown adapter';
  return { device, adapter: { key, ...a } };
}

/**
 * The environment for a process that opens Dawn: as given when a Vulkan driver is configured or installed, else the
 * software driver (SwiftShader) that Debian's chromium ships, when present. LD_LIBRARY_PATH must be set before the
 * process starts, which is why this is for a child.
 */
export function dawnChildEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  if (base.VK_ICD_FILENAMES || base.VK_DRIVER_FILES) return base;
  const icdDirs = ['/usr/share/vulkan/icd.d', '/etc/vulkan/icd.d', '/usr/local/share/vulkan/icd.d'];
  const hasIcd = icdDirs.some((d) => existsSync(d) && readdirSync(d).some((f) => f.endsWith('.json')));
  const swiftshader = '/usr/lib/chromium/vk_swiftshader_icd.json';
  if (hasIcd || !existsSync(swiftshader)) return base;
  return { ...base, VK_ICD_FILENAMES: swiftshader, LD_LIBRARY_PATH: ['/usr/lib/chromium', base.LD_LIBRARY_PATH].filter(Boolean).join(':') };
}

/**
 * A rasteriser that runs on the CPU (SwiftShader, llvmpipe/lavapipe): it shares the cores the CPU
 * path would use, and measured slower at every thumbnail size (bench/results/swiftshader-*.json),
 * so `--gpu auto` skips it rather than spending seconds calibrating it.
 */
export function isSoftwareAdapter(adapter: DawnAdapter): boolean {
  const text = `${adapter.vendor} ${adapter.device} ${adapter.description} ${adapter.key}`.toLowerCase();
  return /swiftshader|llvmpipe|lavapipe|software/.test(text);
}
