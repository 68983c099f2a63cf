// Frame sequences among a folder's files: `name.####.exr`, `name_####.exr`, `name####.exr`, any padding, gaps allowed.
//
// Pure (names in, groups out) so that a folder of thousands of frames is grouped in one pass, on every scan and change.

/** What a file name says about the frame it may be: the text before the number, the number and how it is written. */
export interface FrameName {
  /** Folder-relative directory ('' at the root, else ending in '/'). */
  dir: string;
  /** The name before the separator: 'beauty' of 'beauty.0001.exr'. */
  base: string;
  /** '.', '_' or '' (digits straight after the name). */
  separator: '.' | '_' | '';
  digits: string;
  frame: number;
  /** The extension as written ('.exr', '.EXR'). */
  extension: string;
}

/** The last run of digits before the extension; what comes before it, and one '.' or '_' right before it. */
const FRAME_NAME = /^(.*?)([._]?)(\d+)(\.exr)$/i;
/** Frame numbers past this are more likely dates or ids than frames (and would not fit a double exactly). */
const MAX_FRAME_DIGITS = 9;

/** How `relativePath` reads as a frame, or null when its name has no frame number. */
export function parseFrameName(relativePath: string): FrameName | null {
  const slash = relativePath.lastIndexOf('/');
  const dir = relativePath.slice(0, slash + 1);
  const name = relativePath.slice(slash + 1);
  const m = FRAME_NAME.exec(name);
  if (!m) return null;
  // the lazy prefix ends where the last digit run starts, so the number keeps all its digits
  const base = m[1]!;
  const separator = m[2] as FrameName['separator'];
  const digits = m[3]!;
  if (digits.length > MAX_FRAME_DIGITS) return null;
  return { dir, base, separator, digits, frame: Number(digits), extension: m[4]! };
}

export interface FileForSequence {
  id: string;
  relativePath: string;
}

export interface DetectedSequence<F extends FileForSequence = FileForSequence> {
  /** Same for the same pattern on every scan: 'shots/beauty.####.exr' (a # per digit of the padding). */
  pattern: string;
  dir: string;
  name: string;
  padding: number;
  firstFrame: number;
  lastFrame: number;
  step: number;
  /** In frame order. */
  frames: { frame: number; file: F }[];
  /** Within first..last, every `step`. */
  missingFrames: number[];
}

/** Fewest frames that make a sequence: one numbered file stays a file (`v2.exr`, `shot010.exr`). */
export const MIN_SEQUENCE_FRAMES = 2;

/**
 * Groups files into sequences. Files belong together when they share folder, name, separator and extension and
 * their numbers are written with the same padding: `a.0001.exr` … `a.0999.exr` and `a.1000.exr` are one (a number
 * longer than the padding is not zero-led), `a.001.exr` and `a.0001.exr` are two. `shotOf` says what every frame of
 * one shot shares (the display window): numbered files that differ there are a folder of images, not a sequence
 * (`img-00001.exr` … of many sizes), and stay files; null where it is not known (a damaged frame). Returns the
 * sequences and the files that are in none.
 */
export function detectSequences<F extends FileForSequence>(
  files: readonly F[],
  shotOf: (file: F) => string | null = () => null,
): { sequences: DetectedSequence<F>[]; singles: F[] } {
  const groups = new Map<string, { name: FrameName; file: F }[]>();
  const singles: F[] = [];
  for (const file of files) {
    const name = parseFrameName(file.relativePath);
    if (!name) {
      singles.push(file);
      continue;
    }
    const key = `${name.dir}\0${name.base}\0${name.separator}\0${name.extension.toLowerCase()}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push({ name, file });
  }
  const sequences: DetectedSequence<F>[] = [];
  for (const group of groups.values()) {
    for (const [padding, members] of byPadding(group)) {
      if (members.length < MIN_SEQUENCE_FRAMES || !oneShot(members, shotOf)) {
        for (const m of members) singles.push(m.file);
        continue;
      }
      sequences.push(makeSequence(members, padding, singles));
    }
  }
  sequences.sort((a, b) => (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0));
  return { sequences, singles };
}

/**
 * Splits one name's numbers by padding. A zero-led number fixes its padding (its length); a number that is not
 * zero-led fits the longest padding no longer than itself, or, with none, is unpadded (its group's shortest length).
 */
function byPadding<T extends { name: FrameName }>(group: T[]): Map<number, T[]> {
  const pads = new Set<number>();
  for (const m of group) if (m.name.digits.length > 1 && m.name.digits[0] === '0') pads.add(m.name.digits.length);
  const sorted = [...pads].sort((a, b) => b - a);
  const out = new Map<number, T[]>();
  const unpadded: T[] = [];
  for (const m of group) {
    const length = m.name.digits.length;
    const zeroLed = length > 1 && m.name.digits[0] === '0';
    const padding = zeroLed ? length : sorted.find((p) => p <= length);
    if (padding === undefined) {
      unpadded.push(m);
      continue;
    }
    let list = out.get(padding);
    if (!list) out.set(padding, (list = []));
    list.push(m);
  }
  // numbers shorter than every padding of the name: unpadded, shown with the shortest length's #s
  if (unpadded.length) out.set(Math.min(...unpadded.map((m) => m.name.digits.length)), unpadded);
  return out;
}

function oneShot<F>(members: { file: F }[], shotOf: (file: F) => string | null): boolean {
  let shot: string | null = null;
  for (const m of members) {
    const s = shotOf(m.file);
    if (s === null) continue;
    if (shot !== null && s !== shot) return false;
    shot = s;
  }
  return true;
}

function makeSequence<F extends FileForSequence>(
  members: { name: FrameName; file: F }[],
  padding: number,
  singles: F[],
): DetectedSequence<F> {
  members.sort((a, b) => a.name.frame - b.name.frame);
  // the same frame twice (`a.1.exr` beside `a.1.EXR`): the first stays in the sequence, the other is a file of its own
  const frames: { frame: number; file: F }[] = [];
  for (const m of members) {
    if (frames.length && frames[frames.length - 1]!.frame === m.name.frame) singles.push(m.file);
    else frames.push({ frame: m.name.frame, file: m.file });
  }
  const first = frames[0]!.frame;
  const last = frames[frames.length - 1]!.frame;
  let step = 0;
  for (let i = 1; i < frames.length; i++) step = gcd(step, frames[i]!.frame - frames[i - 1]!.frame);
  step = Math.max(1, step);
  const missingFrames: number[] = [];
  let next = 0;
  for (let f = first; f <= last; f += step) {
    if (frames[next]?.frame === f) next++;
    else missingFrames.push(f);
  }
  const { dir, base, separator, extension } = members[0]!.name;
  const name = `${base}${separator}${'#'.repeat(padding)}${extension}`;
  return { pattern: `${dir}${name}`, dir, name, padding, firstFrame: first, lastFrame: last, step, frames, missingFrames };
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

/** Missing frames as short text for people: '1005-1007, 1012' (runs of `step`). */
export function frameRanges(frames: readonly number[], step = 1): string {
  const parts: string[] = [];
  for (let i = 0; i < frames.length;) {
    let j = i;
    while (j + 1 < frames.length && frames[j + 1]! - frames[j]! === step) j++;
    parts.push(j === i ? `${frames[i]}` : `${frames[i]}-${frames[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
