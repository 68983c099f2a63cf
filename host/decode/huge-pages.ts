// Whether new plane memory is advised into 2 MB pages: yes where the native kernels can ask, unless the machine is a virtual machine that hands its free memory back to the host.
//
// A guest whose virtio balloon reports free pages (VIRTIO_BALLOON_F_REPORTING) tells the host, a couple of seconds after
// they are freed, which free blocks of 2 MB and more it may discard. A huge page is such a block, so its first touch
// is a host fault for every 4 KB of it, while 4 KB pages come from smaller free blocks the host still backs. On the
// 2-core Firecracker VM (kernel 6.18, THP on madvise, reporting on) a 128 MB buffer first touched 3 s after the last
// free took 1.3-2.7 ms a MB advised against 0.42-0.60 not (a C probe, 3 rounds alternated), and a cold `exrview
// bench --no-warmup` of the 8 ZIP files, 4 s after the previous process, 537-617 ms advised against 492-510 not, and of
// one 4K file of 23 half channels (382 MB of fresh planes) 584-676 ms against 284-306 (OpenEXR 3.4: 279-317). Where
// nothing discards free memory the advice pays (lent 16-core VM: 217.9 against 242.6 ms cold at 16 cores). A probe at
// start-up timing a first touch each way did not tell the two apart: blocks freed in the last seconds are not reported
// yet, so it found them fast; the balloon's negotiated features say it for certain.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nativeKernels } from '../../codec/index.js';

/** virtio's device id for a memory balloon, and the bit of its feature string that says free page reporting is on. */
const VIRTIO_BALLOON_DEVICE_ID = 0x0005;
const VIRTIO_BALLOON_F_REPORTING = 5;

/**
 * Whether a virtio balloon under `virtioDevicesDir` negotiated free page reporting. Its `features` file is a string of
 * '0' and '1', bit 0 first. False where the folder or its files cannot be read (not Linux, not a virtio guest).
 */
export function guestReportsFreePages(virtioDevicesDir = '/sys/bus/virtio/devices'): boolean {
  let names: string[];
  try {
    names = readdirSync(virtioDevicesDir);
  } catch {
    return false;
  }
  for (const name of names) {
    try {
      if (Number(readFileSync(join(virtioDevicesDir, name, 'device'), 'utf8').trim()) !== VIRTIO_BALLOON_DEVICE_ID) continue;
      if (readFileSync(join(virtioDevicesDir, name, 'features'), 'utf8').trim()[VIRTIO_BALLOON_F_REPORTING] === '1') return true;
    } catch {
      // a device that went away, or a file this kernel lacks: not a reporting balloon
    }
  }
  return false;
}

export interface HugePagePolicy {
  advise: boolean;
  /** Why, in a few words (bench's summary and diagnostics). */
  reason: string;
}

/**
 * EXRVIEW_HUGE_PAGES=0 never advises and =1 always does (for comparing); otherwise advise where the kernels can and
 * the guest does not report free memory to its host.
 */
export function hugePagePolicy(setting: string | undefined, canAdvise: boolean, reportsFreePages: () => boolean): HugePagePolicy {
  if (!canAdvise) return { advise: false, reason: 'off: the native kernels did not load' };
  if (setting === '0') return { advise: false, reason: 'off: EXRVIEW_HUGE_PAGES=0' };
  if (setting === '1') return { advise: true, reason: 'on: EXRVIEW_HUGE_PAGES=1' };
  if (reportsFreePages()) return { advise: false, reason: 'off: this virtual machine reports free memory to its host' };
  return { advise: true, reason: 'on' };
}

export const hugePages: HugePagePolicy = hugePagePolicy(process.env.EXRVIEW_HUGE_PAGES, !!nativeKernels, () => guestReportsFreePages());

/** The native kernels' madvise(MADV_HUGEPAGE) for a new buffer, where the policy says so. */
export const hugePageAdvice: ((buffer: SharedArrayBuffer) => void) | undefined = hugePages.advise
  ? (buffer) => void nativeKernels!.adviseHugePages(new Uint8Array(buffer))
  : undefined;
