// Which tasks the workers hold (posted, not started) go back to the queue so that a more urgent job does not wait behind them.

import { tasksLeft, type JobQueue } from './job-queue.js';
import type { Posted, Slot } from './pool-workers.js';

/**
 * Tasks of jobs more urgent than some held ones, which would otherwise wait behind them: as many held tasks go back
 * (through `recall`, false when the worker has started the task), least urgent first, as those tasks have no worker to
 * be next on (one small urgent task recalls one band, not all).
 */
export function recallForUrgent(slots: readonly Slot[], queue: JobQueue, recall: (slot: Slot, posted: Posted) => boolean): void {
  if (queue.length === 0) return;
  const held: { slot: Slot; posted: Posted }[] = [];
  let nextOn = 0;
  let leastUrgentHeld = -Infinity;
  for (const slot of slots) {
    if (slot.posted.length <= 1) nextOn++;
    for (let i = 1; i < slot.posted.length; i++) {
      held.push({ slot, posted: slot.posted[i]! });
      leastUrgentHeld = Math.max(leastUrgentHeld, slot.posted[i]!.job.priority);
    }
  }
  // the common case, every job of one priority, stops here: no sorting
  if (queue.mostUrgentPriority >= leastUrgentHeld) return;
  held.sort((a, b) => b.posted.job.priority - a.posted.job.priority);
  let h = 0;
  for (const job of queue.byUrgency()) {
    for (let tasks = tasksLeft(job); tasks > 0; tasks--) {
      if (nextOn > 0) {
        nextOn--;
        continue;
      }
      // the least urgent held task still queued in its worker, if less urgent than this job
      while (h < held.length && held[h]!.posted.job.priority > job.priority && !recall(held[h]!.slot, held[h]!.posted)) h++;
      if (h >= held.length || held[h]!.posted.job.priority <= job.priority) return;
      h++;
    }
  }
}
