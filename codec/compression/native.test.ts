// The native addon loads wherever the build made it, says why it is off elsewhere, and runs in many worker threads at once.

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { usesNativeKernel } from './index.js';
import { ADDON_FILE, addonCandidates, loadNative, nativeKernels, nativeStatus } from './native.js';
import { interleaveAndPredict } from './predictor.js';

const root = resolve(__dirname, '../..');
const statusFile = join(root, 'dist', 'native', 'build-status.json');
/** What scripts/build-native.mjs did: built, or why not (a missing tool, or a compiler failure). */
const build = existsSync(statusFile)
  ? (JSON.parse(readFileSync(statusFile, 'utf8')) as { built: boolean; kind: string; reason: string })
  : null;
const turnedOff = process.env.EXRVIEW_NATIVE === '0';

describe('native kernels load where they were built', () => {
  if (turnedOff) {
    it('EXRVIEW_NATIVE=0 turns them off: no chunk goes through a native kernel', () => {
      expect(nativeStatus).toEqual({ on: false, reason: 'turned off by EXRVIEW_NATIVE=0', path: null });
      for (const compression of ['zip', 'zips', 'rle', 'piz', 'pxr24', 'b44', 'b44a'] as const)
        expect(usesNativeKernel(compression)).toBe(false);
    });
  } else if (!build) {
    it.skip(`skipped: ${statusFile} is absent (run \`npm run build\`)`, () => {});
  } else if (build.built) {
    it('the build made dist/native/exr_kernels.node, so the codec loaded it', () => {
      expect(nativeStatus.reason).toMatch(/^loaded from /);
      expect(nativeStatus.on).toBe(true);
    });
  } else if (build.kind === 'failed') {
    // the toolchain was there and the C code did not compile: a bug, not a machine without a compiler
    it.skipIf(!process.env.CI)(`the native kernels compile (${build.reason})`, () => {
      expect.fail(`native kernels did not build although the compiler and libdeflate are present: ${build.reason}`);
    });
  } else {
    it.skip(`skipped: native kernels not built here (${build.reason}); the TypeScript codecs run`, () => {});
  }
});

describe('the native loader', () => {
  it('is off, saying why, when turned off or when the addon is missing or broken', () => {
    expect(loadNative({ EXRVIEW_NATIVE: '0' }).status).toEqual({ on: false, reason: 'turned off by EXRVIEW_NATIVE=0', path: null });
    const missing = loadNative({ EXRVIEW_NATIVE_ADDON: '/nonexistent/exr_kernels.node' });
    expect(missing.kernels).toBeNull();
    expect(missing.status.reason).toMatch(/not built .*\/nonexistent/);
    const dir = mkdtempSync(join(tmpdir(), 'exrview-native-'));
    try {
      const broken = join(dir, ADDON_FILE);
      writeFileSync(broken, 'not a shared object');
      const status = loadNative({ EXRVIEW_NATIVE_ADDON: broken }).status;
      expect(status.on).toBe(false);
      expect(status.reason).toContain(`${broken} did not load`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('looks beside the bundle and in the repository dist/ when run from source', () => {
    const candidates = addonCandidates({});
    expect(candidates).toContain(join(root, 'dist', 'native', ADDON_FILE));
  });
});

describe.skipIf(!nativeStatus.on)('the addon in worker threads', () => {
  it('keeps one context per thread: four workers decode concurrently into one SharedArrayBuffer', async () => {
    const raw = new Uint8Array(1 << 20).map((_, i) => (i * 2654435761) >>> 24);
    const packed = new Uint8Array(zlib.deflateSync(interleaveAndPredict(raw), { level: 4 }));
    const workers = 4;
    const shared = new SharedArrayBuffer(raw.length * workers);
    const code = `
      const { workerData, parentPort } = require('node:worker_threads');
      const module = { exports: {} };
      process.dlopen(module, workerData.path);
      const { packed, shared, index, bytes } = workerData;
      const dst = new Uint8Array(shared, index * bytes, bytes);
      for (let round = 0; round < 20; round++) module.exports.zipInto(packed, dst);
      let refused = '';
      try { module.exports.zipInto(packed.subarray(0, 100), dst); } catch (error) { refused = error.code; }
      parentPort.postMessage(refused);`;
    const replies = await Promise.all(
      Array.from({ length: workers }, (_, index) => {
        const worker = new Worker(code, { eval: true, workerData: { path: nativeStatus.path, packed, shared, index, bytes: raw.length } });
        return new Promise<string>((done, fail) => {
          worker.once('message', done);
          worker.once('error', fail);
        }).finally(() => worker.terminate());
      }),
    );
    expect(replies).toEqual(Array(workers).fill('ERR_EXR_INVALID'));
    for (let index = 0; index < workers; index++) {
      expect(Buffer.compare(new Uint8Array(shared, index * raw.length, raw.length), raw)).toBe(0);
    }
  });
});

describe('huge-page advice for decoded planes', () => {
  const thp = existsSync('/sys/kernel/mm/transparent_hugepage/enabled')
    ? readFileSync('/sys/kernel/mm/transparent_hugepage/enabled', 'utf8')
    : '';
  it.skipIf(!nativeKernels)('advises a fresh shared buffer and leaves its bytes as they were', () => {
    const view = new Uint8Array(new SharedArrayBuffer(8 << 20));
    view[12345] = 7;
    const advised = nativeKernels!.adviseHugePages(view);
    // Linux with transparent huge pages in any mode but "never" takes the advice; elsewhere it is only refused
    if (/\[(always|madvise)\]/.test(thp)) expect(advised).toBe(true);
    else expect(typeof advised).toBe('boolean');
    expect(view[12345]).toBe(7);
    view.fill(3);
    expect(view[view.length - 1]).toBe(3);
  });
  it.skipIf(!nativeKernels)('takes views of any size and offset, the empty one included', () => {
    expect(nativeKernels!.adviseHugePages(new Uint8Array(0))).toBe(false);
    expect(typeof nativeKernels!.adviseHugePages(new Uint8Array(new ArrayBuffer(10000), 3, 5000))).toBe('boolean');
    expect(() => nativeKernels!.adviseHugePages(new Uint16Array(8) as unknown as Uint8Array)).toThrow(TypeError);
  });
});
