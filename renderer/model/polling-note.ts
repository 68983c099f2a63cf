// The folder bar's word for a folder watched by polling (FolderInfo.polling): what it means, and why, for its tooltip.
import type { FolderInfo } from '../../contract/host-api.js';

export interface PollingNote {
  label: string;
  /** Why the folder is polled, and what that means for how fast changes show. */
  title: string;
}

const PREFIX = 'watching by polling: ';

/** Null while the platform's file events are used. */
export function pollingNote(folder: Pick<FolderInfo, 'displayPath' | 'polling'> | undefined): PollingNote | null {
  if (!folder?.polling) return null;
  const why = folder.polling.startsWith(PREFIX) ? folder.polling.slice(PREFIX.length) : folder.polling;
  return {
    label: 'polling',
    title:
      `${folder.displayPath} is watched by polling: ${why}. ` +
      'Changes are found by looking at the folder every second, so new and changed files may show a second late.',
  };
}

/** A host event saying a folder fell back to polling after it opened: its message, else null. */
export function pollingMessage(message: string): string | null {
  return message.startsWith(PREFIX) ? message : null;
}
