// Random access to a file's bytes: from memory, or from disk with positioned reads (see file-source.ts).

export interface ByteSource {
  readonly sizeBytes: number;
  /** Exactly `byteLength` bytes from `byteOffset` (the caller keeps the range inside sizeBytes). */
  readAt(byteOffset: number, byteLength: number): Uint8Array;
  /**
   * The same bytes in a buffer this thread reuses: valid only until the next transient read of any source on the
   * thread. For callers that are done with the bytes before they read again (fresh buffers cost a page fault per 4 KB).
   */
  readAtTransient?(byteOffset: number, byteLength: number): Uint8Array;
}

export function memorySource(bytes: Uint8Array): ByteSource {
  return {
    sizeBytes: bytes.length,
    readAt: (byteOffset, byteLength) => bytes.subarray(byteOffset, byteOffset + byteLength),
  };
}

/**
 * The first bytes of a file of `sizeBytes`, read ahead (asynchronously, by a caller that cannot block): a read past
 * them throws, and the caller leaves what needed it to a reader with the whole file.
 */
export function prefixSource(prefix: Uint8Array, sizeBytes: number): ByteSource {
  return {
    sizeBytes,
    readAt(byteOffset, byteLength) {
      if (byteOffset + byteLength > prefix.length)
        throw new RangeError(`needs the file's first ${byteOffset + byteLength} bytes, ${prefix.length} were read`);
      return prefix.subarray(byteOffset, byteOffset + byteLength);
    },
  };
}
