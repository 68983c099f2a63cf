// Staged uploads of decoded images into GPU textures: a ring of mapped staging buffers, one CPU copy per byte, one submission per image.
//
// How the renderer's engine uses it (device-agnostic: WebGPU only; runs on a browser's device and on Dawn's in Node):
//
//   const uploader = createUploader(device, { ringBytes: 256 << 20 });       // once per device
//   // all planes of one image, one encoder, one submission (r16float / r32float / r32uint textures, as decoded):
//   const stats = await uploader.uploadMany(image.planes.map((p) => ({
//     texture: planeTexture(p), format: 'r16float', width: p.widthSamples, height: p.heightSamples,
//     source: { kind: 'texels', data: new Uint16Array(p.data) } })));
//   // then encode the assemble / MIP passes as usual: the queue orders them after the copies, no wait needed.
//
// - `upload`/`uploadMany` resolve once the copies are *submitted*, not completed. They await only when every
//   staging buffer of the ring is still in flight (`stats.waitMs` says how long). Await `uploader.idle()` only
//   where a wall time or a readback needs the GPU to be done.
// - Sources: `texels` (rows already in the texture's texel layout: copied into mapped memory, one copy),
//   `planes` (R, G, B[, A] arrays into an rgba16float/rgba32float texture: interleaved straight into the mapped
//   range, and that write is the one copy), `writer` (the decoder writes rows into the mapped range itself: no copy).
// - Size the ring to hold one image (4K half RGBA = 66 MB, 8K = 265 MB): a larger image is still uploaded, but in
//   several submissions with waits between them (`stats.submits`, `stats.waitMs`).
// - After device loss every call rejects with `GpuDeviceLostError` (no crash, no hang).

/** Texture formats the uploader fills: the decoder's planes as they are, or interleaved RGBA. */
export type UploadFormat = 'r16float' | 'r32float' | 'r32uint' | 'rgba16float' | 'rgba32float';
export type PixelArray = Uint16Array | Float32Array | Uint32Array;

export interface UploadLayout {
  width: number;
  height: number;
  format: UploadFormat;
}

/** One band of rows of staging memory handed to a `writer` source: rows in the texel layout, `bytesPerRow` apart. */
export interface StagingBand {
  bytes: Uint8Array;
  bytesPerRow: number;
  y0: number;
  rows: number;
  width: number;
  format: UploadFormat;
}

export type UploadSource =
  | { kind: 'texels'; data: PixelArray }
  | { kind: 'planes'; r: PixelArray; g: PixelArray; b: PixelArray; a?: PixelArray | undefined }
  | { kind: 'writer'; write(band: StagingBand): void };

export interface UploadItem extends UploadLayout {
  texture: GPUTexture;
  source: UploadSource;
}

export interface UploadStats {
  /** True once the commands are on the queue; the GPU may still be copying. */
  submitted: boolean;
  submits: number;
  /** Texel bytes of the image(s): width × height × bytes per texel, summed. */
  bytes: number;
  /** Bytes written into staging memory, row padding to 256 included. */
  stagedBytes: number;
  bytesPerRow: number;
  /** Time spent writing pixels into mapped memory (the one CPU-side copy; ~0 for `writer` beyond the decoder's own work). */
  cpuCopyMs: number;
  /** Time spent blocked on a staging buffer still in flight (0 in the steady state of a large enough ring). */
  waitMs: number;
  /** Whole call, CPU side: copy, encode, submit, waits. */
  callMs: number;
  /** CPU-side copies per pixel byte made by this module (the decoder's own writes not counted). */
  cpuCopiesPerByte: number;
  /** GPU-side copies per byte: the one copy from staging into the texture. */
  gpuCopiesPerByte: number;
  stagingBuffersUsed: number;
  copyCommands: number;
}

export interface UploaderOptions {
  /** Total staging memory; rounded down to whole slabs (at least 2). */
  ringBytes?: number;
  /** One staging buffer's size; an image is cut into bands of whole rows that each fit one. */
  slabBytes?: number;
  label?: string;
}

export interface Uploader {
  upload(texture: GPUTexture, source: UploadSource, layout: UploadLayout): Promise<UploadStats>;
  /** Several textures (the planes of one image, a batch of thumbnails) in one command encoder and one submission. */
  uploadMany(items: readonly UploadItem[]): Promise<UploadStats>;
  /** Resolves when everything submitted so far has completed on the GPU. */
  idle(): Promise<void>;
  readonly slabBytes: number;
  readonly slabCount: number;
  /** Non-null once the device is lost. */
  readonly lost: GpuDeviceLostError | null;
  destroy(): void;
}

export class GpuDeviceLostError extends Error {
  constructor(
    readonly reason: string,
    detail: string,
  ) {
    super(`GPU device lost (${reason})${detail ? `: ${detail}` : ''}`);
    this.name = 'GpuDeviceLostError';
  }
}

/** copyBufferToTexture needs bytesPerRow to be a multiple of this. */
export const BYTES_PER_ROW_ALIGNMENT = 256;
/** Half 1.0, the alpha of a plane set without one. */
export const HALF_ONE = 0x3c00;

export function bytesPerTexel(format: UploadFormat): number {
  return format === 'r16float' ? 2 : format === 'rgba16float' ? 8 : format === 'rgba32float' ? 16 : 4;
}

export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** Row pitch in staging memory: width × texel size, rounded up to 256 (copyBufferToTexture's rule). */
export function stagingBytesPerRow(width: number, format: UploadFormat): number {
  return alignUp(width * bytesPerTexel(format), BYTES_PER_ROW_ALIGNMENT);
}

/**
 * Interleaves half (or float) planes into RGBA rows at `dst`, `bytesPerRow` apart: rows y0..y0+rows of the image.
 * Writes 32-bit words (two halves, or one float's bits) so that write-combined mapped memory sees few, wide,
 * sequential stores, and float NaN payloads pass unchanged. `dst` must start 4-byte aligned.
 */
export function interleavePlanesInto(
  dst: Uint8Array,
  bytesPerRow: number,
  planes: { r: PixelArray; g: PixelArray; b: PixelArray; a?: PixelArray | undefined },
  width: number,
  y0: number,
  rows: number,
): void {
  if ((dst.byteOffset & 3) !== 0 || (bytesPerRow & 3) !== 0) throw new Error('interleavePlanesInto: destination must be 4-byte aligned');
  const d32 = new Uint32Array(dst.buffer, dst.byteOffset, dst.byteLength >>> 2);
  const rowWords = bytesPerRow >>> 2;
  const { r, g, b, a } = planes;
  if (r instanceof Uint16Array) {
    const g16 = g as Uint16Array;
    const b16 = b as Uint16Array;
    const a16 = a as Uint16Array | undefined;
    for (let y = 0; y < rows; y++) {
      let o = y * rowWords;
      let i = (y0 + y) * width;
      const end = i + width;
      if (a16) {
        for (; i < end; i++, o += 2) {
          d32[o] = r[i]! | (g16[i]! << 16);
          d32[o + 1] = b16[i]! | (a16[i]! << 16);
        }
      } else {
        for (; i < end; i++, o += 2) {
          d32[o] = r[i]! | (g16[i]! << 16);
          d32[o + 1] = b16[i]! | (HALF_ONE << 16);
        }
      }
    }
    return;
  }
  const bits = (p: PixelArray) => new Uint32Array(p.buffer, p.byteOffset, p.length);
  const r32 = bits(r);
  const g32 = bits(g);
  const b32 = bits(b);
  const a32 = a ? bits(a) : undefined;
  const ONE_F32_BITS = 0x3f800000;
  for (let y = 0; y < rows; y++) {
    let o = y * rowWords;
    let i = (y0 + y) * width;
    const end = i + width;
    for (; i < end; i++, o += 4) {
      d32[o] = r32[i]!;
      d32[o + 1] = g32[i]!;
      d32[o + 2] = b32[i]!;
      d32[o + 3] = a32 ? a32[i]! : ONE_F32_BITS;
    }
  }
}

interface Slab {
  buffer: GPUBuffer;
  /** Pending re-map after a submission; null while mapped and free. */
  ready: Promise<void> | null;
}

function checkItem(item: UploadItem): void {
  const { texture, source, width, height, format } = item;
  if (texture.width < width || texture.height < height)
    throw new Error(`upload: texture ${texture.width}x${texture.height} smaller than image ${width}x${height}`);
  if (texture.format !== format) throw new Error(`upload: texture format ${texture.format} is not ${format}`);
  const rgba = format === 'rgba16float' || format === 'rgba32float';
  if (source.kind === 'texels') {
    if (source.data.byteLength < width * height * bytesPerTexel(format))
      throw new Error(
        `upload: source holds ${source.data.byteLength} B, ${width}x${height} ${format} needs ${width * height * bytesPerTexel(format)}`,
      );
  } else if (source.kind === 'planes') {
    if (!rgba) throw new Error(`upload: planes need an RGBA texture, not ${format}`);
    const want = format === 'rgba16float' ? Uint16Array : Float32Array;
    for (const p of [source.r, source.g, source.b, source.a]) {
      if (!p) continue;
      if (p.length < width * height) throw new Error('upload: plane shorter than width*height');
      if (!(p instanceof want) && !(format === 'rgba32float' && p instanceof Uint32Array))
        throw new Error(`upload: plane type does not match ${format}`);
    }
  }
}

export function createUploader(device: GPUDevice, options: UploaderOptions = {}): Uploader {
  const slabBytes = alignUp(options.slabBytes ?? 32 << 20, BYTES_PER_ROW_ALIGNMENT);
  const slabCount = Math.max(2, Math.floor((options.ringBytes ?? 256 << 20) / slabBytes));
  const label = options.label ?? 'uploader';
  let lost: GpuDeviceLostError | null = null;
  let destroyed = false;

  void device.lost.then((info) => {
    lost = new GpuDeviceLostError(info.reason ?? 'unknown', info.message ?? '');
  });

  const slabs: Slab[] = [];
  for (let i = 0; i < slabCount; i++) {
    // mappedAtCreation: the first images find every buffer mapped, no wait
    const buffer = device.createBuffer({
      label: `${label} staging ${i}`,
      size: slabBytes,
      usage: GPUBufferUsage.MAP_WRITE | GPUBufferUsage.COPY_SRC,
      mappedAtCreation: true,
    });
    slabs.push({ buffer, ready: null });
  }
  let next = 0;
  // calls are serialised: two uploads interleaving their slab use would unmap each other's buffers
  let queueTail: Promise<unknown> = Promise.resolve();

  function check(): void {
    if (lost) throw lost;
    if (destroyed) throw new Error('uploader destroyed');
  }

  function remap(slab: Slab): void {
    slab.ready = slab.buffer.mapAsync(GPUMapMode.WRITE).then(
      () => {
        slab.ready = null;
      },
      (e: unknown) => {
        // a failed map means the device is gone or the buffer destroyed: every later call says so
        if (!lost) lost = new GpuDeviceLostError('map-failed', e instanceof Error ? e.message : String(e));
      },
    );
  }

  async function uploadManyNow(items: readonly UploadItem[]): Promise<UploadStats> {
    check();
    const t0 = performance.now();
    for (const item of items) checkItem(item);
    let encoder = device.createCommandEncoder({ label: `${label} upload` });
    let used: Slab[] = []; // slabs written for the encoder not yet submitted
    let slab: Slab | null = null;
    let cursor = 0; // next free byte of `slab`
    let submits = 0;
    let cpuCopyMs = 0;
    let waitMs = 0;
    let stagedBytes = 0;
    let bytes = 0;
    let slabsUsed = 0;
    let copies = 0;

    const submit = () => {
      for (const s of used) s.buffer.unmap();
      device.queue.submit([encoder.finish()]);
      submits++;
      // re-map at once: the promise settles when the GPU is done with the copy; nobody waits for it here
      for (const s of used) remap(s);
      used = [];
      slab = null;
      encoder = device.createCommandEncoder({ label: `${label} upload` });
    };

    const nextSlab = async (): Promise<Slab> => {
      const s = slabs[next]!;
      next = (next + 1) % slabCount;
      if (used.includes(s)) submit(); // the images outgrew the ring: flush, then wait for the oldest buffer
      if (s.ready) {
        const tw = performance.now();
        await s.ready;
        waitMs += performance.now() - tw;
      }
      check();
      used.push(s);
      slabsUsed++;
      return s;
    };

    try {
      for (const item of items) {
        const { texture, source, width, height, format } = item;
        const texelBytes = bytesPerTexel(format);
        const rowBytes = width * texelBytes;
        const bytesPerRow = stagingBytesPerRow(width, format);
        if (bytesPerRow > slabBytes) throw new Error(`upload: one row (${bytesPerRow} B) exceeds the staging slab (${slabBytes} B)`);
        bytes += rowBytes * height;
        for (let y0 = 0; y0 < height;) {
          if (!slab || Math.floor((slabBytes - cursor) / bytesPerRow) < 1) {
            slab = await nextSlab();
            cursor = 0;
          }
          const rows = Math.min(height - y0, Math.floor((slabBytes - cursor) / bytesPerRow));
          const size = bytesPerRow * rows;
          const tc = performance.now();
          const dst = new Uint8Array(slab.buffer.getMappedRange(cursor, size));
          if (source.kind === 'texels') {
            const src = new Uint8Array(source.data.buffer, source.data.byteOffset, source.data.byteLength);
            if (rowBytes === bytesPerRow) dst.set(src.subarray(y0 * rowBytes, (y0 + rows) * rowBytes));
            else for (let y = 0; y < rows; y++) dst.set(src.subarray((y0 + y) * rowBytes, (y0 + y + 1) * rowBytes), y * bytesPerRow);
          } else if (source.kind === 'writer') {
            source.write({ bytes: dst, bytesPerRow, y0, rows, width, format });
          } else {
            interleavePlanesInto(dst, bytesPerRow, source, width, y0, rows);
          }
          cpuCopyMs += performance.now() - tc;
          stagedBytes += size;
          encoder.copyBufferToTexture(
            { buffer: slab.buffer, offset: cursor, bytesPerRow, rowsPerImage: rows },
            { texture, origin: { x: 0, y: y0 } },
            { width, height: rows },
          );
          copies++;
          cursor += size; // bytesPerRow is a multiple of 256, so the next band's offset stays aligned
          y0 += rows;
        }
      }
      if (used.length) submit();
    } catch (e) {
      // a source that threw, or a lost device: give the staging buffers back to the ring unsubmitted
      for (const s of used) {
        try {
          s.buffer.unmap();
          remap(s);
        } catch {
          /* device gone: `lost` says so */
        }
      }
      throw lost ?? e;
    }
    const writer = items.every((it) => it.source.kind === 'writer');
    return {
      submitted: true,
      submits,
      bytes,
      stagedBytes,
      bytesPerRow: items.length === 1 ? stagingBytesPerRow(items[0]!.width, items[0]!.format) : 0,
      cpuCopyMs,
      waitMs,
      callMs: performance.now() - t0,
      cpuCopiesPerByte: writer ? 0 : 1,
      gpuCopiesPerByte: 1,
      stagingBuffersUsed: slabsUsed,
      copyCommands: copies,
    };
  }

  function uploadMany(items: readonly UploadItem[]): Promise<UploadStats> {
    const run = queueTail.then(
      () => uploadManyNow(items),
      () => uploadManyNow(items),
    );
    queueTail = run.catch(() => undefined);
    return run;
  }

  return {
    upload: (texture, source, layout) => uploadMany([{ texture, source, ...layout }]),
    uploadMany,
    async idle() {
      check();
      await queueTail;
      await device.queue.onSubmittedWorkDone();
      check();
    },
    slabBytes,
    slabCount,
    get lost() {
      return lost;
    },
    destroy() {
      destroyed = true;
      for (const s of slabs) s.buffer.destroy();
    },
  };
}
