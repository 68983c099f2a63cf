// `exrview stats FILE --expr EXPR`: a channel expression evaluated over each part it fits, by the CPU reference the viewer
// uses (shaders/expressions), and the statistics of its result's channels.

import {
  channelStats,
  ExrError,
  ExrReader,
  HALF_TO_FLOAT,
  missingRegions,
  openFileSource,
  partSummary,
  statsJson,
  type Box2i,
  type FileSource,
  type DecodedChannel,
  type PartStats,
} from '../codec/index.js';
import { compileExpression, evaluateExpression, type ExpressionError, type ExpressionProgram } from '../shaders/expressions/index.js';
import { expressionErrorText } from './expression-caret.js';
import { describeFailure, FileError } from './failures.js';
import { incompleteText } from './info.js';
import { alignColumns, readableNumber } from './stats-text.js';

/** The statistics of an expression's result: per part it fits, one row per result channel (`value`, or R G B (A)). */
export interface ExpressionStats {
  expression: string;
  parts: (PartStats & { part: number })[];
  /** Parts the expression does not fit (deep parts, or channels it names that the part lacks), with why. */
  skipped: { part: number; reason: string }[];
  incomplete?: { chunksPresent: number; chunksTotal: number };
}

/** An expression that fits no part of the file: its error at its place in the text (exit 2). */
export class ExpressionUsageError extends Error {
  constructor(
    readonly text: string,
    readonly error: ExpressionError,
    readonly where: string,
  ) {
    super(`the expression does not fit ${where}: ${error.message}`);
  }

  /** The message, then the expression with a caret under the place. */
  caretText(): string {
    return expressionErrorText(this.message, this.text, this.error.start, this.error.end);
  }
}

/**
 * The expression over every non-deep part whose channels it fits (level 0, decoded in full; a file still being
 * written as far as its chunks are there, the pixels not there left out). Throws ExpressionUsageError where it fits none.
 */
export function expressionStats(reader: ExrReader, text: string): ExpressionStats {
  const parts: ExpressionStats['parts'] = [];
  const skipped: ExpressionStats['skipped'] = [];
  let firstError: { error: ExpressionError; part: number } | null = null;
  for (const part of reader.parts) {
    if (part.isDeep) {
      skipped.push({ part: part.index, reason: 'a deep part: expressions read flat images' });
      continue;
    }
    const compiled = compileExpression(
      text,
      part.channels.map((c) => c.name),
    );
    if (!compiled.ok) {
      firstError ??= { error: compiled.error, part: part.index };
      skipped.push({ part: part.index, reason: compiled.error.message });
      continue;
    }
    const image = reader.decode({ part: part.index, channels: compiled.program.planes, tolerant: reader.incomplete !== null });
    const failures = image.missing?.failures ?? [];
    // a chunk the tables place that fails is damage, which statistics do not hide
    const damaged = failures.find((f) => reader.offsets[part.index]![f.chunk]! >= 0);
    if (damaged) throw new ExrError('invalid', damaged.reason);
    const widthPx = image.region.xMax - image.region.xMin + 1;
    const heightPx = image.region.yMax - image.region.yMin + 1;
    const rgba = evaluateProgram(compiled.program, image.channels, widthPx, heightPx);
    const skip = pixelsMissing(image.region, missingRegions(failures));
    parts.push({
      part: part.index,
      ...partSummary(part),
      channels: compiled.program.labels.map((label, c) => {
        const data = new Float32Array(widthPx * heightPx);
        for (let i = 0; i < data.length; i++) data[i] = rgba[i * 4 + c]!;
        const channel: DecodedChannel = {
          name: label,
          pixelType: 'float',
          xSampling: 1,
          ySampling: 1,
          widthSamples: widthPx,
          heightSamples: heightPx,
          data,
        };
        return { name: label, pixelType: 'float', xSampling: 1, ySampling: 1, ...channelStats(channel, skip) };
      }),
    });
  }
  if (parts.length === 0) {
    if (firstError)
      throw new ExpressionUsageError(text, firstError.error, reader.parts.length > 1 ? `part ${firstError.part}` : 'the file');
    throw new ExrError('unsupported', 'the file has only deep parts: expressions read flat images');
  }
  const incomplete = reader.incomplete;
  const result: ExpressionStats = { expression: text, parts, skipped };
  if (incomplete) result.incomplete = { chunksPresent: incomplete.chunksPresent, chunksTotal: incomplete.chunksTotal };
  return result;
}

/** The program's RGBA over the decoded channels; subsampled ones read nearest-sample, as the viewer's assemble pass. */
function evaluateProgram(program: ExpressionProgram, channels: readonly DecodedChannel[], widthPx: number, heightPx: number): Float32Array {
  const planes = program.planes.map((name) => {
    const channel = channels.find((c) => c.name === name)!;
    const out = new Float32Array(widthPx * heightPx);
    const half = channel.pixelType === 'half';
    const data = channel.data;
    for (let y = 0, i = 0; y < heightPx; y++) {
      const row = Math.floor(y / channel.ySampling) * channel.widthSamples;
      for (let x = 0; x < widthPx; x++, i++) {
        const v = data[row + Math.floor(x / channel.xSampling)]!;
        out[i] = half ? HALF_TO_FLOAT[v]! : v;
      }
    }
    return out;
  });
  return evaluateExpression(program, planes, widthPx * heightPx);
}

/** One byte a pixel of `region`, 1 inside one of `boxes` (chunks not written yet); undefined when there are none. */
function pixelsMissing(region: Box2i, boxes: readonly Box2i[]): Uint8Array | undefined {
  if (boxes.length === 0) return undefined;
  const widthPx = region.xMax - region.xMin + 1;
  const mask = new Uint8Array(widthPx * (region.yMax - region.yMin + 1));
  for (const b of boxes) {
    const x0 = Math.max(b.xMin, region.xMin) - region.xMin;
    const x1 = Math.min(b.xMax, region.xMax) - region.xMin + 1;
    for (let y = Math.max(b.yMin, region.yMin); y <= Math.min(b.yMax, region.yMax); y++) {
      if (x1 > x0) mask.fill(1, (y - region.yMin) * widthPx + x0, (y - region.yMin) * widthPx + x1);
    }
  }
  return mask;
}

/** The expression, then each part it fits: its windows and one aligned row per result channel. */
export function expressionStatsText(file: string, stats: ExpressionStats): string {
  const incomplete = stats.incomplete
    ? `; incomplete: ${stats.incomplete.chunksPresent} of ${stats.incomplete.chunksTotal} chunks, the statistics are of those`
    : '';
  const lines = [`${file}: expression ${stats.expression}${incomplete}`];
  for (const part of stats.parts) {
    const [x0, y0, x1, y1] = part.dataWindow;
    lines.push('', `part ${part.part}${part.name ? ` "${part.name}"` : ''}: ${x1 - x0 + 1} x ${y1 - y0 + 1} pixels`);
    const rows = part.channels.map((c) => [
      c.name,
      readableNumber(c.min),
      readableNumber(c.max),
      readableNumber(c.mean),
      String(c.nanCount ?? 0),
      String(c.infCount ?? 0),
    ]);
    lines.push(
      ...alignColumns([['result', 'min', 'max', 'mean', 'NaN', 'Inf'], ...rows], ['left', 'right', 'right', 'right', 'right', 'right']),
    );
  }
  if (stats.skipped.length === 1) lines.push('', `part ${stats.skipped[0]!.part}: not evaluated: ${stats.skipped[0]!.reason}`);
  // a multi-part file (views, AOVs per part) may have many parts the expression does not name: one line for them all
  if (stats.skipped.length > 1)
    lines.push(
      '',
      `parts ${stats.skipped.map((s) => s.part).join(', ')}: not evaluated, the expression does not fit them (--json says why)`,
    );
  lines.push('', 'Evaluated in float32 as the viewer shows it; min, max and mean are over finite values, NaN and Inf counted apart.');
  return lines.join('\n') + '\n';
}

/** The command: the statistics printed (text or JSON); exit 2 with the caret where the expression fits no part, 3 incomplete. */
export function runStatsExpression(file: string, text: string, json: boolean): number {
  let stats: ExpressionStats;
  const source = openFile(file);
  try {
    stats = expressionStats(ExrReader.open(source), text);
  } catch (error) {
    if (error instanceof ExpressionUsageError) {
      process.stderr.write(`exrview: ${file}: ${error.caretText()}\n`);
      return 2;
    }
    throw new FileError(file, describeFailure(error));
  } finally {
    source.close();
  }
  process.stdout.write(json ? statsJson(stats) + '\n' : expressionStatsText(file, stats));
  if (!stats.incomplete) return 0;
  process.stderr.write(`exrview: ${file}: incomplete: ${incompleteText(stats.incomplete)}; the statistics are of the chunks there\n`);
  // as plain `exrview stats` (EXIT_INCOMPLETE): a script that wants the whole file waits and runs again
  return 3;
}

function openFile(file: string): FileSource {
  try {
    return openFileSource(file);
  } catch (error) {
    throw new FileError(file, describeFailure(error));
  }
}
