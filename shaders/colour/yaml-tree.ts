// YAML text → plain values that keep each OCIO tag (`!<MatrixTransform>`) and the line each map starts on.

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type ScalarTag, type CollectionTag } from 'yaml';
import { ColourConfigError } from './errors.js';

/** The tags OCIO configs use; any other tag is an error naming it. */
export const OCIO_TAGS = [
  'ColorSpace',
  'View',
  'Views',
  'Look',
  'ViewTransform',
  'NamedTransform',
  'Role',
  'Rule',
  'ViewingRule',
  'VirtualView',
  'AllocationTransform',
  'BuiltinTransform',
  'CDLTransform',
  'ColorSpaceTransform',
  'DisplayViewTransform',
  'ExponentTransform',
  'ExponentWithLinearTransform',
  'ExposureContrastTransform',
  'FileTransform',
  'FixedFunctionTransform',
  'GradingPrimaryTransform',
  'GradingRGBCurveTransform',
  'GradingToneTransform',
  'GradingHueCurveTransform',
  'GroupTransform',
  'LogAffineTransform',
  'LogCameraTransform',
  'LogTransform',
  'LookTransform',
  'MatrixTransform',
  'RangeTransform',
  'TruelightTransform',
] as const;

/** A YAML map as a plain object, with its tag (without `!<>`) and 1-based line. */
export interface TaggedMap {
  $tag?: string;
  $line: number;
  [key: string]: unknown;
}

/** Values an alias may add beyond the text's own: aliases are rare in configs, and a billion-laughs file must stop early. */
const MAX_ALIAS_NODES = 100_000;
/** Deeper than any config nests (a group of groups of transforms is a few levels). */
const MAX_DEPTH = 64;

const keepAsIs = (node: unknown): unknown => node;
const TAGS: (CollectionTag | ScalarTag)[] = OCIO_TAGS.flatMap((tag) => [
  { tag, collection: 'map' as const, resolve: keepAsIs },
  { tag, collection: 'seq' as const, resolve: keepAsIs },
]);

/** Parses a config's text; `file` names it in errors. Duplicate keys, syntax errors and unknown tags each throw with the line. */
export function parseYamlTree(text: string, file: string): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { customTags: TAGS, lineCounter, uniqueKeys: true, prettyErrors: false });
  const problem = doc.errors[0] ?? doc.warnings.find((w) => /tag/i.test(w.message));
  if (problem) {
    const line = lineCounter.linePos(problem.pos[0]).line;
    const unknownTag = /Unresolved tag: (\S+)/.exec(problem.message);
    if (unknownTag) {
      throw new ColourConfigError(
        file,
        line,
        `unknown transform or tag "!<${unknownTag[1]}>": OCIO 2 has no such type; check its spelling`,
      );
    }
    if (/call stack/i.test(problem.message)) throw new ColourConfigError(file, line, 'values nest too deep to read: flatten them');
    throw new ColourConfigError(file, line, `not valid YAML (${problem.message.split('\n')[0]}): fix the syntax at this line`);
  }
  const lineOf = (node: Node): number => (node.range ? lineCounter.linePos(node.range[0]).line : 0);
  // aliases are expanded: a bounded count of nodes and of nesting keeps an alias bomb or a self-reference from hanging or crashing
  const maxNodes = text.length + MAX_ALIAS_NODES;
  let nodes = 0;
  const expanding = new Set<unknown>();
  /** The line of the outermost alias being expanded: where a bomb is written. */
  let aliasLine: number | undefined;
  const convert = (node: unknown, depth: number): unknown => {
    if (node === null || node === undefined) return null;
    if (++nodes > maxNodes) {
      const line = aliasLine ?? lineOf(node as Node);
      throw new ColourConfigError(file, line, 'aliases expand to too many values: write the repeated parts out once');
    }
    if (depth > MAX_DEPTH) throw new ColourConfigError(file, lineOf(node as Node), `values nest more than ${MAX_DEPTH} deep: flatten them`);
    if (isScalar(node)) return node.value;
    if (isSeq(node)) {
      const list = node.items.map((item) => convert(item, depth + 1)) as unknown[] & { $tag?: string; $line?: number };
      if (node.tag) list.$tag = node.tag;
      list.$line = lineOf(node);
      return list;
    }
    if (isMap(node)) {
      const map: TaggedMap = { $line: lineOf(node) };
      if (node.tag) map.$tag = node.tag;
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        map[key] = convert(pair.value, depth + 1);
      }
      return map;
    }
    if (isAlias(node)) {
      const target = node.resolve(doc);
      if (target === undefined) {
        throw new ColourConfigError(file, lineOf(node), `the alias *${node.source} names no anchor: define &${node.source} before it`);
      }
      if (expanding.has(target)) {
        throw new ColourConfigError(file, lineOf(node), `the alias *${node.source} refers to a value that holds it: break the loop`);
      }
      if (expanding.size === 0) aliasLine = lineOf(node);
      expanding.add(target);
      try {
        return convert(target, depth + 1);
      } finally {
        expanding.delete(target);
        if (expanding.size === 0) aliasLine = undefined;
      }
    }
    return null;
  };
  return convert(doc.contents, 0);
}
