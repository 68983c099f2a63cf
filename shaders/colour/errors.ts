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

/** A processor whose transforms expand past the builder's cap: references that fan out (a space that refers to two spaces
 * that each refer to two more…) grow exponentially without ever looping, so they are refused before the work runs away. */
export class ColourExpansionError extends ColourConfigError {
  constructor(
    file: string,
    line: number | undefined,
    /** The chain of transforms being expanded when the cap was reached, outermost first. */
    readonly chain: readonly string[],
    readonly limit: number,
  ) {
    super(
      file,
      line,
      `${chain[0] ?? 'the processor'} expands to more than ${limit} transforms and ops (at ${chain.slice(-4).join(' → ')}): ` +
        'the config refers to the same spaces over and over; refer to each once, or bake the chain into one LUT',
    );
  }
}
