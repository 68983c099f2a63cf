// Export of a channel expression's result: checked against the part's channels and evaluated by the CPU reference
// (shaders/expressions), the same float32 values the viewer's GPU pass shows.
import { compileExpression, evaluateExpression, type ExpressionProgram } from '../../shaders/expressions/index.js';
import { HALF_TO_FLOAT } from '../../codec/index.js';
import type { DecodedImage, FileEntry } from '../../contract/host-api.js';
import { planeSamples } from '../decode/plane-bytes.js';

/** The program of `text` over the part's channels; an Error saying what is wrong with it where it does not check. */
export function exportExpression(entry: FileEntry, part: number, text: string): ExpressionProgram {
  const channels = entry.summary?.parts[part]?.channels.map((c) => c.name) ?? [];
  const compiled = compileExpression(text, channels);
  if (!compiled.ok)
    throw new Error(
      `the expression "${text}" does not fit ${entry.name} part ${part}: ${compiled.error.message} (at ${compiled.error.start + 1})`,
    );
  return compiled.program;
}

/** Interleaved RGBA float32 of the program over the decoded image (its planes: at least the program's). */
export function expressionRgba(image: DecodedImage, program: ExpressionProgram): Float32Array {
  const { widthPx, heightPx } = image;
  const planes = program.planes.map((name) => {
    const plane = image.planes.find((p) => p.name === name);
    const out = new Float32Array(widthPx * heightPx);
    if (!plane) return out;
    const samples = planeSamples(plane);
    const half = plane.pixelType === 'half';
    // subsampled planes are read nearest-sample, as the viewer's assemble pass reads them
    for (let y = 0, i = 0; y < heightPx; y++)
      for (let x = 0; x < widthPx; x++, i++) {
        const v = samples[Math.floor(y / plane.ySampling) * plane.widthSamples + Math.floor(x / plane.xSampling)]!;
        out[i] = half ? HALF_TO_FLOAT[v]! : v;
      }
    return out;
  });
  return evaluateExpression(program, planes, widthPx * heightPx);
}
