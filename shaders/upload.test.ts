// Unit tests of the staging-ring uploader against a scripted fake device: layout, one submission per image, no wait in the steady state, loss.
import { describe, expect, it } from 'vitest';
import { GpuDeviceLostError, HALF_ONE, createUploader, interleavePlanesInto, stagingBytesPerRow, type UploadFormat } from './upload.js';

// WebGPU's enums as numbers, where Node has no WebGPU globals
const g = globalThis as Record<string, unknown>;
g.GPUBufferUsage ??= { MAP_READ: 1, MAP_WRITE: 2, COPY_SRC: 4, COPY_DST: 8 };
g.GPUMapMode ??= { READ: 1, WRITE: 2 };

interface FakeBuffer {
  size: number;
  mapState: 'mapped' | 'unmapped' | 'pending';
  bytes: Uint8Array;
  mapCalls: number;
  resolveMap: (() => void) | null;
  rejectMap: ((e: Error) => void) | null;
}

function fakeDevice(opts: { autoResolveMaps: boolean }) {
  const buffers: FakeBuffer[] = [];
  const copies: { buffer: FakeBuffer; offset: number; bytesPerRow: number; y: number; rows: number; width: number }[] = [];
  let submits = 0;
  let loseDevice: (info: { reason: string; message: string }) => void = () => {};
  const lost = new Promise<{ reason: string; message: string }>((r) => (loseDevice = r));
  const pendingMaps: FakeBuffer[] = [];
  const device = {
    lost,
    createBuffer(d: { size: number; mappedAtCreation?: boolean }) {
      const b: FakeBuffer = {
        size: d.size,
        mapState: d.mappedAtCreation ? 'mapped' : 'unmapped',
        bytes: new Uint8Array(d.size),
        mapCalls: 0,
        resolveMap: null,
        rejectMap: null,
      };
      buffers.push(b);
      return {
        get mapState() {
          return b.mapState;
        },
        getMappedRange(offset = 0, size = b.size - offset) {
          if (b.mapState !== 'mapped') throw new Error('not mapped');
          return b.bytes.buffer.slice(offset, offset + size); // a copy: the fake checks copies by their metadata
        },
        unmap() {
          b.mapState = 'unmapped';
        },
        mapAsync() {
          b.mapCalls++;
          b.mapState = 'pending';
          return new Promise<void>((resolve, reject) => {
            b.resolveMap = () => {
              b.mapState = 'mapped';
              resolve();
            };
            b.rejectMap = reject;
            if (opts.autoResolveMaps) queueMicrotask(() => b.resolveMap!());
            else pendingMaps.push(b);
          });
        },
        destroy() {},
        fake: b,
      };
    },
    createCommandEncoder() {
      return {
        copyBufferToTexture(
          src: { buffer: { fake: FakeBuffer }; offset: number; bytesPerRow: number },
          dst: { origin: { y: number } },
          size: { width: number; height: number },
        ) {
          copies.push({
            buffer: src.buffer.fake,
            offset: src.offset,
            bytesPerRow: src.bytesPerRow,
            y: dst.origin.y,
            rows: size.height,
            width: size.width,
          });
        },
        finish() {
          return {};
        },
      };
    },
    queue: {
      submit() {
        submits++;
      },
      onSubmittedWorkDone: () => Promise.resolve(),
    },
  };
  return { device: device as unknown as GPUDevice, buffers, copies, pendingMaps, submits: () => submits, lose: loseDevice };
}

const tex = (width: number, height: number, format: UploadFormat) => ({ width, height, format }) as unknown as GPUTexture;

describe('layout', () => {
  it('pads rows to 256 bytes', () => {
    expect(stagingBytesPerRow(3840, 'rgba16float')).toBe(30720);
    expect(stagingBytesPerRow(37, 'rgba16float')).toBe(512);
    expect(stagingBytesPerRow(37, 'r16float')).toBe(256);
    expect(stagingBytesPerRow(100, 'rgba32float') % 256).toBe(0);
  });
});

describe('interleavePlanesInto', () => {
  it('interleaves half planes, alpha 1.0 when absent, rows bytesPerRow apart', () => {
    const w = 3;
    const h = 2;
    const r = Uint16Array.from([1, 2, 3, 4, 5, 6]);
    const gg = Uint16Array.from([11, 12, 13, 14, 15, 16]);
    const b = Uint16Array.from([21, 22, 23, 24, 25, 26]);
    const dst = new Uint8Array(256 * h);
    interleavePlanesInto(dst, 256, { r, g: gg, b }, w, 0, h);
    const d16 = new Uint16Array(dst.buffer);
    expect([...d16.subarray(0, 12)]).toEqual([1, 11, 21, HALF_ONE, 2, 12, 22, HALF_ONE, 3, 13, 23, HALF_ONE]);
    expect([...d16.subarray(128, 132)]).toEqual([4, 14, 24, HALF_ONE]);
  });
  it('keeps float bits exactly (NaN payloads, -0)', () => {
    const bits = Uint32Array.from([0x7fc00001, 0x80000000]);
    const f = new Float32Array(bits.buffer);
    const one = Float32Array.from([1, 1]);
    const dst = new Uint8Array(256);
    interleavePlanesInto(dst, 256, { r: f, g: one, b: one, a: f }, 2, 0, 1);
    const d32 = new Uint32Array(dst.buffer);
    expect(d32[0]).toBe(0x7fc00001);
    expect(d32[3]).toBe(0x7fc00001);
    expect(d32[4]).toBe(0x80000000);
  });
  it('writes a band starting at row y0', () => {
    const r = Uint16Array.from([1, 2, 3, 4]);
    const dst = new Uint8Array(256);
    interleavePlanesInto(dst, 256, { r, g: r, b: r, a: r }, 2, 1, 1);
    expect([...new Uint16Array(dst.buffer, 0, 8)]).toEqual([3, 3, 3, 3, 4, 4, 4, 4]);
  });
});

describe('createUploader', () => {
  const layout = { width: 64, height: 64, format: 'rgba16float' as const };
  const source = () => ({ kind: 'texels' as const, data: new Uint16Array(64 * 64 * 4).fill(0x3c00) });

  it('one submission per image, copies 256-aligned, buffers re-mapped without waiting', async () => {
    const f = fakeDevice({ autoResolveMaps: true });
    const up = createUploader(f.device, { slabBytes: 64 * 512, ringBytes: 4 * 64 * 512 });
    for (let i = 0; i < 10; i++) {
      const s = await up.upload(tex(64, 64, 'rgba16float'), source(), layout);
      expect(s.submits).toBe(1);
      expect(s.waitMs).toBe(0);
      expect(s.bytes).toBe(64 * 64 * 8);
      expect(s.cpuCopiesPerByte).toBe(1);
    }
    expect(f.submits()).toBe(10);
    for (const c of f.copies) {
      expect(c.bytesPerRow % 256).toBe(0);
      expect(c.offset % 256).toBe(0);
    }
    // every band of an image was copied: rows add up
    expect(f.copies.reduce((a, c) => a + c.rows, 0)).toBe(10 * 64);
  });

  it('several textures in one submission (uploadMany) share slabs', async () => {
    const f = fakeDevice({ autoResolveMaps: true });
    const up = createUploader(f.device, { slabBytes: 1 << 20, ringBytes: 4 << 20 });
    const plane = new Uint16Array(64 * 64);
    const s = await up.uploadMany(
      [0, 1, 2, 3].map(() => ({
        texture: tex(64, 64, 'r16float'),
        format: 'r16float' as const,
        width: 64,
        height: 64,
        source: { kind: 'texels' as const, data: plane },
      })),
    );
    expect(s.submits).toBe(1);
    expect(s.stagingBuffersUsed).toBe(1);
    expect(f.copies.map((c) => c.offset)).toEqual([0, 64 * 256, 2 * 64 * 256, 3 * 64 * 256]);
  });

  it('waits only when the ring is exhausted, and an image larger than the ring still goes through', async () => {
    const f = fakeDevice({ autoResolveMaps: false });
    const up = createUploader(f.device, { slabBytes: 32 * 512, ringBytes: 2 * 32 * 512 });
    // 64 rows of 512 B = 2 slabs: exactly the ring
    const first = await up.upload(tex(64, 64, 'rgba16float'), source(), layout);
    expect(first.waitMs).toBe(0);
    expect(f.pendingMaps.length).toBe(2);
    let done = false;
    const second = up.upload(tex(64, 64, 'rgba16float'), source(), layout).then((s) => {
      done = true;
      return s;
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(done).toBe(false); // blocked on a staging buffer still in flight
    for (const b of f.pendingMaps.splice(0)) b.resolveMap!();
    const s2 = await second;
    expect(s2.submits).toBe(1);
    // larger than the ring: 128 rows = 4 slabs through a 2-slab ring, two submissions
    const big = up.upload(
      tex(64, 128, 'rgba16float'),
      { kind: 'texels', data: new Uint16Array(64 * 128 * 4) },
      { width: 64, height: 128, format: 'rgba16float' },
    );
    const pump = setInterval(() => {
      for (const b of f.pendingMaps.splice(0)) b.resolveMap!();
    }, 1);
    const s3 = await big;
    clearInterval(pump);
    expect(s3.submits).toBe(2);
  });

  it('rejects with GpuDeviceLostError after loss, and on a map that fails', async () => {
    const f = fakeDevice({ autoResolveMaps: false });
    const up = createUploader(f.device, { slabBytes: 64 * 512, ringBytes: 2 * 64 * 512 });
    await up.upload(tex(64, 64, 'rgba16float'), source(), layout);
    await up.upload(tex(64, 64, 'rgba16float'), source(), layout);
    const third = up.upload(tex(64, 64, 'rgba16float'), source(), layout); // waits on a map
    await new Promise((r) => setTimeout(r, 2));
    for (const b of f.pendingMaps.splice(0)) b.rejectMap!(new Error('device lost'));
    await expect(third).rejects.toBeInstanceOf(GpuDeviceLostError);
    f.lose({ reason: 'unknown', message: 'gone' });
    await new Promise((r) => setTimeout(r, 0));
    await expect(up.upload(tex(64, 64, 'rgba16float'), source(), layout)).rejects.toBeInstanceOf(GpuDeviceLostError);
  });

  it('refuses mismatched sources before touching the ring', async () => {
    const f = fakeDevice({ autoResolveMaps: true });
    const up = createUploader(f.device, { slabBytes: 1 << 16, ringBytes: 1 << 18 });
    await expect(up.upload(tex(64, 64, 'rgba16float'), { kind: 'texels', data: new Uint16Array(10) }, layout)).rejects.toThrow(/needs/);
    await expect(
      up.upload(
        tex(64, 64, 'r16float'),
        { kind: 'planes', r: new Uint16Array(4096), g: new Uint16Array(4096), b: new Uint16Array(4096) },
        { ...layout, format: 'r16float' },
      ),
    ).rejects.toThrow(/RGBA/);
    expect(f.submits()).toBe(0);
  });
});
