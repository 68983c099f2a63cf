// Starts the engine the preview and grid draw with: WebGPU where an adapter is found, else the CPU fallback, and why.
import { CpuEngine } from '../cpu/cpu-engine.js';
import { NoWebGpuError } from '../gpu/device.js';
import { GpuEngine } from '../gpu/engine.js';
import type { ViewEngine } from '../gpu/view-engine.js';

export async function startEngine(): Promise<{ engine: ViewEngine; path: 'gpu' | 'cpu'; reason: string }> {
  try {
    return { engine: await GpuEngine.create(), path: 'gpu', reason: 'WebGPU adapter found' };
  } catch (e) {
    const reason = e instanceof NoWebGpuError ? e.reason : `WebGPU failed to start: ${String(e)}`;
    return { engine: new CpuEngine(reason), path: 'cpu', reason };
  }
}
