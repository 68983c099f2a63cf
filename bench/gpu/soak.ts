// Soak and device-loss checks for the upload path: hundreds of consecutive 4K uploads, and a clean error after loss.
import { createUploader, GpuDeviceLostError } from '../../shaders/upload.js';
import { median, readTexture } from './dawn.js';
import { makeHalfPlanes } from './images.js';

/** `count` consecutive 4K half RGBA uploads (the engine's 4-plane path) through one ring; spot-checks pixels along the way. */
export async function soak(
  device: GPUDevice,
  count: number,
  width = 3840,
  height = 2160,
  log: (m: string) => void = () => {},
): Promise<unknown> {
  const p = makeHalfPlanes(width, height, 11);
  const uploader = createUploader(device, { ringBytes: 192 << 20, label: 'soak' });
  const planes = [p.r, p.g, p.b, p.a];
  // two sets of textures alternate, as a cache filling up would
  const sets = [0, 1].map(() =>
    planes.map(() =>
      device.createTexture({ size: [width, height], format: 'r16float', usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.COPY_SRC }),
    ),
  );
  const t0 = performance.now();
  const call: number[] = [];
  let waits = 0;
  let checked = 0;
  let mismatches = 0;
  for (let i = 0; i < count; i++) {
    const set = sets[i & 1]!;
    const s = await uploader.uploadMany(
      set.map((texture, c) => ({
        texture,
        format: 'r16float' as const,
        width,
        height,
        source: { kind: 'texels' as const, data: planes[c]! },
      })),
    );
    call.push(s.callMs);
    if (s.waitMs > 0) waits++;
    if (i % 100 === 99 || i === count - 1) {
      // read one plane back and compare every texel
      const got = await readTexture(device, set[i % 4]!, 2);
      const want = new Uint8Array(planes[i % 4]!.buffer);
      for (let k = 0; k < got.length; k++) if (got[k] !== want[k]) mismatches++;
      checked++;
      log(`soak ${i + 1}/${count} rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB`);
    }
  }
  await uploader.idle();
  const totalMs = performance.now() - t0;
  for (const set of sets) for (const t of set) t.destroy();
  uploader.destroy();
  return {
    uploads: count,
    width,
    height,
    bytesPerUpload: width * height * 8,
    survived: true,
    readbacksChecked: checked,
    mismatchedBytes: mismatches,
    ok: mismatches === 0,
    totalMs: Math.round(totalMs),
    medianCallMs: Math.round(median(call) * 1000) / 1000,
    uploadsThatWaited: waits,
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  };
}

/** naive writeTexture, the call GPU.md saw abort the process: survives once the GPU instance is kept alive. */
export async function soakWriteTexture(device: GPUDevice, count: number, width = 3840, height = 2160): Promise<unknown> {
  const data = new Uint16Array(width * height * 4);
  for (let i = 0; i < data.length; i++) data[i] = 0x3c00 + (i % 977);
  const texture = device.createTexture({ size: [width, height], format: 'rgba16float', usage: GPUTextureUsage.COPY_DST });
  const t0 = performance.now();
  for (let i = 0; i < count; i++) {
    device.queue.writeTexture({ texture }, data, { bytesPerRow: width * 8, rowsPerImage: height }, [width, height]);
    if (i % 10 === 9) await device.queue.onSubmittedWorkDone();
  }
  await device.queue.onSubmittedWorkDone();
  texture.destroy();
  return { uploads: count, survived: true, totalMs: Math.round(performance.now() - t0) };
}

/** Loses the device in the middle of uploads; the uploader must reject with GpuDeviceLostError, not crash or hang. */
export async function loseDevice(device: GPUDevice): Promise<unknown> {
  const width = 1920;
  const height = 1080;
  const p = makeHalfPlanes(width, height, 5);
  const uploader = createUploader(device, { ringBytes: 64 << 20, slabBytes: 16 << 20, label: 'lost' });
  const texture = device.createTexture({ size: [width, height], format: 'rgba16float', usage: GPUTextureUsage.COPY_DST });
  const src = { kind: 'planes' as const, r: p.r, g: p.g, b: p.b, a: p.a };
  const layout = { width, height, format: 'rgba16float' as const };
  let before = 0;
  for (let i = 0; i < 3; i++, before++) await uploader.upload(texture, src, layout);
  // several uploads in flight (their re-maps pending) when the device goes
  const inFlight = [uploader.upload(texture, src, layout), uploader.upload(texture, src, layout)];
  device.destroy();
  const settled = await Promise.allSettled([...inFlight, uploader.upload(texture, src, layout), uploader.upload(texture, src, layout)]);
  const errors = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected').map((s) => s.reason as unknown);
  const last = errors[errors.length - 1];
  const lostInfo = await device.lost;
  return {
    uploadsBeforeLoss: before,
    callsAfterLoss: settled.length,
    rejected: errors.length,
    lastError: last instanceof Error ? `${last.name}: ${last.message}` : String(last),
    lastIsGpuDeviceLostError: last instanceof GpuDeviceLostError,
    deviceLostReason: lostInfo.reason,
    clean: last instanceof GpuDeviceLostError,
  };
}
