// The queue hands out the most urgent job's next task (then the oldest job's), waits for an urgent job being planned, and
// keeps background jobs back while a foreground one runs.
import { describe, expect, it } from 'vitest';
import { JobQueue } from './job-queue.js';
import { newJob, type Job, type JobPlan } from './pool-job.js';

let nextId = 1;
function job(name: string, priority: number, taskCount: number | null = 1): { job: Job; promise: Promise<unknown> } {
  const id = nextId++;
  const plan: JobPlan<unknown> | null =
    taskCount === null ? null : { tasks: () => Array.from({ length: taskCount }, (_, i) => ({ kind: name, args: i })), combine: (r) => r };
  const made = newJob(id, id, plan, priority);
  made.promise.catch(() => {});
  return made;
}

function drain(queue: JobQueue, foreground = false): string[] {
  const out: string[] = [];
  for (let taken = queue.takeNext(() => foreground); taken; taken = queue.takeNext(() => foreground))
    out.push(`${taken.task.spec.kind}${taken.task.spec.args as number}`);
  return out;
}

describe('JobQueue', () => {
  it('hands out the most urgent job first, then the oldest of one priority, each task once', () => {
    const queue = new JobQueue(Infinity);
    for (const [name, priority, tasks] of [
      ['low', 5, 1],
      ['old', 1, 2],
      ['new', 1, 1],
      ['urgent', 0, 1],
    ] as const)
      queue.add(job(name, priority, tasks).job);
    // a job not yet started counts once, whatever its plan
    expect(queue.pending).toBe(4);
    expect(queue.jobsAsUrgentAs(1)).toBe(3);
    const first = queue.takeNext(() => false)!;
    expect(first.task.spec.kind).toBe('urgent');
    expect(drain(queue)).toEqual(['old0', 'old1', 'new0', 'low0']);
    expect(queue.length).toBe(0);
  });

  it('waits for the most urgent job while its plan comes, unless a job as urgent is ready', () => {
    const queue = new JobQueue(Infinity);
    const planned = job('planned', 2);
    const unplanned = job('unplanned', 1, null);
    queue.add(unplanned.job);
    queue.add(planned.job);
    expect(queue.takeNext(() => false)).toBeUndefined();
    const same = job('same', 1);
    queue.add(same.job);
    expect(drain(queue)).toEqual(['same0']);
    unplanned.job.plan = { tasks: () => [{ kind: 'unplanned', args: 0 }], combine: (r) => r };
    expect(drain(queue)).toEqual(['unplanned0', 'planned0']);
  });

  it('keeps background jobs back while a foreground job runs', () => {
    const queue = new JobQueue(3);
    queue.add(job('background', 3).job);
    expect(drain(queue, true)).toEqual([]);
    expect(drain(queue, false)).toEqual(['background0']);
  });

  it('puts a task to run again first or last in its job, and the job back in the queue', () => {
    const queue = new JobQueue(Infinity);
    const { job: j } = job('band', 0, 3);
    queue.add(j);
    const first = queue.takeNext(() => false)!;
    const second = queue.takeNext(() => false)!;
    queue.requeue(j, second.task, 'back');
    queue.requeue(j, first.task, 'front');
    expect(drain(queue)).toEqual(['band0', 'band1', 'band2']);
    queue.requeue(j, first.task, 'back');
    expect(queue.length).toBe(1);
  });

  it('fails a job whose plan throws, and finishes one with no tasks, handing out neither', async () => {
    const queue = new JobQueue(Infinity);
    const broken = newJob(
      100,
      100,
      {
        tasks: () => {
          throw new Error('no header');
        },
        combine: (r) => r,
      },
      0,
    );
    const empty = newJob(101, 101, { tasks: () => [], combine: () => 'nothing to do' }, 0);
    queue.add(broken.job);
    queue.add(empty.job);
    expect(queue.takeNext(() => false)).toBeUndefined();
    await expect(broken.promise).rejects.toThrow('no header');
    await expect(empty.promise).resolves.toMatchObject({ result: 'nothing to do', timings: { tasks: 0 } });
    expect(queue.length).toBe(0);
  });
});
