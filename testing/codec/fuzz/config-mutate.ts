// Text mutations of configs and LUT files: lines dropped, doubled, swapped, re-indented or cut; numbers made extreme; names
// swapped for other names (loops), tags for other tags, transforms for references that fan out; YAML punctuation, anchors and
// aliases dropped in; sizes made huge.

import { OCIO_TAGS } from '../../../shaders/colour/yaml-tree.js';
import type { Rng } from './mutate.js';

const EXTREME_NUMBERS = [
  '0',
  '-0',
  '-1',
  '1e308',
  '-1e308',
  '1e-45',
  'nan',
  '.inf',
  '-.inf',
  'NaN',
  '4096',
  '100000000',
  '65',
  '2',
  '1',
  '3',
];
const PUNCTUATION = ['[', ']', '{', '}', ':', ': ', '- ', '&a ', '*a', '!', '|', '>', "'", '"', '#', ',', '\t', '\n', '  ', '%'];
const NUMBER = /[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/g;

function linesOf(text: string): string[] {
  return text.split('\n');
}

/** The names a config uses (colour spaces, looks, views, displays): swapping one for another makes loops and dangling names. */
function namesOf(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/name:\s*("[^"\n]*"|[^,}\n]+)/g)) names.add(m[1]!.trim());
  return [...names];
}

/** Each colour space's name and where it is defined (flow `!<ColorSpace> {name: …}`, or block with the name on the next line). */
function spacesOf(text: string): { name: string; at: number }[] {
  return [...text.matchAll(/!<ColorSpace>\s*\{?\s*name:\s*("[^"\n]*"|[^,}\n]+)/g)].map((m) => ({ name: m[1]!.trim(), at: m.index }));
}

type Mutation = (text: string, rng: Rng) => [string, string];

const MUTATIONS: Mutation[] = [
  (text, rng) => {
    const lines = linesOf(text);
    const at = rng.int(lines.length);
    lines.splice(at, 1);
    return [lines.join('\n'), `drop line ${at + 1}`];
  },
  (text, rng) => {
    const lines = linesOf(text);
    const at = rng.int(lines.length);
    const copies = rng.pick([1, 1, 2, 50]);
    lines.splice(at, 0, ...Array<string>(copies).fill(lines[at]!));
    return [lines.join('\n'), `repeat line ${at + 1} ${copies}x`];
  },
  (text, rng) => {
    const lines = linesOf(text);
    const a = rng.int(lines.length),
      b = rng.int(lines.length);
    [lines[a], lines[b]] = [lines[b]!, lines[a]!];
    return [lines.join('\n'), `swap lines ${a + 1} and ${b + 1}`];
  },
  (text, rng) => {
    const lines = linesOf(text);
    const at = rng.int(lines.length);
    const line = lines[at]!;
    lines[at] = rng.next() < 0.5 ? line.replace(/^ {1,2}/, '') : `  ${line}`;
    return [lines.join('\n'), `re-indent line ${at + 1}`];
  },
  (text, rng) => {
    const at = rng.int(text.length + 1);
    return [text.slice(0, at), `cut at ${at}`];
  },
  (text, rng) => {
    const numbers = [...text.matchAll(NUMBER)];
    if (numbers.length === 0) return [text, 'no number'];
    const m = numbers[rng.int(numbers.length)]!;
    const value = rng.pick(EXTREME_NUMBERS);
    return [text.slice(0, m.index) + value + text.slice(m.index + m[0].length), `number at ${m.index} -> ${value}`];
  },
  (text, rng) => {
    const at = rng.int(text.length + 1);
    const insert = rng.pick(PUNCTUATION);
    return [text.slice(0, at) + insert + text.slice(at), `insert ${JSON.stringify(insert)} at ${at}`];
  },
  (text, rng) => {
    const at = rng.int(text.length);
    const code = text.charCodeAt(at) ^ (1 << rng.int(7));
    return [text.slice(0, at) + String.fromCharCode(code) + text.slice(at + 1), `flip a bit at ${at}`];
  },
  (text, rng) => {
    const names = namesOf(text);
    if (names.length < 2) return [text, 'no names'];
    const from = rng.pick(names),
      to = rng.pick(names);
    // one use of `from`, not all: a reference elsewhere now points at another space, look or view
    const uses = [...text.matchAll(new RegExp(from.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'))];
    const m = uses[rng.int(uses.length)]!;
    return [text.slice(0, m.index) + to + text.slice(m.index + from.length), `name ${from} -> ${to}`];
  },
  (text, rng) => {
    const tags = [...text.matchAll(/!<(\w+)>/g)];
    if (tags.length === 0) return [text, 'no tags'];
    const m = tags[rng.int(tags.length)]!;
    const tag = rng.next() < 0.9 ? rng.pick(OCIO_TAGS) : `${m[1]}X`;
    return [text.slice(0, m.index) + `!<${tag}>` + text.slice(m.index + m[0].length), `tag ${m[1]} -> ${tag}`];
  },
  (text, rng) => {
    // an anchor on one line's value and an alias to it on another: shared values, or a value that holds itself
    const lines = linesOf(text);
    const a = rng.int(lines.length),
      b = rng.int(lines.length);
    lines[a] = lines[a]!.replace(/: /, ': &z ');
    lines[b] = lines[b]!.replace(/: .*$/, ': *z');
    return [lines.join('\n'), `anchor line ${a + 1}, alias line ${b + 1}`];
  },
  (text, rng) => {
    // an anchor on a block (a key ending its line) and an alias a few lines into that block: a value that holds itself
    const lines = linesOf(text);
    const blocks = lines.flatMap((line, k) => (/^\s*[^#\s][^:]*:\s*$/.test(line) ? [k] : []));
    if (blocks.length === 0) return [text, 'no blocks'];
    const a = rng.pick(blocks);
    const b = Math.min(lines.length - 1, a + 1 + rng.int(4));
    lines[a] = `${lines[a]!.trimEnd()} &z`;
    lines[b] = lines[b]!.includes(': ') ? lines[b]!.replace(/: .*$/, ': *z') : lines[b]!.replace(/- .*$/, '- *z');
    return [lines.join('\n'), `anchor block line ${a + 1}, alias inside it at line ${b + 1}`];
  },
  (text, rng) => {
    // transforms become groups that name spaces defined further on three times over: references that never loop but fan out,
    // 3^depth expansions down a chain of such spaces
    const spaces = spacesOf(text);
    let swapped = 0;
    const webbed = text.replace(/!<\w+Transform> \{[^{}\n]*\}/g, (transform: string, at: number) => {
      const later = spaces.filter((space) => space.at > at).map((space) => space.name);
      if (later.length === 0 || rng.next() < 0.3) return transform;
      swapped++;
      const reference = `!<ColorSpaceTransform> {src: ${rng.pick(later)}, dst: ${rng.pick(later)}}`;
      return `!<GroupTransform> {children: [${reference}, ${reference}, ${reference}]}`;
    });
    return [webbed, `fan out ${swapped} transforms`];
  },
  (text) => {
    const sized = text.replace(/(LUT_3D_SIZE|LUT_1D_SIZE|Length|dim=")\s*\d+/, (m) => m.replace(/\d+$/, '100000000'));
    return [sized, 'huge size line'];
  },
];

/** One to four mutations of `text`; returns the new text and what was done. */
export function mutateText(text: string, rng: Rng): { text: string; what: string } {
  const count = 1 + rng.int(4);
  const done: string[] = [];
  let out = text;
  for (let k = 0; k < count; k++) {
    const [next, what] = rng.pick(MUTATIONS)(out, rng);
    out = next;
    done.push(what);
  }
  return { text: out, what: done.join('; ') };
}
