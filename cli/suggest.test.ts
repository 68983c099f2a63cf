// The nearest-name suggestion: edit distance with swaps, and when a name is too far to suggest.
import { describe, expect, it } from 'vitest';
import { editDistance, nearest } from './suggest.js';

describe('editDistance', () => {
  it('counts insertions, deletions, substitutions and swaps of neighbours as one edit each', () => {
    expect(editDistance('tonemap', 'tonemap')).toBe(0);
    expect(editDistance('tonemp', 'tonemap')).toBe(1);
    expect(editDistance('tonemapp', 'tonemap')).toBe(1);
    expect(editDistance('tonenap', 'tonemap')).toBe(1);
    expect(editDistance('tonemap', 'tonempa')).toBe(1);
    expect(editDistance('', 'json')).toBe(4);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('nearest', () => {
  const options = ['out', 'size', 'format', 'exposure', 'tonemap', 'gpu'];
  it('suggests the name a typo came from', () => {
    expect(nearest('tonemp', options)).toBe('tonemap');
    expect(nearest('expsoure', options)).toBe('exposure');
    expect(nearest('sise', options)).toBe('size');
    expect(nearest('Format', options)).toBe('format');
    expect(nearest('stat', ['info', 'stats', 'thumbs', 'bench', 'serve', 'help'])).toBe('stats');
  });

  it('suggests the one name that starts the typed one or that it starts', () => {
    expect(nearest('tone', options)).toBe('tonemap');
    expect(nearest('tonemapping', options)).toBe('tonemap');
    expect(nearest('outdir', options)).toBe('out');
  });

  it('suggests nothing when nothing is close', () => {
    expect(nearest('verbose', options)).toBeNull();
    expect(nearest('xyz', options)).toBeNull();
    expect(nearest('anything', [])).toBeNull();
  });
});
