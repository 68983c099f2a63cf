// The grid's thumbnail marks: a render is due whenever the marks differ from those last drawn.
import { describe, expect, it } from 'vitest';
import { DrawnMarks } from './thumb-marks.js';

describe('DrawnMarks', () => {
  it('asks for a render when a damage mark cleared by a change and drawn so is set again', () => {
    const source = { thumbFailures: new Map<string, string>(), thumbDamage: new Map<string, string>() };
    const marks = new DrawnMarks(source);
    // a render's thumbnail of its chunks so far says what is missing
    source.thumbDamage.set('f2', 'rendering');
    expect(marks.changed()).toBe(true);
    marks.drawn();
    // it stopped, cut short: the mark goes with the change, and the grid renders the new entry without it
    source.thumbDamage.delete('f2');
    marks.drawn();
    // the new version's thumbnail marks it damaged: as many marks as at the first render, yet not drawn
    source.thumbDamage.set('f2', 'damaged');
    expect(marks.changed()).toBe(true);
    marks.drawn();
    expect(marks.changed()).toBe(false);
  });

  it('tells a failure from a damage mark of the same file, and one file from another', () => {
    const source = { thumbFailures: new Map<string, string>(), thumbDamage: new Map<string, string>() };
    const marks = new DrawnMarks(source);
    source.thumbDamage.set('a', 'x');
    marks.drawn();
    source.thumbDamage.delete('a');
    source.thumbFailures.set('a', 'cannot be read');
    expect(marks.changed()).toBe(true);
    marks.drawn();
    source.thumbFailures.delete('a');
    source.thumbFailures.set('b', 'cannot be read');
    expect(marks.changed()).toBe(true);
  });
});
