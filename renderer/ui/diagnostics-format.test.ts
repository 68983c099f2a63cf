import { describe, expect, it } from 'vitest';
import { fmtMB, fmtMs, fmtRate, fmtRateOf } from './diagnostics-format.js';

describe('fmtRate', () => {
  it('says MB/s under 1 GB/s, never a rate rounded to 0 GB/s', () => {
    expect(fmtRate(0.4e9)).toBe('400 MB/s');
    expect(fmtRate(0.0042e9)).toBe('4.2 MB/s');
    expect(fmtRate(123_456)).toBe('0.123 MB/s');
    expect(fmtRate(999.4e6)).toBe('999 MB/s');
    expect(fmtRate(12.345e6)).toBe('12.3 MB/s');
  });
  it('says GB/s from 1 GB/s up', () => {
    expect(fmtRate(1e9)).toBe('1 GB/s');
    expect(fmtRate(1.234e9)).toBe('1.23 GB/s');
    expect(fmtRate(32.56e9)).toBe('32.6 GB/s');
    expect(fmtRate(150e9)).toBe('150 GB/s');
  });
  it('marks tiny, zero and unknown rates', () => {
    expect(fmtRate(5_000)).toBe('<0.01 MB/s');
    expect(fmtRate(0)).toBe('0 MB/s');
    expect(fmtRate(NaN)).toBe('n/a');
    expect(fmtRate(null)).toBe('n/a');
    expect(fmtRate(Infinity)).toBe('n/a');
    expect(fmtRate(-1)).toBe('n/a');
  });
  it('derives a rate from bytes and milliseconds', () => {
    expect(fmtRateOf(147_456, 1)).toBe('147 MB/s');
    expect(fmtRateOf(3e9, 1000)).toBe('3 GB/s');
    expect(fmtRateOf(1e6, 0)).toBe('n/a');
    expect(fmtRateOf(1e6, NaN)).toBe('n/a');
  });
});

describe('fmtMs', () => {
  it('keeps sub-millisecond GPU times readable', () => {
    expect(fmtMs(0.0963)).toBe('0.096 ms');
    expect(fmtMs(0.0004)).toBe('<0.001 ms');
    expect(fmtMs(3.274)).toBe('3.27 ms');
    expect(fmtMs(12.34)).toBe('12.3 ms');
    expect(fmtMs(1234.5)).toBe('1235 ms');
    expect(fmtMs(0)).toBe('0 ms');
    expect(fmtMs(NaN)).toBe('n/a');
  });
});

describe('fmtMB', () => {
  it('writes sizes in MB to 0.01 MB, tiny ones with three significant digits', () => {
    expect(fmtMB(147_456)).toBe('0.15 MB');
    expect(fmtMB(4_096)).toBe('0.0041 MB');
    expect(fmtMB(33_177_600)).toBe('33.18 MB');
    expect(fmtMB(0)).toBe('0 MB');
    expect(fmtMB(null)).toBe('n/a');
  });
});
