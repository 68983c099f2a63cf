// The grid cells marked by their thumbnail (failed, damaged): whether the marks now differ from those last drawn.

/** Where the marks are kept (the controller's maps by file id). */
export interface ThumbMarkSource {
  thumbFailures: ReadonlyMap<string, unknown>;
  thumbDamage: ReadonlyMap<string, unknown>;
}

/** The marks as a key that changes with them: which files are marked, and how. */
export function thumbMarks(source: ThumbMarkSource): string {
  return `${[...source.thumbFailures.keys()].join('\n')}\0${[...source.thumbDamage.keys()].join('\n')}`;
}

/**
 * The marks as the grid last drew them. Compared with the marks now, not with the marks at the last change seen: a
 * mark cleared (its file changed) and set again (the new version's thumbnail) with a render between is drawn cleared,
 * and must be drawn again though the marks look as they did before the clearing.
 */
export class DrawnMarks {
  private drawnKey = '';

  constructor(private readonly source: ThumbMarkSource) {}

  /** The grid renders: what it draws now. */
  drawn(): void {
    this.drawnKey = thumbMarks(this.source);
  }

  /** Whether the grid must render again to show the marks as they are. */
  changed(): boolean {
    return thumbMarks(this.source) !== this.drawnKey;
  }
}
