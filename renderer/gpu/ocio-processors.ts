// The GPU builds of the OCIO processors the view has shown, by key: a view switched back to (or a device lost and
// found again) reuses its WGSL and baked LUTs instead of baking them again.
import { buildGpuProcessor, type GpuProcessor } from '../../shaders/colour/gpu/index.js';
import type { OcioDisplay } from '../../shaders/display-params.js';

/** Processors kept: a config's views and looks flipped through, without holding every baked LUT ever made. */
const KEPT = 8;
const built = new Map<string, GpuProcessor>();

export function gpuProcessorFor(ocio: OcioDisplay | null | undefined): GpuProcessor | null {
  if (!ocio) return null;
  let p = built.get(ocio.key);
  if (p) built.delete(ocio.key);
  else p = buildGpuProcessor(ocio.ops);
  built.set(ocio.key, p); // most recent last
  if (built.size > KEPT) built.delete(built.keys().next().value!);
  return p;
}
