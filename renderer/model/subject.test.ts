// Figures are current only for the subject they were computed for: another image, part, layer, channel, measured
// source, reference or region makes them another subject's.
import { describe, expect, it } from 'vitest';
import { comparisonSubject, isCurrent, measuredSource, statisticsSubject, type SubjectSource } from './subject.js';

type Patch = {
  image?: Partial<SubjectSource['image']>;
  compare?: Partial<SubjectSource['compare']>;
  inspect?: Partial<SubjectSource['inspect']>;
};
const state = (patch: Patch = {}): SubjectSource => ({
  image: { currentFileId: 'plate', part: 0, layer: '', channel: 'rgb', ...patch.image },
  compare: { mode: 'off', showB: false, reference: null, ...patch.compare },
  inspect: { region: null, ...patch.inspect },
});
const ref = { file: { id: 'shot' }, part: 0, layer: '', channel: 'rgb' };

describe('subject of figures', () => {
  it('makes figures of another image, part, layer, channel or region not current', () => {
    const figures = { subject: statisticsSubject(state()) };
    expect(isCurrent(figures, statisticsSubject(state()))).toBe(true);
    for (const other of [
      state({ image: { currentFileId: 'shot' } }),
      state({ image: { part: 1 } }),
      state({ image: { layer: 'diffuse' } }),
      state({ image: { channel: 'r' } }),
      state({ inspect: { region: { x0: 0, y0: 0, widthPx: 4, heightPx: 4 } } }),
      state({ compare: { reference: ref } }),
    ]) {
      expect(isCurrent(figures, statisticsSubject(other))).toBe(false);
      expect(isCurrent({ subject: comparisonSubject(state()) }, comparisonSubject(other))).toBe(false);
    }
  });

  it('makes absolute-error statistics not current in relative squared error', () => {
    const absolute = state({ compare: { reference: ref, mode: 'absolute-error' } });
    const relative = state({ compare: { reference: ref, mode: 'relative-squared-error' } });
    expect(measuredSource(relative)).toEqual({ kind: 'difference', mode: 'relative-squared-error' });
    expect(isCurrent({ subject: statisticsSubject(absolute) }, statisticsSubject(relative))).toBe(false);
    // the metrics compare A with B whatever the mode shows
    expect(isCurrent({ subject: comparisonSubject(absolute) }, comparisonSubject(relative))).toBe(true);
  });

  it('keeps figures current across modes that measure the same thing', () => {
    // without a reference every mode measures A; wipe and side by side measure A too
    expect(statisticsSubject(state({ compare: { mode: 'absolute-error' } }))).toBe(statisticsSubject(state()));
    const wipe = state({ compare: { reference: ref, mode: 'wipe' } });
    expect(statisticsSubject(wipe)).toBe(statisticsSubject(state({ compare: { reference: ref, mode: 'side-by-side' } })));
    // A/B flip showing B measures B
    expect(measuredSource(state({ compare: { reference: ref, mode: 'flip', showB: true } }))).toEqual({ kind: 'b' });
    expect(statisticsSubject(state({ compare: { reference: ref, mode: 'flip', showB: true } }))).not.toBe(statisticsSubject(wipe));
  });

  it('takes A measured while B was still loading as not current once a difference is asked for', () => {
    const s = state({ compare: { reference: ref, mode: 'error' } });
    expect(isCurrent({ subject: statisticsSubject(s, { kind: 'a' }) }, statisticsSubject(s))).toBe(false);
  });

  it('has no current figures when there are none', () => {
    expect(isCurrent(null, statisticsSubject(state()))).toBe(false);
  });
});
