// How a file-system error reads in a message to the user: its text without Node's code prefix.

/** An fs error's message without its code prefix ("EACCES: permission denied, open '…'" → "permission denied, open '…'"). */
export function fsReason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/^[A-Z]+: /, '');
}
