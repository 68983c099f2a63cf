// "Did you mean …?": the known name nearest to a mistyped one, by edit distance (a swap of two letters counts as one edit).

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours, each 1. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[] = new Array<number>(rows * cols).fill(0);
  for (let i = 0; i < rows; i++) d[i * cols] = i;
  for (let j = 0; j < cols; j++) d[j] = j;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[(i - 1) * cols + j]! + 1, d[i * cols + j - 1]! + 1, d[(i - 1) * cols + j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[(i - 2) * cols + j - 2]! + 1);
      d[i * cols + j] = best;
    }
  }
  return d[rows * cols - 1]!;
}

/**
 * The candidate nearest to `typed`, or null when none is close enough to be what was meant: at most one edit for
 * names up to four letters, two beyond; or one name that starts the other (`--tone` for `--tonemap`).
 */
export function nearest(typed: string, candidates: readonly string[]): string | null {
  const t = typed.toLowerCase();
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(t, candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  if (best !== null && bestDistance <= (t.length <= 4 ? 1 : 2)) return best;
  const prefixed = t.length >= 3 ? candidates.filter((c) => c.toLowerCase().startsWith(t) || t.startsWith(c.toLowerCase())) : [];
  return prefixed.length === 1 ? prefixed[0]! : null;
}
