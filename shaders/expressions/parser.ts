// The expression grammar, by precedence: comparison < additive < multiplicative < unary minus < call, name, number, ( ).
import { ExpressionError, MAX_DEPTH } from './errors.js';
import { tokenize, type Token } from './lexer.js';

export type BinaryOp = '+' | '-' | '*' | '/' | '<' | '<=' | '>' | '>=' | '==' | '!=';

interface Span {
  start: number;
  end: number;
}

export type Ast =
  | ({ kind: 'number'; value: number } & Span)
  | ({ kind: 'name'; segments: string[]; quoted: boolean } & Span)
  | ({ kind: 'negate'; arg: Ast } & Span)
  | ({ kind: 'binary'; op: BinaryOp; left: Ast; right: Ast } & Span)
  | ({ kind: 'call'; name: string; args: Ast[]; nameEnd: number } & Span);

const COMPARISONS = ['<', '<=', '>', '>=', '==', '!='];

export function parse(src: string): Ast {
  const tokens = tokenize(src);
  let at = 0;
  let depth = 0;
  const peek = (): Token => tokens[at]!;
  const isOp = (t: Token, ...ops: string[]): boolean => t.kind === 'op' && ops.includes(t.text);
  const describe = (t: Token): string => (t.kind === 'end' ? 'the end' : `"${src.slice(t.start, t.end)}"`);
  const deeper = (t: Token): void => {
    if (++depth > MAX_DEPTH) throw new ExpressionError(`the expression nests deeper than ${MAX_DEPTH} levels: simplify it`, t.start, t.end);
  };

  const binaryLevel = (ops: readonly string[], next: () => Ast) => (): Ast => {
    let left = next();
    while (isOp(peek(), ...ops)) {
      const op = tokens[at++]!.text as BinaryOp;
      const right = next();
      left = { kind: 'binary', op, left, right, start: left.start, end: right.end };
    }
    return left;
  };
  const unary = (): Ast => {
    const t = peek();
    if (isOp(t, '-', '+')) {
      at++;
      deeper(t);
      const arg = unary();
      depth--;
      return t.text === '-' ? { kind: 'negate', arg, start: t.start, end: arg.end } : { ...arg, start: t.start };
    }
    return primary();
  };
  const multiplicative = binaryLevel(['*', '/'], unary);
  const additive = binaryLevel(['+', '-'], multiplicative);
  const comparison = binaryLevel(COMPARISONS, additive);

  function primary(): Ast {
    const t = tokens[at++]!;
    if (t.kind === 'number') return { kind: 'number', value: t.value, start: t.start, end: t.end };
    if (t.kind === 'name') {
      if (!isOp(peek(), '(')) return { kind: 'name', segments: t.segments, quoted: t.quoted, start: t.start, end: t.end };
      if (t.quoted || t.segments.length > 1)
        throw new ExpressionError(`${describe(t)} is not a function name: remove the "(" or use a function such as abs`, t.start, t.end);
      at++;
      deeper(t);
      const args: Ast[] = [];
      if (!isOp(peek(), ')'))
        for (;;) {
          args.push(comparison());
          if (isOp(peek(), ',')) {
            at++;
            continue;
          }
          break;
        }
      const close = tokens[at++]!;
      if (!isOp(close, ')'))
        throw new ExpressionError(`expected "," or ")" in the call of ${t.segments[0]}, found ${describe(close)}`, close.start, close.end);
      depth--;
      return { kind: 'call', name: t.segments[0]!, args, nameEnd: t.end, start: t.start, end: close.end };
    }
    if (isOp(t, '(')) {
      deeper(t);
      const inner = comparison();
      const close = tokens[at++]!;
      if (!isOp(close, ')'))
        throw new ExpressionError(`expected ")" to close the "(" at ${t.start + 1}, found ${describe(close)}`, close.start, close.end);
      depth--;
      return { ...inner, start: t.start, end: close.end };
    }
    if (t.kind === 'end')
      throw new ExpressionError(
        src.trim() === '' ? 'the expression is empty: type one, as in diffuse + specular' : 'the expression ends too soon: finish it',
        t.start,
        t.end,
      );
    throw new ExpressionError(`unexpected ${describe(t)}: a number, a channel name, a function or "(" goes here`, t.start, t.end);
  }

  const tree = comparison();
  const rest = peek();
  if (rest.kind !== 'end')
    throw new ExpressionError(
      `unexpected ${describe(rest)} after a complete expression: add an operator or remove it`,
      rest.start,
      rest.end,
    );
  return tree;
}
