// The codec's one error type: what went wrong (kind), where (file, part, chunk), and why.

export type ExrErrorKind = 'invalid' | 'unsupported' | 'io' | 'aborted';

export interface ExrErrorWhere {
  file?: string;
  part?: number;
  chunk?: number;
}

export class ExrError extends Error {
  override readonly name = 'ExrError';
  constructor(
    readonly kind: ExrErrorKind,
    readonly reason: string,
    readonly where: ExrErrorWhere = {},
  ) {
    super(formatMessage(reason, where));
  }

  /** The same error with more location filled in (inner code rarely knows the file name). */
  at(where: ExrErrorWhere): ExrError {
    const merged = { ...where, ...this.where };
    const error = new ExrError(this.kind, this.reason, merged);
    error.stack = this.stack;
    return error;
  }
}

function formatMessage(reason: string, where: ExrErrorWhere): string {
  const place: string[] = [];
  if (where.part !== undefined) place.push(`part ${where.part}`);
  if (where.chunk !== undefined) place.push(`chunk ${where.chunk}`);
  return place.length ? `${place.join(', ')}: ${reason}` : reason;
}

export const invalid = (reason: string, where?: ExrErrorWhere): ExrError => new ExrError('invalid', reason, where);
export const unsupported = (reason: string, where?: ExrErrorWhere): ExrError => new ExrError('unsupported', reason, where);
export const aborted = (reason = 'cancelled'): ExrError => new ExrError('aborted', reason);

/** Any thrown value as an ExrError (a RangeError from a DataView read past the end is damage, not a bug to surface). */
export function asExrError(error: unknown, where: ExrErrorWhere = {}): ExrError {
  if (error instanceof ExrError) return error.at(where);
  if (error instanceof RangeError) return new ExrError('invalid', `truncated or corrupt data (${error.message})`, where);
  if (error && typeof error === 'object' && 'code' in error && typeof (error as { code: unknown }).code === 'string') {
    const code = (error as { code: string }).code;
    const message = error instanceof Error ? error.message : code;
    if (code.startsWith('Z_') || code.startsWith('ERR_BUFFER')) return new ExrError('invalid', `corrupt zlib stream (${message})`, where);
    return new ExrError('io', message, where);
  }
  return new ExrError('invalid', error instanceof Error ? error.message : String(error), where);
}
