// A channel expression's error as the command prints it: the message, then the expression with a caret under the place.

/** Characters of the expression shown around the error: a long expression is cut to this window, marked with "…". */
const WINDOW_CHARS = 72;

/**
 * Three lines: `message`, the expression (control characters shown as spaces so the caret lines up; a long one cut
 * around the place) and `^` under `start`..`end` (one caret at least, at the end for an error past the last character).
 */
export function expressionErrorText(message: string, text: string, start: number, end: number, indent = '  '): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]/g, ' ');
  let from = 0;
  let to = flat.length;
  if (flat.length > WINDOW_CHARS) {
    from = Math.max(0, Math.min(start - (WINDOW_CHARS >> 1), flat.length - WINDOW_CHARS));
    to = from + WINDOW_CHARS;
  }
  const head = from > 0 ? '…' : '';
  const tail = to < flat.length ? '…' : '';
  const caretStart = Math.max(0, Math.min(start, to) - from);
  const caretEnd = Math.max(caretStart + 1, Math.min(end, to) - from);
  const line = `${indent}${head}${flat.slice(from, to)}${tail}`;
  const caret = `${indent}${' '.repeat(head.length + caretStart)}${'^'.repeat(caretEnd - caretStart)}`;
  return `${message}\n${line.trimEnd()}\n${caret}`;
}
