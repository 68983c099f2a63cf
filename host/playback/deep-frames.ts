// How a played frame of a deep part is asked of the decoded levels: tolerantly, as its preview is.

import type { Priority } from '../../contract/host-api.js';

/**
 * The priority a level is requested at. A damaged level is handed out to previews (and their prefetches) only, with its
 * missing chunks listed; any other request fails with the first chunk's reason (DecodedLevels.get). A played deep
 * frame is decoded whole as a preview is (a deep part has no bands or chunk store that a priority would change), so it
 * is asked as one: a damaged deep frame plays its readable chunks, the rest marked missing, and a damaged flat frame
 * still fails (the player holds the frame before it and marks it damaged).
 */
export function levelPriority(priority: Priority, deep: boolean): Priority {
  return deep && priority === 'playback' ? 'preview' : priority;
}
