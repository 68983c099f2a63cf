// YAML text → plain values that keep each OCIO tag (`!<MatrixTransform>`) and the line each map starts on.

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type ScalarTag, type CollectionTag } from 'yaml';
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
    throw new ColourConfigError(file, line, `not valid YAML (${problem.message.split('\n')[0]}): fix the syntax at this line`);
  }
  const lineOf = (node: Node): number => (node.range ? lineCounter.linePos(node.range[0]).line : 0);
  const convert = (node: unknown): unknown => {
    if (node === null || node === undefined) return null;
    if (isScalar(node)) return node.value;
    if (isSeq(node)) {
      const list = node.items.map(convert) as unknown[] & { $tag?: string; $line?: number };
      if (node.tag) list.$tag = node.tag;
      list.$line = lineOf(node);
      return list;
    }
    if (isMap(node)) {
      const map: TaggedMap = { $line: lineOf(node) };
      if (node.tag) map.$tag = node.tag;
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        map[key] = convert(pair.value);
      }
      return map;
    }
    // aliases resolve to the node they point to
    if (typeof node === 'object' && node !== null && 'resolve' in node && typeof node.resolve === 'function') {
      return convert((node as { resolve(doc: unknown): unknown }).resolve(doc));
    }
    return null;
  };
  return convert(doc.contents);
}
