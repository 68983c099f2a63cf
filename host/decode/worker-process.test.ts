import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nativeKernels } from '../../codec/compression/native.js';
import { compileOnWorkerThreads, RESERVED_FILE_DESCRIPTORS, reserveFileDescriptors, WORKER_COMPILER_FLAG } from './worker-process.js';

const onLinux = process.platform === 'linux';
/** The table's size, as the kernel reports it. */
const fdTableSize = () => Number(/FDSize:\s*(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]);
const openDescriptors = () => readdirSync('/proc/self/fd').length;

describe('reserveFileDescriptors', () => {
  it.runIf(onLinux && nativeKernels)('grows the table to the reserved size without leaving a descriptor open', () => {
    const before = openDescriptors();
    expect(nativeKernels!.reserveFileDescriptors(RESERVED_FILE_DESCRIPTORS)).toBe(RESERVED_FILE_DESCRIPTORS);
    expect(fdTableSize()).toBeGreaterThanOrEqual(RESERVED_FILE_DESCRIPTORS);
    expect(openDescriptors()).toBe(before);
  });

  it.runIf(onLinux && nativeKernels)('refuses an absurd size and leaves a smaller table as it is', () => {
    expect(nativeKernels!.reserveFileDescriptors(1 << 20)).toBe(0);
    const size = fdTableSize();
    expect(nativeKernels!.reserveFileDescriptors(2)).toBe(2);
    expect(fdTableSize()).toBe(size);
  });

  it('asks once per process', () => {
    let asked = 0;
    const kernels = { reserveFileDescriptors: (count: number) => (asked++, count) };
    expect(reserveFileDescriptors(kernels)).toBe(RESERVED_FILE_DESCRIPTORS);
    expect(reserveFileDescriptors(kernels)).toBe(RESERVED_FILE_DESCRIPTORS);
    expect(asked).toBe(1);
  });
});

describe('compileOnWorkerThreads', () => {
  it('leaves V8 as it is under Electron', () => {
    const flags: string[] = [];
    expect(compileOnWorkerThreads({ ...process.versions, electron: '39.0.0' }, (f) => flags.push(f))).toBe(false);
    expect(flags).toEqual([]);
  });

  it('sets the flag once under Node', () => {
    const nodeVersions = Object.fromEntries(
      Object.entries(process.versions).filter(([key]) => key !== 'electron'),
    ) as unknown as NodeJS.ProcessVersions;
    const flags: string[] = [];
    expect(compileOnWorkerThreads(nodeVersions, (f) => flags.push(f))).toBe(true);
    expect(compileOnWorkerThreads(nodeVersions, (f) => flags.push(f))).toBe(true);
    expect(flags).toEqual([WORKER_COMPILER_FLAG]);
  });
});
