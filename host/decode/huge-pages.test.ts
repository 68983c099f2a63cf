import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { guestReportsFreePages, hugePagePolicy } from './huge-pages.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A fake /sys/bus/virtio/devices: one folder per device with its id and negotiated feature bits (bit 0 first). */
function virtioDevices(devices: { id: string; features?: string }[]): string {
  const root = mkdtempSync(join(tmpdir(), 'exrview-virtio-'));
  dirs.push(root);
  devices.forEach(({ id, features }, i) => {
    const dir = join(root, `virtio${i}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'device'), `${id}\n`);
    if (features !== undefined) writeFileSync(join(dir, 'features'), `${features}\n`);
  });
  return root;
}

const bits = (...set: number[]) => Array.from({ length: 64 }, (_, i) => (set.includes(i) ? '1' : '0')).join('');

describe('guestReportsFreePages', () => {
  it('is true for a balloon that negotiated free page reporting (bit 5), as the 2-core VM shows it', () => {
    const root = virtioDevices([
      { id: '0x0002', features: bits(5) },
      { id: '0x0005', features: '0110010100000000000000000000000010000000' },
    ]);
    expect(guestReportsFreePages(root)).toBe(true);
  });

  it('is false for a balloon without reporting, and for reporting bits on other devices', () => {
    expect(
      guestReportsFreePages(
        virtioDevices([
          { id: '0x0005', features: bits(1, 2, 4) },
          { id: '0x0001', features: bits(5) },
        ]),
      ),
    ).toBe(false);
  });

  it('is false where nothing can be read: no folder, a device without its features file', () => {
    expect(guestReportsFreePages(join(tmpdir(), 'exrview-no-such-virtio-folder'))).toBe(false);
    expect(guestReportsFreePages(virtioDevices([{ id: '0x0005' }]))).toBe(false);
  });
});

describe('hugePagePolicy', () => {
  const reporting = () => true;
  const notReporting = () => false;

  it('advises by default only where the guest keeps its free memory', () => {
    expect(hugePagePolicy(undefined, true, notReporting)).toEqual({ advise: true, reason: 'on' });
    expect(hugePagePolicy(undefined, true, reporting)).toMatchObject({
      advise: false,
      reason: expect.stringContaining('reports free memory'),
    });
  });

  it('follows EXRVIEW_HUGE_PAGES either way, and never advises without the native kernels', () => {
    expect(hugePagePolicy('1', true, reporting).advise).toBe(true);
    expect(hugePagePolicy('0', true, notReporting).advise).toBe(false);
    expect(hugePagePolicy('1', false, notReporting)).toMatchObject({ advise: false, reason: expect.stringContaining('native kernels') });
  });
});
