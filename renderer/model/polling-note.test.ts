import { describe, expect, it } from 'vitest';
import { pollingMessage, pollingNote } from './polling-note.js';

describe('pollingNote', () => {
  it('says nothing while file events are used', () => {
    expect(pollingNote({ displayPath: '/renders' })).toBeNull();
    expect(pollingNote(undefined)).toBeNull();
  });

  it('names the folder and why it is polled in the tooltip', () => {
    const note = pollingNote({ displayPath: '/mnt/farm/shots', polling: 'watching by polling: /mnt/farm is a network mount (nfs4)' });
    expect(note?.label).toBe('polling');
    expect(note?.title).toBe(
      '/mnt/farm/shots is watched by polling: /mnt/farm is a network mount (nfs4). ' +
        'Changes are found by looking at the folder every second, so new and changed files may show a second late.',
    );
  });

  it('tells a fallback message from other folder errors', () => {
    expect(pollingMessage('watching by polling: file events for /r stopped (EMFILE)')).toBe(
      'watching by polling: file events for /r stopped (EMFILE)',
    );
    expect(pollingMessage('folder /r no longer exists (it was deleted or moved)')).toBeNull();
  });
});
