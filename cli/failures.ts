// What the command says when a file cannot be read or decoded: the error naming the file, and the reason in words.

import { ExrError } from '../codec/index.js';

/** A file that could not be read or decoded: the command prints `exrview: FILE: reason` and exits 1. */
export class FileError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** The reason a decode failed, as the user reads it (no stack trace). */
export function describeFailure(error: unknown): string {
  if (error instanceof ExrError) return error.message;
  if (error instanceof RangeError && /allocat|Array buffer/i.test(error.message)) return `not enough memory to decode (${error.message})`;
  if (error instanceof Error) return error.message;
  return String(error);
}
