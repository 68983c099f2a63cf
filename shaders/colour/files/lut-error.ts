// The error a LUT reader raises: the file, the line when known, what is wrong and what to do (lut-files.ts makes it a ColourConfigError).

export class LutFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${reason}`);
  }
}
