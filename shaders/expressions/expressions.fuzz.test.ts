// Any text is an expression or a typed ExpressionError at a place inside it, never another throw, in bounded time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileExpression, evaluateExpression, ExpressionError } from './index.js';

const CHANNELS = ['R', 'G', 'B', 'A', 'diffuse.R', 'diffuse.G', 'diffuse.B', 'spec.R', 'spec.G', 'spec.B', 'spec.A', 'depth.Z', 'x-y.R'];

/** Pieces of the language, so random text is often close to valid. */
const PIECES = [
  'R',
  'G',
  'diffuse',
  'spec',
  'diffuse.R',
  'depth',
  '"x-y".R',
  'pi',
  'nan',
  'inf',
  '1',
  '0.5',
  '1e3',
  '-',
  '+',
  '*',
  '/',
  '(',
  ')',
  ',',
  '<',
  '<=',
  '==',
  '!=',
  'abs(',
  'min(',
  'max(',
  'clamp(',
  'pow(',
  'sqrt(',
  'exp(',
  'log(',
  'floor(',
  'lerp(',
  'mix(',
  'luminance(',
  'dot(',
  'select(',
  'vec3(',
  'vec4(',
  'rgb(',
  ' ',
  '"',
  '.',
  'é',
  '\u0000',
];

function compilesOrErrs(text: string): void {
  const t0 = performance.now();
  const c = compileExpression(text, CHANNELS);
  expect(performance.now() - t0).toBeLessThan(500);
  if (!c.ok) {
    expect(c.error).toBeInstanceOf(ExpressionError);
    expect(c.error.message.length).toBeGreaterThan(10);
    expect(c.error.start).toBeGreaterThanOrEqual(0);
    expect(c.error.end).toBeGreaterThanOrEqual(c.error.start);
    expect(c.error.end).toBeLessThanOrEqual(text.length);
    return;
  }
  // a program runs on any values
  const values = [NaN, Infinity, -Infinity, -0, 1.5, -2];
  const out = evaluateExpression(
    c.program,
    c.program.planes.map(() => values),
    values.length,
  );
  expect(out.length).toBe(values.length * 4);
}

describe('channel expressions: fuzzed text', () => {
  it('any string', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'binary' }), compilesOrErrs), { numRuns: 1000 });
  });

  it('strings of the language’s pieces', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 120 }), (parts) => compilesOrErrs(parts.join(''))),
      { numRuns: 3000 },
    );
  });

  it('any channel name, quoted, is read: the program reads that channel, on any values', () => {
    const quote = (name: string) => `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12, unit: 'binary' }), { minLength: 1, maxLength: 8 }),
        fc.nat(),
        (channels, k) => {
          const name = channels[k % channels.length]!;
          const text = `${quote(name)} * 2 + 1`;
          const c = compileExpression(text, channels);
          expect(c.ok, `${text} over ${JSON.stringify(channels)}: ${c.ok ? '' : c.error.message}`).toBe(true);
          if (c.ok) expect(c.program.planes).toEqual([name]);
          compilesOrErrs(`${text} + ${quote(`${name}x`)}`);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('very long and deeply nested text is refused quickly', () => {
    fc.assert(
      fc.property(fc.constantFrom('(', '-', 'abs(', 'R+', '"'), fc.integer({ min: 50, max: 5000 }), (piece, n) =>
        compilesOrErrs(piece.repeat(n)),
      ),
      { numRuns: 100 },
    );
  });
});
