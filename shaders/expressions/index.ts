// Channel expressions: a small typed language over an image's channels and layers, checked against its channel list,
// evaluated on the CPU (the reference) and compiled to one WGSL compute shader. The language is in README.md.
import { check, type ExpressionProgram } from './check.js';
import { ExpressionError } from './errors.js';

export { ExpressionError, MAX_EXPRESSION_CHARS } from './errors.js';
export type { ExpressionProgram } from './check.js';
export { evaluateExpression } from './cpu.js';
export { expressionWgsl } from './wgsl.js';
export { FUNCTIONS } from './functions.js';

export type Compiled = { ok: true; program: ExpressionProgram } | { ok: false; error: ExpressionError };

const CACHE_ENTRIES = 64;
const cache = new Map<string, Compiled>();

/**
 * The expression checked against `channels` (the part's full channel names): the program, or the error at its place.
 * Cached by text and channel list. Never throws for any text.
 */
export function compileExpression(text: string, channels: readonly string[]): Compiled {
  const key = `${text}\0${channels.join('\0')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let result: Compiled;
  try {
    result = { ok: true, program: check(text, channels) };
  } catch (e) {
    if (!(e instanceof ExpressionError)) throw e;
    result = { ok: false, error: e };
  }
  cache.set(key, result);
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return result;
}
