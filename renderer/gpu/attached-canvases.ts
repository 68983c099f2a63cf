// The canvases the engine draws on, kept across a device loss so that they go back on the new device's drawers.
import type { DeviceParts } from './device-keeper.js';

type CanvasName = 'preview' | 'grid';

export class AttachedCanvases {
  private preview: HTMLCanvasElement | OffscreenCanvas | null = null;
  private grid: HTMLCanvasElement | null = null;

  constructor(
    private readonly parts: () => DeviceParts,
    private readonly invalidate: (which: CanvasName) => void,
  ) {}

  attachPreview(canvas: HTMLCanvasElement | OffscreenCanvas): void {
    this.preview = canvas;
    this.parts().preview.attach(canvas);
    this.invalidate('preview');
  }
  attachGrid(canvas: HTMLCanvasElement): void {
    this.grid = canvas;
    this.parts().grid.attach(canvas);
    this.invalidate('grid');
  }
  detachPreview(): void {
    this.preview = null;
    this.parts().preview.detach();
  }
  detachGrid(): void {
    this.grid = null;
    this.parts().grid.detach();
  }

  /** The parts were made again on a new device: the canvases go back on them. */
  reattach(): void {
    if (this.preview) this.attachPreview(this.preview);
    if (this.grid) this.attachGrid(this.grid);
  }
}
