// The watcher's coalescing (one report per burst, and one per stretch of a write that goes on) and its polling fallback.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescer, watchTree } from './watcher.js';
import { differences, pollTree } from './poll-watcher.js';
import { mountOf, unwatchableReason } from './network-mount.js';
import { watchFolder } from './folder-watch.js';
import { tempDir } from '../../testing/host/test-files.js';

describe('coalescing', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('reports a burst once, after it goes quiet', () => {
    const reports: string[] = [];
    const c = coalescer(100, 400, (k) => reports.push(k));
    for (let i = 0; i < 5; i++) {
      if (i > 0) vi.advanceTimersByTime(30);
      c.add('a.exr');
    }
    c.add('b.exr');
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(99);
    expect(reports).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(reports).toEqual(['a.exr', 'b.exr']);
    vi.advanceTimersByTime(1000);
    expect(reports).toEqual(['a.exr', 'b.exr']);
  });

  it('reports a write that never pauses once per max wait, not never', () => {
    const reports: number[] = [];
    const c = coalescer(100, 400, () => reports.push(Date.now()));
    const start = Date.now();
    for (let t = 0; t < 1000; t += 20) {
      c.add('render.exr');
      vi.advanceTimersByTime(20);
    }
    expect(reports.map((t) => t - start)).toEqual([400, 800]);
    vi.advanceTimersByTime(100);
    expect(reports).toHaveLength(3);
  });

  it('reports nothing after clear()', () => {
    const reports: string[] = [];
    const c = coalescer(10, 40, (k) => reports.push(k));
    c.add('x');
    c.clear();
    vi.advanceTimersByTime(100);
    expect(reports).toEqual([]);
  });
});

/** Collects reported paths; `until` waits for one that `match` accepts. */
function collector() {
  const paths: string[] = [];
  return {
    paths,
    onPath: (p: string) => void paths.push(p),
    async until(match: (p: string) => boolean, timeoutMs = 5000): Promise<void> {
      const t0 = Date.now();
      while (!paths.some(match)) {
        if (Date.now() - t0 > timeoutMs) throw new Error(`not reported within ${timeoutMs} ms; saw ${JSON.stringify(paths)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
  };
}

describe('polling', () => {
  let dir: ReturnType<typeof tempDir>;
  beforeEach(() => void (dir = tempDir('exrview-poll-')));
  afterEach(() => dir.remove());

  it('tells added, changed, removed and renamed paths apart, and a removed folder as one', () => {
    const before = new Map([
      ['/r/a.exr', '1:1:1'],
      ['/r/b.exr', '1:1:2'],
      ['/r/sub', 'dir'],
      ['/r/sub/c.exr', '1:1:3'],
      ['/r/old.exr', '5:1:4'],
    ]);
    const after = new Map([
      ['/r/a.exr', '1:1:1'],
      ['/r/b.exr', '2:2:2'],
      ['/r/new.exr', '5:1:4'],
      ['/r/d.exr', '1:1:5'],
    ]);
    expect(differences(before, after).sort()).toEqual(['/r/b.exr', '/r/d.exr', '/r/new.exr', '/r/old.exr', '/r/sub']);
  });

  it("reports a folder's new, changed, renamed and removed files at its interval", async () => {
    mkdirSync(join(dir.path, 'sub'));
    writeFileSync(join(dir.path, 'a.exr'), 'a');
    writeFileSync(join(dir.path, 'sub', 'b.exr'), 'b');
    const seen = collector();
    const errors: string[] = [];
    const watcher = pollTree(dir.path, {
      recursive: true,
      intervalMs: 50,
      wanted: (name) => name.endsWith('.exr'),
      onPath: seen.onPath,
      onError: (m) => void errors.push(m),
    });
    try {
      await new Promise((r) => setTimeout(r, 120)); // the baseline look
      expect(seen.paths).toEqual([]);
      writeFileSync(join(dir.path, 'new.exr'), 'n');
      writeFileSync(join(dir.path, 'notes.txt'), 'not wanted');
      await seen.until((p) => p.endsWith('new.exr'));
      writeFileSync(join(dir.path, 'a.exr'), 'a, longer now');
      await seen.until((p) => p.endsWith('a.exr'));
      renameSync(join(dir.path, 'new.exr'), join(dir.path, 'renamed.exr'));
      await seen.until((p) => p.endsWith('renamed.exr'));
      rmSync(join(dir.path, 'sub'), { recursive: true });
      await seen.until((p) => p === join(dir.path, 'sub'));
      expect(seen.paths.filter((p) => p.endsWith('new.exr'))).toHaveLength(2); // added, then renamed away
      expect(seen.paths.some((p) => p.endsWith('.txt') || p.endsWith('b.exr'))).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      watcher.close();
    }
  });
});

describe('when to poll', () => {
  const mounts = [
    'sysfs /sys sysfs rw 0 0',
    '/dev/sda1 / ext4 rw,relatime 0 0',
    'server:/export /mnt/renders nfs4 rw 0 0',
    'user@host:/x /mnt/ssh\\040box fuse.sshfs rw 0 0',
    '//nas/share /mnt/renders/local-cache ext4 rw 0 0',
  ].join('\n');

  it('finds the mount a path lies on by its longest mount point', () => {
    expect(mountOf(mounts, '/home/me/shots')).toEqual({ mountPoint: '/', fsType: 'ext4' });
    expect(mountOf(mounts, '/mnt/renders/shot1')).toEqual({ mountPoint: '/mnt/renders', fsType: 'nfs4' });
    expect(mountOf(mounts, '/mnt/renders-other')).toEqual({ mountPoint: '/', fsType: 'ext4' });
    expect(mountOf(mounts, '/mnt/renders/local-cache/a')).toEqual({ mountPoint: '/mnt/renders/local-cache', fsType: 'ext4' });
    expect(mountOf(mounts, '/mnt/ssh box/f')).toEqual({ mountPoint: '/mnt/ssh box', fsType: 'fuse.sshfs' });
  });

  it('polls network and FUSE mounts, and says why', () => {
    expect(unwatchableReason('/mnt/renders/shot1', mounts)).toBe(
      '/mnt/renders is a nfs4 mount, whose changes made elsewhere send no file events',
    );
    expect(unwatchableReason('/mnt/ssh box', mounts)).toMatch(/fuse\.sshfs mount/);
    expect(unwatchableReason('/home/me', mounts)).toBeNull();
    for (const fs of ['nfs', 'cifs', 'smb3', 'smbfs', '9p']) expect(unwatchableReason('/x', `a /x ${fs} rw 0 0`)).toMatch(fs);
  });

  it('a folder on such a mount is polled, and its changes still come', async () => {
    const dir = tempDir('exrview-poll-');
    const seen = collector();
    const watch = watchFolder(dir.path, {
      recursive: false,
      debounceMs: 20,
      pollIntervalMs: 50,
      wanted: (n) => n.endsWith('.exr'),
      onPath: seen.onPath,
      onError: () => {},
      mountsText: `server:/e ${dir.path} nfs rw 0 0`,
    });
    try {
      expect(watch.polling).toBe(`watching by polling: ${dir.path} is a nfs mount, whose changes made elsewhere send no file events`);
      await new Promise((r) => setTimeout(r, 80));
      writeFileSync(join(dir.path, 'frame.0001.exr'), 'x');
      await seen.until((p) => p.endsWith('frame.0001.exr'));
    } finally {
      watch.watcher.close();
      dir.remove();
    }
  });

  it('a local folder is watched by its file events', async () => {
    const dir = tempDir('exrview-watch-');
    const seen = collector();
    const watch = watchFolder(dir.path, {
      recursive: false,
      debounceMs: 20,
      pollIntervalMs: 60_000,
      wanted: () => true,
      onPath: seen.onPath,
      onError: () => {},
      mountsText: `/dev/sda1 / ext4 rw 0 0`,
    });
    try {
      expect(watch.polling).toBeNull();
      writeFileSync(join(dir.path, 'a.exr'), 'x');
      await seen.until((p) => p.endsWith('a.exr'), 2000);
    } finally {
      watch.watcher.close();
      dir.remove();
    }
  });
});

describe('file events', () => {
  it('a file written in many small pieces is reported within the max wait while the writing goes on', async () => {
    const dir = tempDir('exrview-watch-');
    const seen = collector();
    const times: number[] = [];
    const watcher = watchTree(dir.path, {
      recursive: false,
      debounceMs: 100,
      maxWaitMs: 200,
      onPath: (p) => {
        times.push(Date.now());
        seen.onPath(p);
      },
      onError: () => {},
    });
    try {
      const path = join(dir.path, 'render.exr');
      const t0 = Date.now();
      // a write every 20 ms for 0.6 s: never quiet for the debounce
      while (Date.now() - t0 < 600) {
        writeFileSync(path, String(Date.now()), { flag: 'a' });
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times[0]! - t0).toBeLessThan(400);
    } finally {
      watcher.close();
      dir.remove();
    }
  });
});
