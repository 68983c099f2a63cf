// Names shortened in the middle keep what tells them apart; values and counts as the panels show them.
import { describe, expect, it } from 'vitest';
import { fmtCount, fmtValue, fmtZoom, middleEllipsis } from './format.js';

describe('middleEllipsis', () => {
  it('leaves a name that fits alone', () => {
    expect(middleEllipsis('top.exr', 20)).toBe('top.exr');
    expect(middleEllipsis('abcdefghij', 10)).toBe('abcdefghij');
  });

  it('cuts the middle, keeping the start and the version and extension at the end', () => {
    const a = middleEllipsis('shot_14_beauty_comp_v003.exr', 19);
    expect(a).toBe('shot_14_b…_v003.exr');
    expect([...a]).toHaveLength(19);
  });

  it('keeps names that differ only at the end distinguishable', () => {
    const names = ['shot_14_beauty_comp_v001.exr', 'shot_14_beauty_comp_v002.exr', 'shot_14_beauty_comp_v003.exr'];
    const cut = names.map((n) => middleEllipsis(n, 16));
    expect(new Set(cut).size).toBe(3);
    for (const c of cut) expect([...c]).toHaveLength(16);
  });

  it('counts characters, not UTF-16 units', () => {
    expect([...middleEllipsis('räder_😀_very_long_name_v1.exr', 12)]).toHaveLength(12);
    expect(middleEllipsis('anything', 1)).toBe('…');
  });
});

describe('fmtValue and fmtCount', () => {
  it('formats values to 5 significant digits and NaN/Inf as words', () => {
    expect(fmtValue(0.123456)).toBe('0.12346');
    expect(fmtValue(Infinity)).toBe('+Inf');
    expect(fmtValue(NaN)).toBe('—');
    expect(fmtCount(12345)).toBe('12,345');
  });
});

describe('fmtZoom', () => {
  it('gives the zoom in per cent of CSS px', () => {
    expect(fmtZoom(2, 1, true)).toBe('200 %');
    expect(fmtZoom(2, 2, true)).toBe('100 %');
    expect(fmtZoom(24.25, 1, true)).toBe('2425 %');
  });

  it('gives no figure when no image is on screen', () => {
    expect(fmtZoom(24.25, 1, false)).toBe('—');
  });
});
