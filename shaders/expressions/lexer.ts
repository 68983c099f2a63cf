// The expression language's tokens: numbers, names (dotted paths of plain or double-quoted segments), operators.
import { ExpressionError, MAX_EXPRESSION_CHARS } from './errors.js';

export type TokenKind = 'number' | 'name' | 'op' | 'end';

export interface Token {
  kind: TokenKind;
  /** The number's value (float64, rounded to float32 by the checker). */
  value: number;
  /** A name's segments, quotes removed and escapes applied: `"crypto-00".R` is ["crypto-00", "R"]. */
  segments: string[];
  /** Whether any segment was quoted (a quoted name is never a function or constant). */
  quoted: boolean;
  /** The operator or punctuation: + - * / ( ) , < <= > >= == != */
  text: string;
  start: number;
  end: number;
}

const OPERATORS = ['<=', '>=', '==', '!=', '+', '-', '*', '/', '(', ')', ',', '<', '>'];
const isIdentStart = (c: string): boolean => /[A-Za-z_]/.test(c);
const isIdent = (c: string): boolean => /[A-Za-z0-9_]/.test(c);
const isDigit = (c: string): boolean => c >= '0' && c <= '9';

export function tokenize(src: string): Token[] {
  if (src.length > MAX_EXPRESSION_CHARS)
    throw new ExpressionError(
      `the expression is ${src.length} characters long; at most ${MAX_EXPRESSION_CHARS} are accepted: shorten it`,
      MAX_EXPRESSION_CHARS,
      src.length,
    );
  const tokens: Token[] = [];
  let i = 0;
  const token = (kind: TokenKind, start: number, fields: Partial<Token> = {}): Token => ({
    kind,
    value: NaN,
    segments: [],
    quoted: false,
    text: '',
    start,
    end: i,
    ...fields,
  });
  while (i < src.length) {
    const c = src[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(src[i + 1] ?? ''))) {
      const m = /^(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?/.exec(src.slice(i))!;
      i += m[0].length;
      if (/[eE]/.test(src[i] ?? '')) throw new ExpressionError('an exponent needs digits, as in 1e-3', start, i + 1);
      if (isIdentStart(src[i] ?? ''))
        throw new ExpressionError('a number runs into a name here: put an operator or a space between them', start, i + 1);
      tokens.push(token('number', start, { value: Number(m[0]) }));
      continue;
    }
    if (isIdentStart(c) || c === '"') {
      const segments: string[] = [];
      let quoted = false;
      for (;;) {
        if (src[i] === '"') {
          quoted = true;
          segments.push(readQuoted(src, i, (end) => (i = end)));
        } else if (isIdent(src[i] ?? '')) {
          const s = i;
          while (i < src.length && isIdent(src[i]!)) i++;
          segments.push(src.slice(s, i));
        } else throw new ExpressionError('a name is expected after the dot, as in diffuse.R', start, Math.min(i + 1, src.length));
        // a dot continues the name when a segment follows it (a number after a name is an error anyway)
        if (src[i] === '.' && (isIdent(src[i + 1] ?? '') || src[i + 1] === '"')) {
          i++;
          continue;
        }
        if (src[i] === '.') throw new ExpressionError('a name is expected after the dot, as in diffuse.R', start, i + 1);
        break;
      }
      tokens.push(token('name', start, { segments, quoted }));
      continue;
    }
    const op = OPERATORS.find((o) => src.startsWith(o, i));
    if (op) {
      i += op.length;
      tokens.push(token('op', start, { text: op }));
      continue;
    }
    const hint =
      c === "'" || c === '`'
        ? 'quote names with double quotes, as in "crypto-00".R'
        : c === '=' || c === '!'
          ? 'comparisons are == and !='
          : 'use numbers, channel names, + - * / ( ) , and comparisons';
    throw new ExpressionError(`unexpected character ${JSON.stringify(c)}: ${hint}`, start, start + 1);
  }
  tokens.push(token('end', i));
  return tokens;
}

/** A double-quoted segment from `at` (the quote): \" and \\ escape; `advance` gets the index after the closing quote. */
function readQuoted(src: string, at: number, advance: (end: number) => void): string {
  let out = '';
  let i = at + 1;
  while (i < src.length && src[i] !== '"') {
    if (src[i] === '\\' && (src[i + 1] === '"' || src[i + 1] === '\\')) i++;
    out += src[i];
    i++;
  }
  if (i >= src.length) throw new ExpressionError('this quoted name has no closing double quote: add one', at, src.length);
  if (out === '') throw new ExpressionError('a quoted name cannot be empty', at, i + 1);
  advance(i + 1);
  return out;
}
