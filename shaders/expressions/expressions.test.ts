// The expression language: parsing, types against a channel list, errors at their place, and the CPU reference's float32 rules.
import { describe, expect, it } from 'vitest';
import { compileExpression, evaluateExpression, ExpressionError, type ExpressionProgram } from './index.js';
import { pow32 } from './scalar.js';

const CHANNELS = ['R', 'G', 'B', 'A', 'diffuse.R', 'diffuse.G', 'diffuse.B', 'spec.R', 'spec.G', 'spec.B', 'depth.Z', 'uv.u', 'uv.v'];
const CHANNELS_ODD = [...CHANNELS, 'crypto-00.R', 'crypto-00.G', 'crypto-00.B', 'a "b"'];

function program(text: string, channels = CHANNELS): ExpressionProgram {
  const c = compileExpression(text, channels);
  if (!c.ok) throw new Error(`${text}: ${c.error.message}`);
  return c.program;
}

function error(text: string, channels = CHANNELS): ExpressionError {
  const c = compileExpression(text, channels);
  if (c.ok) throw new Error(`${text} compiled`);
  return c.error;
}

/** The expression at one pixel whose planes hold `values` (by name). */
function at(text: string, values: Record<string, number>, channels = CHANNELS): number[] {
  const p = program(text, channels);
  return [
    ...evaluateExpression(
      p,
      p.planes.map((name) => [values[name] ?? 0]),
      1,
    ),
  ];
}

describe('channel expressions: types', () => {
  it('a layer name alone is its RGB, a channel a scalar, and the result is RGBA', () => {
    const p = program('diffuse + spec * 2');
    expect(p.root.size).toBe(3);
    expect(p.planes).toEqual(['diffuse.R', 'diffuse.G', 'diffuse.B', 'spec.R', 'spec.G', 'spec.B']);
    expect(program('diffuse.G').root.size).toBe(1);
    expect(program('vec4(R, G, B, A)').root.size).toBe(4);
    expect(program('luminance(diffuse)').root.size).toBe(1);
    // a layer of one channel is that channel
    expect(program('depth').planes).toEqual(['depth.Z']);
    expect(program('diffuse * R').root.size).toBe(3);
  });

  it('quoted names reach channels with odd characters', () => {
    expect(program('"crypto-00".R', CHANNELS_ODD).planes).toEqual(['crypto-00.R']);
    expect(program('"crypto-00"', CHANNELS_ODD).root.size).toBe(3);
    expect(program('"a \\"b\\"" + 1', CHANNELS_ODD).planes).toEqual(['a "b"']);
  });

  it('a channel named like a constant is the channel', () => {
    expect(program('pi', [...CHANNELS, 'pi']).planes).toEqual(['pi']);
    expect(program('pi').planes).toEqual([]);
  });
});

describe('channel expressions: errors at their place', () => {
  const cases: [string, number, number, RegExp][] = [
    ['diffuse + difuse', 10, 16, /no channel or layer named difuse.*did you mean diffuse/],
    ['1 +', 3, 3, /ends too soon/],
    ['', 0, 0, /empty/],
    ['(R + G', 6, 6, /expected "\)"/],
    ['R + G)', 5, 6, /unexpected "\)"/],
    ['abs(R, G)', 0, 9, /abs takes 1 argument, not 2/],
    ['foo(R)', 0, 3, /unknown function foo/],
    ['R $ G', 2, 3, /unexpected character "\$"/],
    ["'x'.R", 0, 1, /double quotes/],
    ['"crypto', 0, 7, /no closing double quote/],
    ['luminance(R)', 10, 11, /takes an RGB or RGBA value/],
    ['vec4(R, G, B, A) + diffuse', 19, 26, /mixes an RGBA value with an RGB value.*rgb\(/],
    ['uv * 2', 0, 2, /layer uv has no R, G and B.*uv.u, uv.v/],
    ['R = G', 2, 3, /comparisons are == and !=/],
    ['2R', 0, 2, /number runs into a name/],
    ['diffuse.', 0, 8, /a name is expected after the dot/],
    ['"x"(R)', 0, 3, /not a function name/],
  ];
  for (const [text, start, end, message] of cases)
    it(`${JSON.stringify(text)} → [${start}, ${end})`, () => {
      const e = error(text);
      expect(e).toBeInstanceOf(ExpressionError);
      expect(e.message).toMatch(message);
      expect([e.start, e.end]).toEqual([start, end]);
    });

  it('too long and too deep are errors, not stack overflows', () => {
    expect(error('R+'.repeat(3000) + 'R').message).toMatch(/at most 4000/);
    expect(error('('.repeat(100) + 'R' + ')'.repeat(100)).message).toMatch(/nests deeper than 64/);
    expect(error('-'.repeat(100) + 'R').message).toMatch(/nests deeper/);
  });
});

describe('channel expressions: float32 values', () => {
  it('rounds every operation to float32', () => {
    expect(at('R + G', { R: 1, G: 1e-8 })[0]).toBe(1);
    expect(at('R * 0.1', { R: 3 })[0]).toBe(Math.fround(3 * Math.fround(0.1)));
    expect(at('diffuse - spec', { 'diffuse.R': 1, 'spec.R': 0.25, 'diffuse.B': 2 })).toEqual([0.75, 0, 2, 1]);
  });

  it('scalars show as grey, RGB with alpha 1', () => {
    expect(at('R * 2', { R: 3 })).toEqual([6, 6, 6, 1]);
    expect(at('vec4(1, 2, 3, 0.5)', {})).toEqual([1, 2, 3, 0.5]);
  });

  it('IEEE division, NaN and infinities', () => {
    expect(at('R / G', { R: 1, G: 0 })[0]).toBe(Infinity);
    expect(at('R / G', { R: -1, G: 0 })[0]).toBe(-Infinity);
    expect(at('R / G', { R: 0, G: 0 })[0]).toBeNaN();
    expect(at('R - R', { R: Infinity })[0]).toBeNaN();
    expect(at('nan == nan', {})[0]).toBe(0);
    expect(at('nan != nan', {})[0]).toBe(1);
    expect(at('R < 1', { R: NaN })[0]).toBe(0);
    expect(at('select(R, 1, 2)', { R: NaN })[0]).toBe(2);
    expect(at('select(R, 1, 2)', { R: -3 })[0]).toBe(1);
    expect(at('min(R, 1)', { R: NaN })[0]).toBeNaN();
    expect(at('max(R, 1)', { R: -Infinity })[0]).toBe(1);
  });

  it('sqrt, log and pow of negatives and zero', () => {
    expect(at('sqrt(R)', { R: -1 })[0]).toBeNaN();
    expect(at('log(R)', { R: 0 })[0]).toBe(-Infinity);
    expect(at('log(R)', { R: -2 })[0]).toBeNaN();
    expect(pow32(-2, 3)).toBe(-8);
    expect(pow32(-2, 2)).toBe(4);
    expect(pow32(-2, 0.5)).toBeNaN();
    expect(pow32(NaN, 0)).toBeNaN();
    expect(pow32(5, 0)).toBe(1);
    expect(pow32(1, Infinity)).toBe(1);
    expect(pow32(-0, -1)).toBe(Infinity);
    expect(pow32(0, 2)).toBe(0);
    expect(pow32(-Infinity, 3)).toBe(-Infinity);
    expect(pow32(-Infinity, Infinity)).toBeNaN();
  });

  it('broadcasts scalars, and select and clamp work per component', () => {
    expect(at('clamp(diffuse, 0, 1)', { 'diffuse.R': -1, 'diffuse.G': 0.5, 'diffuse.B': 9 })).toEqual([0, 0.5, 1, 1]);
    expect(at('select(diffuse > 1, diffuse, 0)', { 'diffuse.R': 2, 'diffuse.G': 0.5, 'diffuse.B': 3 })).toEqual([2, 0, 3, 1]);
    expect(at('lerp(0, diffuse, 0.5)', { 'diffuse.R': 2, 'diffuse.G': 4, 'diffuse.B': 8 })).toEqual([1, 2, 4, 1]);
    const l = at('luminance(diffuse)', { 'diffuse.R': 1, 'diffuse.G': 1, 'diffuse.B': 1 })[0]!;
    expect(Math.abs(l - 1)).toBeLessThan(1e-6);
    expect(at('dot(diffuse, spec)', { 'diffuse.R': 1, 'diffuse.G': 2, 'diffuse.B': 3, 'spec.R': 4, 'spec.G': 5, 'spec.B': 6 })[0]).toBe(32);
  });
});
