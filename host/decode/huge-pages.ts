// Whether new plane memory is advised into 2 MB pages: yes where the native kernels can ask, unless the machine is a virtual machine that hands its free memory back to the host.
//
// A guest whose virtio balloon reports free pages lets the host discard free 2 MB blocks, and a huge page is such a
// block: its first touch then faults once per 4 KB, so there the advice costs more than it saves. The balloon's
// negotiated features say this for certain, where a start-up timing probe could not (bench/results/host-notes.md).

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
