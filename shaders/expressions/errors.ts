// The one error a channel expression can give: what is wrong and what to do, at a span of the expression's text.

/** A bad expression: `message` says what is wrong and what to do; `start`/`end` the span of the text (UTF-16 units, end exclusive). */
export class ExpressionError extends Error {
  constructor(
    message: string,
    readonly start: number,
    readonly end: number,
  ) {
    super(message);
    this.name = 'ExpressionError';
  }
}

/** The longest expression accepted (characters) and the deepest nesting: bounds on parse and check time. */
export const MAX_EXPRESSION_CHARS = 4000;
export const MAX_DEPTH = 64;
/** Operations in one expression: each is one statement of the generated shader. */
export const MAX_NODES = 2000;
/** Channels one expression may read: within WebGPU's default 16 sampled textures per stage when packed four to a texture. */
export const MAX_PLANES = 60;
