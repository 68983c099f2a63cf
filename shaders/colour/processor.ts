// The processor builder: (config, src, dst) or (config, src, display, view, looks) → a list of ops, and applying it to RGBA.

import { findColourSpace, findNamedTransform, type ColourSpace, type NamedTransform, type OcioConfig } from './config.js';
import { ColourConfigError, ColourExpansionError } from './errors.js';
import { opsOfLutFile } from './lut-files.js';
import { optimiseOps } from './optimise.js';
import type { Op } from './ops/op.js';
import { invertOps, transformOps, type TransformHost } from './transform-ops.js';

/** What the builder reads files with; the same code runs in Node (fs) and in the browser (fetch). */
export interface ColourFiles {
  /** The file's text; throws when it is missing. */
  readText(path: string): string;
  /** Context variables that override the config's `environment` defaults (OCIO reads these from the process). */
  env?: Record<string, string | undefined>;
}

const MAX_DEPTH = 64;
/**
 * The expansion steps one processor may take: each config-level transform entered (colour space, look, view, named transform)
 * and each op it yields, counted again at every level it passes through. The built-in ACES configs and the test configs take
 * under a hundred; references that fan out (a space naming two spaces that each name two more, 30 deep) would take billions.
 */
export const MAX_EXPANSION_STEPS = 100_000;

/** Builds processors for one config; LUT files are read once and cached. */
export class ProcessorBuilder implements TransformHost {
  readonly file: string;
  readonly version: number;
  private readonly lutCache = new Map<string, Op[]>();
  private readonly stack: string[] = [];
  /** Steps taken by the processor being built; reset when its outermost transform is entered. */
  private expansionSteps = 0;

  constructor(
    readonly config: OcioConfig,
    private readonly files: ColourFiles,
  ) {
    this.file = config.file;
    this.version = config.version;
  }

  /** The ops from colour space `src` to `dst`, optimised as OCIO's lossless path does. */
  colourSpace(src: string, dst: string): Op[] {
    return optimiseOps(this.colourSpaceOps(src, dst, undefined, true));
  }

  /** The ops from `src` through a display's view; `looks` overrides the view's looks when given ('' for none). */
  displayView(src: string, display: string, view: string, looks?: string): Op[] {
    return optimiseOps(this.displayViewOps(src, display, view, undefined, false, looks));
  }

  colourSpaceOps(srcName: string, dstName: string, line: number | undefined, dataBypass: boolean): Op[] {
    const srcNamed = this.namedTransform(srcName, line),
      dstNamed = this.namedTransform(dstName, line);
    // as OCIO: a named transform source runs forward (the destination ignored), a named destination runs inverse
    if (srcNamed || dstNamed) {
      if (srcNamed && !dstNamed) this.space(dstName, line);
      if (dstNamed && !srcNamed) this.space(srcName, line);
      return [
        ...(srcNamed ? this.namedTransformOps(srcNamed, 'forward') : []),
        ...(dstNamed ? this.namedTransformOps(dstNamed, 'inverse') : []),
      ];
    }
    const src = this.space(srcName, line),
      dst = this.space(dstName, line);
    if (src === dst) return [];
    if (dataBypass && (src.isData || dst.isData)) return [];
    return this.guard(`colour space conversion ${src.name} → ${dst.name}`, line, () => [
      ...this.toReference(src),
      ...this.referenceBridge(src.referenceSpace, dst.referenceSpace, line),
      ...this.fromReference(dst),
    ]);
  }

  displayViewOps(
    srcName: string,
    displayName: string,
    viewName: string,
    line: number | undefined,
    looksBypass: boolean,
    looksOverride?: string,
  ): Op[] {
    const display = this.config.displays.find((d) => d.name === displayName);
    if (!display) throw this.error(line, `no display "${displayName}" (displays: ${this.config.displays.map((d) => d.name).join(', ')})`);
    const view = display.views.find((v) => v.name === viewName);
    if (!view)
      throw this.error(line, `display "${displayName}" has no view "${viewName}" (views: ${display.views.map((v) => v.name).join(', ')})`);
    const src = this.space(srcName, line);
    return this.guard(`view ${displayName}/${viewName}`, line, () => {
      if (src.isData) return [];
      const looks = looksBypass ? '' : (looksOverride ?? view.looks);
      const ops: Op[] = [];
      let current = src;
      if (looks.trim() !== '') {
        const result = this.looksOps(current, looks, line);
        ops.push(...result.ops);
        current = result.space;
      }
      if (view.viewTransform === undefined) {
        const target = view.colourSpace ?? view.displayColourSpace;
        if (target === undefined) throw this.error(view.line, `view "${view.name}" names no colorspace: give it \`colorspace:\``);
        const named = this.namedTransform(target, view.line);
        if (named) return [...ops, ...this.namedTransformOps(named, 'forward')];
        ops.push(...this.colourSpaceOps(current.name, target, view.line, true));
        return ops;
      }
      const vt = this.config.viewTransforms.find((t) => t.name === view.viewTransform);
      if (!vt)
        throw this.error(
          view.line,
          `view "${view.name}" uses the view transform "${view.viewTransform}", which view_transforms does not define`,
        );
      const dst = this.space(view.displayColourSpace ?? view.colourSpace ?? '', view.line);
      if (src.isData || dst.isData) return [];
      // a scene-referred view transform goes scene → display reference; a display-referred one display → display
      const sceneReferred = vt.fromScene !== undefined || vt.toScene !== undefined;
      ops.push(
        ...this.toReference(current),
        ...this.referenceBridge(current.referenceSpace, sceneReferred ? 'scene' : 'display', view.line),
      );
      if (vt.fromScene) ops.push(...transformOps(this, vt.fromScene, 'forward'));
      else if (vt.toScene) ops.push(...transformOps(this, vt.toScene, 'inverse'));
      else if (vt.fromDisplay) ops.push(...transformOps(this, vt.fromDisplay, 'forward'));
      else if (vt.toDisplay) ops.push(...transformOps(this, vt.toDisplay, 'inverse'));
      ops.push(...this.fromReference(dst));
      return ops;
    });
  }

  lookOps(srcName: string, dstName: string, looks: string, line: number, skipConversion: boolean): Op[] {
    const src = this.space(srcName, line),
      dst = this.space(dstName, line);
    const result = this.looksOps(src, looks, line);
    if (skipConversion) return result.ops;
    return [...result.ops, ...this.colourSpaceOps(result.space.name, dst.name, line, true)];
  }

  fileOps(src: string, interpolation: string, line: number): Op[] {
    const key = `${src}|${interpolation}`;
    const cached = this.lutCache.get(key);
    if (cached) return cached;
    const path = this.resolveFile(src, line);
    const ops = opsOfLutFile(path.text, path.path, interpolation, (t) => transformOps(this, t, 'forward'));
    this.lutCache.set(key, ops);
    return ops;
  }

  /** Applies the looks of a look string ("+a, -b", "a | b" picks the first that exists) starting in `start`. */
  private looksOps(start: ColourSpace, looks: string, line: number | undefined): { ops: Op[]; space: ColourSpace } {
    const ops: Op[] = [];
    let current = start;
    for (const token of looks
      .split(/[,:]/)
      .map((s) => s.trim())
      .filter((s) => s !== '')) {
      const options = token.split('|').map((s) => s.trim());
      let chosen: { name: string; inverse: boolean } | undefined;
      for (const option of options) {
        const inverse = option.startsWith('-');
        const name = option.replace(/^[+-]/, '');
        if (this.config.looks.some((l) => l.name === name)) {
          chosen = { name, inverse };
          break;
        }
      }
      if (!chosen) throw this.error(line, `no look "${token}" (looks: ${this.config.looks.map((l) => l.name).join(', ') || 'none'})`);
      const look = this.config.looks.find((l) => l.name === chosen!.name)!;
      const process = this.space(look.processSpace, look.line);
      const lookOps = this.guard(`look ${look.name}`, look.line, () => {
        if (!chosen!.inverse) {
          if (look.transform) return transformOps(this, look.transform, 'forward');
          if (look.inverseTransform) return transformOps(this, look.inverseTransform, 'inverse');
        } else {
          if (look.inverseTransform) return transformOps(this, look.inverseTransform, 'forward');
          if (look.transform) return transformOps(this, look.transform, 'inverse');
        }
        return [];
      });
      ops.push(...this.colourSpaceOps(current.name, process.name, look.line, true), ...lookOps);
      current = process;
    }
    return { ops, space: current };
  }

  /** A named transform by that name when no colour space has it (context variables expanded). */
  private namedTransform(name: string, line: number | undefined): NamedTransform | undefined {
    const resolved = this.expand(name, line);
    return findColourSpace(this.config, resolved) ? undefined : findNamedTransform(this.config, resolved);
  }

  private namedTransformOps(nt: NamedTransform, direction: 'forward' | 'inverse'): Op[] {
    return this.guard(`named transform ${nt.name}`, nt.line, () => {
      const own = direction === 'forward' ? nt.transform : nt.inverseTransform;
      if (own) return transformOps(this, own, 'forward');
      const other = direction === 'forward' ? nt.inverseTransform : nt.transform;
      return other ? transformOps(this, other, 'inverse') : [];
    });
  }

  private toReference(cs: ColourSpace): Op[] {
    return this.guard(`colour space ${cs.name}`, cs.line, () => {
      if (cs.toReference) return transformOps(this, cs.toReference, 'forward');
      if (cs.fromReference) return transformOps(this, cs.fromReference, 'inverse');
      return [];
    });
  }

  private fromReference(cs: ColourSpace): Op[] {
    return this.guard(`colour space ${cs.name}`, cs.line, () => {
      if (cs.fromReference) return transformOps(this, cs.fromReference, 'forward');
      if (cs.toReference) return transformOps(this, cs.toReference, 'inverse');
      return [];
    });
  }

  /** Scene ↔ display reference through the default view transform, as OCIO bridges the two references. */
  private referenceBridge(from: 'scene' | 'display', to: 'scene' | 'display', line: number | undefined): Op[] {
    if (from === to) return [];
    const vt =
      this.config.viewTransforms.find((t) => t.name === this.config.defaultViewTransform) ??
      this.config.viewTransforms.find((t) => t.fromScene || t.toScene);
    if (!vt)
      throw this.error(line, 'converting between scene- and display-referred spaces needs a view transform: add one to view_transforms');
    const sceneToDisplay = vt.fromScene
      ? transformOps(this, vt.fromScene, 'forward')
      : vt.toScene
        ? transformOps(this, vt.toScene, 'inverse')
        : [];
    return from === 'scene' ? sceneToDisplay : invertOps(sceneToDisplay, this.file, vt.line);
  }

  private space(name: string, line: number | undefined): ColourSpace {
    const resolved = this.expand(name, line);
    const cs = findColourSpace(this.config, resolved);
    if (!cs) throw this.error(line, `no colour space "${resolved}": name one from \`exrview ocio list\` or a role`);
    return cs;
  }

  /**
   * Runs `build` with `key` on the stack, so that a config that refers back to itself fails instead of recursing forever, and
   * counts the steps, so that one whose references fan out fails instead of expanding for ever.
   */
  private guard<T>(key: string, line: number | undefined, build: () => T): T {
    if (this.stack.includes(key))
      throw this.error(line, `circular reference: ${[...this.stack.slice(this.stack.indexOf(key)), key].join(' → ')}; break the loop`);
    if (this.stack.length > MAX_DEPTH) throw this.error(line, `transforms nest more than ${MAX_DEPTH} deep: simplify the config`);
    if (this.stack.length === 0) this.expansionSteps = 0;
    this.stack.push(key);
    try {
      this.countSteps(1, line);
      const built = build();
      if (Array.isArray(built)) this.countSteps(built.length, line);
      return built;
    } finally {
      this.stack.pop();
    }
  }

  private countSteps(steps: number, line: number | undefined): void {
    this.expansionSteps += steps;
    if (this.expansionSteps > MAX_EXPANSION_STEPS) throw new ColourExpansionError(this.file, line, [...this.stack], MAX_EXPANSION_STEPS);
  }

  /** `$VAR` and `${VAR}` from the environment override, else the config's `environment` defaults. */
  private expand(text: string, line: number | undefined): string {
    return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced: string | undefined, bare: string | undefined) => {
      const name = (braced ?? bare)!;
      const value = this.files.env?.[name] ?? this.config.environment[name];
      if (value === undefined)
        throw this.error(line, `context variable $${name} is not set: set it in the environment or in the config's \`environment:\``);
      return value;
    });
  }

  private resolveFile(src: string, line: number): { path: string; text: string } {
    const name = this.expand(src, line);
    const join = (dir: string, file: string): string =>
      file.startsWith('/')
        ? file
        : file === '.' || file === ''
          ? dir
          : dir === '.'
            ? file
            : `${dir.replace(/\/$/, '')}/${file.replace(/^\.\//, '')}`;
    const candidates = name.startsWith('/')
      ? [name]
      : (this.config.searchPaths.length ? this.config.searchPaths : ['.']).map((sp) =>
          join(join(this.config.dir, this.expand(sp, line)), name),
        );
    for (const path of candidates) {
      let text: string;
      try {
        text = this.files.readText(path);
      } catch {
        continue;
      }
      return { path, text };
    }
    throw this.error(line, `LUT file "${name}" not found (looked in ${candidates.join(', ')}): check the name and search_path`);
  }

  private error(line: number | undefined, reason: string): ColourConfigError {
    return new ColourConfigError(this.file, line, reason);
  }
}

export { applyOps } from './apply.js';
