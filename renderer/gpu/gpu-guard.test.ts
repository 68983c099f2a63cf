// What the GPU refusals and device notices say: sizes that read true at any scale, and one line per kind of event.
import { describe, expect, it } from 'vitest';
import { lossNotRecoveredNotice, lossRecoveredNotice, megabytes } from './gpu-guard.js';

describe('gpu-guard words', () => {
  it('says sizes in MB, tenths below 10 MB and kB below 0.1 MB: a small budget never reads "0 MB"', () => {
    expect(megabytes(1610e6)).toBe('1610 MB');
    expect(megabytes(12.4e6)).toBe('12 MB');
    expect(megabytes(2.46e6)).toBe('2.5 MB');
    expect(megabytes(491_520)).toBe('0.5 MB');
    expect(megabytes(65_536)).toBe('66 kB');
  });

  it('says a device loss in one line: recovered (nothing else changed) or not (what to do)', () => {
    const ok = lossRecoveredNotice('unknown: GPU hang');
    expect(ok).toContain('(unknown: GPU hang)');
    expect(ok).toContain('nothing else changed');
    const failed = lossNotRecoveredNotice('unknown', 'no adapter');
    expect(failed).toContain('could not be set up again (no adapter)');
    expect(failed).toContain('reload the page or restart exrview');
    expect(`${ok}${failed}`).not.toContain('\n');
  });
});
