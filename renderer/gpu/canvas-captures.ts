// Reads back what a frame drew on a canvas, from a copy of its texture: only on request (tests, diagnostics), as a
// capture allocates a buffer and maps it, which no normal frame does.
import type { CanvasCapture } from './engine-types.js';

export type CanvasName = 'preview' | 'grid';

interface Request {
  which: CanvasName;
  resolve: (c: CanvasCapture) => void;
  reject: (e: unknown) => void;
}

export class CanvasCaptures {
  private requests: Request[] = [];

  get wanted(): boolean {
    return this.requests.length > 0;
  }

  /** Resolves with the canvas as the next frame that draws it leaves it. */
  request(which: CanvasName): Promise<CanvasCapture> {
    return new Promise((resolve, reject) => {
      this.requests.push({ which, resolve, reject });
    });
  }

  /**
   * Copies the textures drawn this frame into readable buffers; call the returned function once the frame is
   * submitted (it maps them). A request for a canvas not drawn this frame waits for one that is.
   */
  encode(device: GPUDevice, encoder: GPUCommandEncoder, drawn: Record<CanvasName, GPUTexture | null>): () => void {
    const done: (() => void)[] = [];
    const rest: Request[] = [];
    for (const c of this.requests) {
      const texture = drawn[c.which];
      if (!texture) {
        rest.push(c);
        continue;
      }
      // 8 bytes a texel on the HDR canvas (rgba16float), 4 on the SDR ones
      const bytesPerRow = Math.ceil((texture.width * (texture.format === 'rgba16float' ? 8 : 4)) / 256) * 256;
      const buffer = device.createBuffer({
        label: 'capture',
        size: bytesPerRow * texture.height,
        usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ,
      });
      encoder.copyTextureToBuffer({ texture }, { buffer, bytesPerRow }, { width: texture.width, height: texture.height });
      const { width, height, format } = texture;
      done.push(() => {
        buffer.mapAsync(GPUMapMode.READ).then(() => {
          const data = new Uint8Array(buffer.getMappedRange().slice(0));
          buffer.destroy();
          c.resolve({ widthPx: width, heightPx: height, format, bytesPerRow, data });
        }, c.reject);
      });
    }
    this.requests = rest;
    return () => {
      for (const d of done) d();
    };
  }
}
