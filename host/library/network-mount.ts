// Whether a folder lies on a network or FUSE mount whose changes file events do not report (Linux: /proc/mounts).

import { readFileSync, realpathSync } from 'node:fs';

/**
 * Filesystems on which inotify sees only the changes made through this machine: a renderer writing from a farm node
 * is never reported. FUSE mounts of remote stores are the same.
 */
const UNWATCHABLE =
  /^(nfs4?|cifs|smb3?|smbfs|9p|afs|ncpfs|davfs|ceph|glusterfs|lustre|gpfs|beegfs|fuse\.(sshfs|rclone|s3fs|gcsfuse|davfs2|smbnetfs))$/;

/** The mount `path` lies on, by the longest mount point that holds it, from /proc/mounts' text. */
export function mountOf(mountsText: string, path: string): { mountPoint: string; fsType: string } | null {
  let best: { mountPoint: string; fsType: string } | null = null;
  for (const line of mountsText.split('\n')) {
    const fields = line.split(' ');
    if (fields.length < 3) continue;
    // spaces, tabs and backslashes in mount points are written as octal escapes
    const mountPoint = fields[1]!.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
    const holds = mountPoint === '/' || path === mountPoint || path.startsWith(mountPoint + '/');
    // the last line for a mount point wins: it is mounted over the earlier ones
    if (holds && (!best || mountPoint.length >= best.mountPoint.length)) best = { mountPoint, fsType: fields[2]! };
  }
  return best;
}

/** Why `folder` must be polled ("/mnt/renders is an nfs4 mount: …"), or null where its file events can be trusted. */
export function unwatchableReason(folder: string, mountsText: string | null = readMounts()): string | null {
  if (mountsText === null) return null;
  let real = folder;
  try {
    real = realpathSync(folder);
  } catch {
    // a folder that cannot be resolved is judged by its own path
  }
  const mount = mountOf(mountsText, real);
  if (!mount || !UNWATCHABLE.test(mount.fsType)) return null;
  return `${mount.mountPoint} is a ${mount.fsType} mount, whose changes made elsewhere send no file events`;
}

function readMounts(): string | null {
  if (process.platform !== 'linux') return null;
  try {
    return readFileSync('/proc/mounts', 'utf8');
  } catch {
    return null;
  }
}
