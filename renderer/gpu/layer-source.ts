// Level 0 of a layer's MIP chain from its planes: the assemble pass for a layer's channels, the channel expression's
// pass (shaders/expressions) for an expression pick. The one place the image cache and playback's frame slots build it.
import { encodeAssemble, type DummyPlanes, type PlaneTexture } from '../../shaders/passes.js';
import type { ShaderKit } from '../../shaders/pipelines.js';
import { encodeExpression } from '../../shaders/expressions/gpu.js';
import type { LayerChoice } from '../model/layer-choice.js';

export interface LayerPlacement {
  originX: number;
  originY: number;
  widthPx: number;
  heightPx: number;
}

/** Encodes level 0 of `dst`; `plane(name)` is the uploaded plane or null. Returns what to destroy once submitted. */
export function encodeLayerSource(
  kit: ShaderKit,
  encoder: GPUCommandEncoder,
  choice: LayerChoice,
  plane: (name: string) => PlaneTexture | null,
  placement: LayerPlacement,
  dst: GPUTexture,
  dummies: DummyPlanes,
  timestampWrites?: GPUComputePassTimestampWrites,
): { destroy(): void } {
  const program = choice.expression;
  if (program) {
    // a plane the cache lost between the check and the build reads as 0, as the assemble pass reads a missing slot
    const planes = program.planes.map(
      (name) => plane(name) ?? { texture: dummies.float, kind: 'float' as const, xSampling: 1, ySampling: 1 },
    );
    return encodeExpression(kit, encoder, program, planes, placement, dst, dummies, { first: timestampWrites });
  }
  const slots = choice.slots.map((name) => (name ? plane(name) : null));
  return encodeAssemble(kit, encoder, { slots, mode: choice.mode, ...placement }, dst, dummies, timestampWrites);
}
