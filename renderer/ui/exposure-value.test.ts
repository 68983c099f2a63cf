// Typed exposure values: decimals, fractions of a stop, signs as people type them.
import { describe, expect, it } from 'vitest';
import { formatEv, parseEv } from './ExposureControl.js';

describe('typed exposure', () => {
  it('reads decimals, thirds and signs', () => {
    expect(parseEv('1.5')).toBe(1.5);
    expect(parseEv('+2/3')).toBeCloseTo(2 / 3);
    expect(parseEv('-1 1/3')).toBeCloseTo(-4 / 3);
    expect(parseEv('−0,5')).toBe(-0.5);
    expect(parseEv(' .25 EV')).toBe(0.25);
  });

  it('refuses what is not a number', () => {
    for (const t of ['', 'abc', '1/0', '1..2', '--1']) expect(parseEv(t)).toBeNull();
  });

  it('shows the sign and two decimals', () => {
    expect([formatEv(1 / 3), formatEv(0), formatEv(-1)]).toEqual(['+0.33', '0.00', '-1.00']);
  });
});
