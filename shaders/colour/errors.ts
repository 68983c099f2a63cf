// The error every colour-management failure raises: the file, the line when known, what happened and what to do.

export class ColourConfigError extends Error {
  constructor(
    readonly file: string,
    readonly line: number | undefined,
    readonly reason: string,
  ) {
    super(`${file}${line !== undefined ? `:${line}` : ''}: ${reason}`);
  }
}
