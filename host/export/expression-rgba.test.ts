// Export of a channel expression: a text that does not fit the part says why and where; the RGBA is the CPU reference's.
import { describe, expect, it } from 'vitest';
import type { DecodedImage, FileEntry } from '../../contract/host-api.js';
import { compileExpression, evaluateExpression } from '../../shaders/expressions/index.js';
import { exportExpression, expressionRgba } from './expression-rgba.js';

const CHANNELS = ['diffuse.R', 'diffuse.G', 'diffuse.B', 'Z'];
const entry = {
  id: 'f',
  name: 'shot.exr',
  summary: { parts: [{ channels: CHANNELS.map((name) => ({ name, pixelType: 'float', xSampling: 1, ySampling: 1 })) }] },
} as unknown as FileEntry;

describe('export of a channel expression', () => {
  it('says what is wrong with a text that does not fit the part, and where', () => {
    expect(() => exportExpression(entry, 0, 'diffuse * depth')).toThrow(/shot.exr part 0: no channel or layer named depth.*\(at 11\)/);
  });

  it('gives the CPU reference over the decoded planes, NaN and infinities included', () => {
    const program = exportExpression(entry, 0, 'diffuse * Z - 1');
    const values = CHANNELS.map((_, k) => new Float32Array([k + 0.5, NaN, -Infinity, 2 ** -k]));
    const image = {
      widthPx: 2,
      heightPx: 2,
      planes: CHANNELS.map((name, k) => ({
        name,
        pixelType: 'float',
        xSampling: 1,
        ySampling: 1,
        widthSamples: 2,
        heightSamples: 2,
        data: values[k]!.buffer,
      })),
    } as unknown as DecodedImage;
    const compiled = compileExpression('diffuse * Z - 1', CHANNELS);
    if (!compiled.ok) throw compiled.error;
    const expected = evaluateExpression(
      compiled.program,
      compiled.program.planes.map((p) => values[CHANNELS.indexOf(p)]!),
      4,
    );
    expect(Array.from(expressionRgba(image, program))).toEqual(Array.from(expected));
    expect(expected[4]).toBeNaN();
  });
});
