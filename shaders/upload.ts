// Staged uploads of decoded images into GPU textures: a ring of mapped staging buffers, one CPU copy per byte, one submission per image.
//
// How the renderer's engine uses it (device-agnostic: WebGPU only, works on a browser's device and on Dawn's in Node):
//
//   const uploader = createUploader(device, { ringBytes: 256 << 20 });
//   const texture = device.createTexture({ size: [w, h], format: 'rgba16float',
//     usage: GPUTextureUsage.COPY_DST | GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.STORAGE_BINDING });
//   const stats = await uploader.upload(texture, { kind: 'planes', r, g, b, a }, { width: w, height: h, format: 'rgba16float' });
//   // encode MIP / tone-map work right after: the queue orders it behind the copy; no wait is needed.
//
// - `upload` resolves as soon as the copy is *submitted* (not completed): it awaits only when every staging
//   buffer of the ring is still in flight (`stats.waitMs` says how long). Await `uploader.idle()` (or
//   `queue.onSubmittedWorkDone()`) only where a wall time or a readback needs the GPU to have finished.
// - Sources: `rgba` (interleaved, copied row by row into mapped memory), `planes` (R, G, B[, A] as the decoder
//   gives them; `interleave: 'cpu'` interleaves straight into the mapped range — that write is the one copy —
//   `interleave: 'gpu'` copies the planes as they are and interleaves in a compute pass, which needs the
//   texture's STORAGE_BINDING usage), `writer` (the decoder writes rows into the mapped range itself: no copy).
// - Size the ring to hold at least one image (4K half RGBA = 66 MB, 8K half = 265 MB): an image larger than the
//   ring is still uploaded, but in several submissions with waits between (`stats.submits`).
// - After device loss every call rejects with `GpuDeviceLostError` instead of crashing or hanging.

export type UploadFormat = 'rgba16float' | 'rgba32float';
export type PixelArray = Uint16Array | Float32Array;

export interface UploadLayout {
  width: number;
  height: number;
  format: UploadFormat;
}

/** One band of rows of staging memory handed to a `writer` source: interleaved RGBA rows, `bytesPerRow` apart. */
export interface StagingBand {
  bytes: Uint8Array;
  bytesPerRow: number;
  y0: number;
  rows: number;
  width: number;
  format: UploadFormat;
}

export type UploadSource =
  | { kind: 'rgba'; data: PixelArray }
  | { kind: 'planes'; r: PixelArray; g: PixelArray; b: PixelArray; a?: PixelArray | undefined; interleave?: 'cpu' | 'gpu' }
  | { kind: 'writer'; write(band: StagingBand): void };

export interface UploadStats {
  /** True once the commands are on the queue; the GPU may still be copying. */
  submitted: boolean;
  submits: number;
  /** Pixel bytes of the image (width × height × 4 channels × bytes per channel). */
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
  /** GPU-side passes over the bytes: 1 DMA copy into the texture, or DMA + interleave pass for `interleave: 'gpu'`. */
  gpuCopiesPerByte: number;
  stagingBuffersUsed: number;
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

export function bytesPerPixel(format: UploadFormat): number {
  return format === 'rgba16float' ? 8 : 16;
}

export function alignUp(n: number, alignment: number): number {
  return Math.ceil(n / alignment) * alignment;
}

/** Row pitch of interleaved RGBA in staging memory: width × pixel size, rounded up to 256. */
export function stagingBytesPerRow(width: number, format: UploadFormat): number {
  return alignUp(width * bytesPerPixel(format), BYTES_PER_ROW_ALIGNMENT);
}

/** Planar staging (GPU interleave): each plane's rows tightly packed, each plane starting 256-aligned. */
export function planeStrideBytes(width: number, rows: number, format: UploadFormat): number {
  return alignUp(width * rows * (format === 'rgba16float' ? 2 : 4), BYTES_PER_ROW_ALIGNMENT);
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

function interleaveWgsl(format: UploadFormat): string {
  const load =
    format === 'rgba16float'
      ? `fn ch(plane: u32, i: u32) -> f32 {
  let v = unpack2x16float(src[plane * p.planeWords + (i >> 1u)]);
  return select(v.x, v.y, (i & 1u) == 1u);
}`
      : `fn ch(plane: u32, i: u32) -> f32 { return bitcast<f32>(src[plane * p.planeWords + i]); }`;
  return `// Interleaves one band of planar staging data (R, G, B[, A] planes) into an RGBA texture.
struct Params { width: u32, rows: u32, y0: u32, planeWords: u32, hasAlpha: u32 }
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var dst: texture_storage_2d<${format}, write>;
@group(0) @binding(2) var<uniform> p: Params;
${load}
@compute @workgroup_size(64, 4)
fn main(@builtin(global_invocation_id) id: vec3u) {
  if (id.x >= p.width || id.y >= p.rows) { return; }
  let i = id.y * p.width + id.x;
  let alpha = select(1.0, ch(3u, i), p.hasAlpha == 1u);
  textureStore(dst, vec2u(id.x, p.y0 + id.y), vec4f(ch(0u, i), ch(1u, i), ch(2u, i), alpha));
}
`;
}

interface Slab {
  buffer: GPUBuffer;
  /** Pending re-map after a submission; null while mapped and free. */
  ready: Promise<void> | null;
  index: number;
}

interface Band {
  slab: Slab;
  y0: number;
  rows: number;
}

const PARAMS_STRIDE = 256; // minUniformBufferOffsetAlignment's largest allowed value

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
    slabs.push({ buffer, ready: null, index: i });
  }
  let next = 0;

  // GPU interleave: created on first use
  const interleavePipelines = new Map<UploadFormat, GPUComputePipeline>();
  let scratch: GPUBuffer | null = null;
  let params: GPUBuffer | null = null;

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
        // a failed map means the device is gone or the buffer destroyed: surface it on the next acquire
        if (!lost) lost = new GpuDeviceLostError('map-failed', e instanceof Error ? e.message : String(e));
      },
    );
  }

  function pipelineFor(format: UploadFormat): GPUComputePipeline {
    let p = interleavePipelines.get(format);
    if (!p) {
      const module = device.createShaderModule({ label: `${label} interleave ${format}`, code: interleaveWgsl(format) });
      p = device.createComputePipeline({ label: `${label} interleave ${format}`, layout: 'auto', compute: { module, entryPoint: 'main' } });
      interleavePipelines.set(format, p);
    }
    return p;
  }

  async function upload(texture: GPUTexture, source: UploadSource, layout: UploadLayout): Promise<UploadStats> {
    check();
    const t0 = performance.now();
    const { width, height, format } = layout;
    if (texture.width < width || texture.height < height) throw new Error(`upload: texture ${texture.width}x${texture.height} smaller than image ${width}x${height}`);
    if (texture.format !== format) throw new Error(`upload: texture format ${texture.format} is not ${format}`);
    const planar = source.kind === 'planes' && source.interleave === 'gpu';
    const bpp = bytesPerPixel(format);
    const chBytes = bpp / 4;
    const bytesPerRow = stagingBytesPerRow(width, format);
    if (source.kind === 'rgba' && source.data.length < width * height * 4) throw new Error('upload: rgba source shorter than width*height*4');
    if (source.kind === 'planes') {
      for (const p of [source.r, source.g, source.b, source.a]) if (p && p.length < width * height) throw new Error('upload: plane shorter than width*height');
      if ((source.r instanceof Uint16Array) !== (format === 'rgba16float')) throw new Error(`upload: plane type does not match ${format}`);
    }
    // rows per band: interleaved rows are bytesPerRow apart; planar bands need 4 plane segments
    const rowsPerBand = planar
      ? Math.max(1, Math.floor((slabBytes - 4 * BYTES_PER_ROW_ALIGNMENT) / (4 * width * chBytes)))
      : Math.floor(slabBytes / bytesPerRow);
    if (rowsPerBand < 1) throw new Error(`upload: one row (${bytesPerRow} B) exceeds the staging slab (${slabBytes} B)`);

    let encoder = device.createCommandEncoder({ label: `${label} upload` });
    let inFlight: Band[] = []; // bands encoded, not yet submitted
    let submits = 0;
    let cpuCopyMs = 0;
    let waitMs = 0;
    let stagedBytes = 0;
    let slabsUsed = 0;
    const paramWrites: { offset: number; data: Uint32Array<ArrayBuffer> }[] = [];

    const submit = () => {
      for (const w of paramWrites) device.queue.writeBuffer(params!, w.offset, w.data);
      paramWrites.length = 0;
      for (const band of inFlight) band.slab.buffer.unmap();
      device.queue.submit([encoder.finish()]);
      submits++;
      // re-map at once: the promise settles when the GPU is done with the copy; nobody waits for it here
      for (const band of inFlight) remap(band.slab);
      inFlight = [];
      encoder = device.createCommandEncoder({ label: `${label} upload` });
    };

    try {
      for (let y0 = 0; y0 < height; y0 += rowsPerBand) {
        const rows = Math.min(rowsPerBand, height - y0);
        const slab = slabs[next]!;
        next = (next + 1) % slabCount;
        if (inFlight.some((b) => b.slab === slab)) submit(); // image larger than the ring: flush what we have
        if (slab.ready) {
          const tw = performance.now();
          await slab.ready;
          waitMs += performance.now() - tw;
        }
        check();
        slabsUsed++;
        const used = planar ? 4 * planeStrideBytes(width, rows, format) : bytesPerRow * rows;
        const tc = performance.now();
        const bytes = new Uint8Array(slab.buffer.getMappedRange(0, used));
        inFlight.push({ slab, y0, rows });
        if (source.kind === 'rgba') {
          const rowBytes = width * bpp;
          const srcBytes = new Uint8Array(source.data.buffer, source.data.byteOffset, source.data.byteLength);
          if (rowBytes === bytesPerRow) bytes.set(srcBytes.subarray(y0 * rowBytes, (y0 + rows) * rowBytes));
          else for (let y = 0; y < rows; y++) bytes.set(srcBytes.subarray((y0 + y) * rowBytes, (y0 + y + 1) * rowBytes), y * bytesPerRow);
        } else if (source.kind === 'writer') {
          source.write({ bytes, bytesPerRow, y0, rows, width, format });
        } else if (!planar) {
          interleavePlanesInto(bytes, bytesPerRow, source, width, y0, rows);
        } else {
          const stride = planeStrideBytes(width, rows, format);
          const planes = [source.r, source.g, source.b, source.a];
          for (let c = 0; c < 4; c++) {
            const p = planes[c];
            if (!p) continue;
            const seg = new Uint8Array(p.buffer, p.byteOffset + y0 * width * chBytes, rows * width * chBytes);
            bytes.set(seg, c * stride);
          }
        }
        cpuCopyMs += performance.now() - tc;
        stagedBytes += used;

        if (!planar) {
          encoder.copyBufferToTexture(
            { buffer: slab.buffer, offset: 0, bytesPerRow, rowsPerImage: rows },
            { texture, origin: { x: 0, y: y0 } },
            { width, height: rows },
          );
        } else {
          if (!scratch) {
            scratch = device.createBuffer({ label: `${label} interleave scratch`, size: slabBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST });
            params = device.createBuffer({ label: `${label} interleave params`, size: PARAMS_STRIDE * slabCount, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
          }
          const stride = planeStrideBytes(width, rows, format);
          // one scratch buffer serves every band: the queue orders copy → pass → next copy
          encoder.copyBufferToBuffer(slab.buffer, 0, scratch, 0, used);
          const paramOffset = slab.index * PARAMS_STRIDE;
          paramWrites.push({ offset: paramOffset, data: new Uint32Array([width, rows, y0, stride / 4, source.a ? 1 : 0]) });
          const pipeline = pipelineFor(format);
          const bind = device.createBindGroup({
            layout: pipeline.getBindGroupLayout(0),
            entries: [
              { binding: 0, resource: { buffer: scratch, offset: 0, size: used } },
              { binding: 1, resource: texture.createView({ baseMipLevel: 0, mipLevelCount: 1 }) },
              { binding: 2, resource: { buffer: params!, offset: paramOffset, size: 20 } },
            ],
          });
          const pass = encoder.beginComputePass({ label: `${label} interleave` });
          pass.setPipeline(pipeline);
          pass.setBindGroup(0, bind);
          pass.dispatchWorkgroups(Math.ceil(width / 64), Math.ceil(rows / 4));
          pass.end();
        }
      }
      submit();
    } catch (e) {
      // a source that threw, or a lost device: give the staging buffers back to the ring unsubmitted
      for (const band of inFlight) {
        try {
          band.slab.buffer.unmap();
          remap(band.slab);
        } catch {
          /* device gone: `lost` says so */
        }
      }
      throw lost ?? e;
    }
    return {
      submitted: true,
      submits,
      bytes: width * height * bpp,
      stagedBytes,
      bytesPerRow,
      cpuCopyMs,
      waitMs,
      callMs: performance.now() - t0,
      cpuCopiesPerByte: source.kind === 'writer' ? 0 : 1,
      gpuCopiesPerByte: planar ? 2 : 1,
      stagingBuffersUsed: slabsUsed,
    };
  }

  return {
    upload,
    async idle() {
      check();
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
      scratch?.destroy();
      params?.destroy();
    },
  };
}
