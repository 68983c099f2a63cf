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

/** What a prefix source was asked for beyond the bytes it holds: read the file's first `endByte` bytes and try again. */
export class BeyondPrefixError extends Error {
  constructor(readonly endByte: number) {
    super(`needs the first ${endByte} bytes of the file`);
  }
}

/**
 * The first bytes of a file of `sizeBytes`, read ahead (asynchronously, by a caller that cannot block): a read past
 * them throws BeyondPrefixError with how far it reached, for the caller to read that much and parse again.
 */
export function prefixSource(prefix: Uint8Array, sizeBytes: number): ByteSource {
  return {
    sizeBytes,
    readAt(byteOffset, byteLength) {
      if (byteOffset + byteLength > prefix.length) throw new BeyondPrefixError(byteOffset + byteLength);
      return prefix.subarray(byteOffset, byteOffset + byteLength);
    },
  };
}
