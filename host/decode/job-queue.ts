// The pool's queue of jobs with tasks not yet handed out, and which task goes next: the most urgent job's, then the oldest's.

import { failJob, finishJob, planTasks, type Job, type TaskState } from './pool-job.js';

export class JobQueue {
  private jobs: Job[] = [];

  /**
   * `backgroundFrom`: jobs at this priority or less urgent start no task while a foreground job runs
   * (DecodePoolOptions.backgroundFrom).
   */
  constructor(private readonly backgroundFrom: number) {}

  get length(): number {
    return this.jobs.length;
  }

  /** The jobs waiting, oldest first. */
  get all(): readonly Job[] {
    return this.jobs;
  }

  add(job: Job): void {
    this.jobs.push(job);
  }

  remove(job: Job): void {
    const index = this.jobs.indexOf(job);
    if (index >= 0) this.jobs.splice(index, 1);
  }

  /** Empties the queue, and gives back the jobs it held. */
  clear(): Job[] {
    const jobs = this.jobs;
    this.jobs = [];
    return jobs;
  }

  /** A task handed out that must run again: into its job's redo list, and the job back in the queue. */
  requeue(job: Job, task: TaskState, where: 'front' | 'back'): void {
    if (job.settled) return;
    if (where === 'front') job.redo.unshift(task);
    else job.redo.push(task);
    if (!this.jobs.includes(job)) this.jobs.push(job);
  }

  /** Jobs at `priority` or more urgent (a job whose tasks are being made counts itself). */
  jobsAsUrgentAs(priority: number): number {
    let count = 0;
    for (const job of this.jobs) if (job.priority <= priority) count++;
    return count;
  }

  /** Tasks waiting for a worker (those of jobs not yet started count once). */
  get pending(): number {
    return this.jobs.reduce((n, j) => n + tasksLeft(j), 0);
  }

  /** The lowest priority number waiting (Infinity when none). */
  get mostUrgentPriority(): number {
    let priority = Infinity;
    for (const job of this.jobs) priority = Math.min(priority, job.priority);
    return priority;
  }

  /** The jobs waiting, in the order their tasks go out. */
  byUrgency(): Job[] {
    return [...this.jobs].sort((a, b) => a.priority - b.priority || a.seq - b.seq);
  }

  /**
   * The next task of the most urgent job: lowest priority number, then the oldest job. None while the most urgent job
   * is still being planned, or while a background job would go next and `foregroundRunning` says to wait.
   */
  takeNext(foregroundRunning: () => boolean): { job: Job; task: TaskState } | undefined {
    while (this.jobs.length > 0) {
      let best: Job | null = null;
      for (const j of this.jobs) if (!best || j.priority < best.priority || (j.priority === best.priority && j.seq < best.seq)) best = j;
      let job = best!;
      if (!job.plan) {
        // the most urgent job is still being planned: keep the workers for it (a header read takes a millisecond),
        // unless a job as urgent is ready (folders submit many of one priority; their header reads finish in any order)
        let ready: Job | null = null;
        for (const j of this.jobs) if (j.plan && j.priority === job.priority && (!ready || j.seq < ready.seq)) ready = j;
        if (!ready) return undefined;
        job = ready;
      }
      if (job.priority >= this.backgroundFrom && foregroundRunning()) return undefined;
      if (!job.tasks) {
        try {
          planTasks(job);
        } catch (error) {
          failJob(job, error);
          this.remove(job);
          continue;
        }
        if (job.tasks!.length === 0) {
          this.remove(job);
          finishJob(job);
          continue;
        }
      }
      const tasks = job.tasks!;
      const task = job.redo.shift() ?? tasks[job.next++]!;
      if (job.redo.length === 0 && job.next >= tasks.length) this.remove(job);
      return { job, task };
    }
    return undefined;
  }
}

/** A job's tasks not yet handed out: its plan's remaining ones and those to run again (one while it is unplanned). */
export function tasksLeft(job: Job): number {
  return (job.tasks ? job.tasks.length - job.next : 1) + job.redo.length;
}
