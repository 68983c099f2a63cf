// The thumbs summary: counts in the singular and plural, and the line that counts each kind of failure.
import { describe, expect, it } from 'vitest';
import { damageNote, emptyTotals, failureSummary, timingSummary } from './thumbs-summary.js';

describe('failureSummary', () => {
  it('is null when nothing failed', () => {
    expect(failureSummary(12, 0, 0)).toBeNull();
  });

  it('says how many were written and how many of each kind failed, in the singular and plural', () => {
    expect(failureSummary(12, 2, 0)).toBe('wrote 12 thumbnails; 2 files could not be read (listed above)');
    expect(failureSummary(1, 1, 0)).toBe('wrote 1 thumbnail; 1 file could not be read (listed above)');
    expect(failureSummary(0, 3, 0)).toBe('wrote 0 thumbnails; 3 files could not be read (listed above)');
    expect(failureSummary(1, 0, 1)).toBe('wrote 1 thumbnail; 1 thumbnail could not be written (listed above)');
    expect(failureSummary(5, 1, 2)).toBe(
      'wrote 5 thumbnails; 1 file could not be read and 2 thumbnails could not be written (listed above)',
    );
  });
});

describe('damaged files', () => {
  it('counts thumbnails written with damage apart from failures, alone or beside them', () => {
    expect(failureSummary(12, 0, 0, 1)).toBe(
      'wrote 12 thumbnails, 1 with damage (the chunks that could not be read hatched; listed above)',
    );
    expect(failureSummary(5, 2, 0, 3)).toBe(
      'wrote 5 thumbnails, 3 with damage (the chunks that could not be read hatched); 2 files could not be read (listed above)',
    );
  });

  it("says how many of a file's chunks are missing, why, and what to do", () => {
    expect(damageNote({ chunksRead: 4, chunksTotal: 7, reason: 'part 0, chunk 4: chunk is not in the file (incomplete file?)' })).toBe(
      'written with damage: 3 of 7 chunks could not be read and are hatched in the thumbnail ' +
        '(part 0, chunk 4: chunk is not in the file (incomplete file?)); copy or render the file again to see all of it',
    );
  });
});

describe('timingSummary', () => {
  it('starts "wrote N thumbnail(s) in T ms" and counts workers in the singular and plural', () => {
    const one = timingSummary(1, 12.4, 800, emptyTotals(), 'CPU (--gpu off)', 1);
    expect(one.split('\n')[0]).toBe('wrote 1 thumbnail in 12 ms (800 ms with start-up and folder scan); path: CPU (--gpu off), 1 worker');
    expect(timingSummary(2, 3.25, 80, emptyTotals(), 'CPU', 4)).toMatch(
      /^wrote 2 thumbnails in 3\.3 ms \(80 ms with start-up and folder scan\); path: CPU, 4 workers\n/,
    );
  });
});
