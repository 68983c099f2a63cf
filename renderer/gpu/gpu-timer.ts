// GPU time of one kind of pass from timestamp queries, read back asynchronously: never awaited, never allocating per
// use; while the previous reading is still mapping, the next pass simply goes untimed.

export class GpuTimer {
  private readonly querySet: GPUQuerySet;
  private readonly resolveBuffer: GPUBuffer;
  private readonly readBuffer: GPUBuffer;
  private busy = false;
  private readonly writes: GPUComputePassTimestampWrites;
  /** Last measured GPU time, ms; NaN before the first. */
  lastMs = NaN;
  samples = 0;

  constructor(
    private readonly device: GPUDevice,
    label: string,
  ) {
    this.querySet = device.createQuerySet({ label, type: 'timestamp', count: 2 });
    this.resolveBuffer = device.createBuffer({
      label: `${label} resolve`,
      size: 16,
      usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC,
    });
    this.readBuffer = device.createBuffer({ label: `${label} read`, size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    this.writes = { querySet: this.querySet, beginningOfPassWriteIndex: 0, endOfPassWriteIndex: 1 };
  }

  /** Timestamp writes for the next pass, or undefined while the last reading is in flight. */
  begin(): GPUComputePassTimestampWrites | undefined {
    return this.busy ? undefined : this.writes;
  }

  /** Timestamps spanning several passes: first pass gets the start, last pass the end. */
  beginOnly(): GPUComputePassTimestampWrites | undefined {
    return this.busy ? undefined : { querySet: this.querySet, beginningOfPassWriteIndex: 0 };
  }
  endOnly(): GPUComputePassTimestampWrites | undefined {
    return this.busy ? undefined : { querySet: this.querySet, endOfPassWriteIndex: 1 };
  }

  /** After the timed pass(es), before finish(): copy the stamps out. */
  resolve(encoder: GPUCommandEncoder): void {
    encoder.resolveQuerySet(this.querySet, 0, 2, this.resolveBuffer, 0);
    encoder.copyBufferToBuffer(this.resolveBuffer, 0, this.readBuffer, 0, 16);
    this.busy = true;
  }

  /** After submit: map when the GPU is done, record, unmap. Not awaited by the caller. */
  collect(): void {
    this.readBuffer.mapAsync(GPUMapMode.READ).then(
      () => {
        const t = new BigUint64Array(this.readBuffer.getMappedRange(), 0, 2);
        const ns = Number(t[1]! - t[0]!);
        this.readBuffer.unmap();
        if (ns >= 0) {
          this.lastMs = ns / 1e6;
          this.samples++;
        }
        this.busy = false;
      },
      () => {
        this.busy = false;
      },
    );
  }

  destroy(): void {
    this.querySet.destroy();
    this.resolveBuffer.destroy();
    this.readBuffer.destroy();
  }
}
