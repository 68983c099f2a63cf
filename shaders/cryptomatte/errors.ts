// What can be wrong with a Cryptomatte layer or a request for its matte: one error type, its kind for code, its message for people.

export type CryptomatteErrorKind =
  | 'missing-name'
  | 'unknown-hash'
  | 'unknown-conversion'
  | 'no-ranks'
  | 'missing-rank'
  | 'missing-channel'
  | 'not-float'
  | 'bad-manifest'
  | 'missing-sidecar'
  | 'unknown-layer'
  | 'unknown-name';

/** A malformed layer or an unusable request: `message` says what is wrong and what to do. */
export class CryptomatteError extends Error {
  constructor(
    readonly kind: CryptomatteErrorKind,
    message: string,
    /** The layer it is about, where there is one. */
    readonly layer?: string,
  ) {
    super(message);
    this.name = 'CryptomatteError';
  }
}
