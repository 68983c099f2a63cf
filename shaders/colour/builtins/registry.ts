// BuiltinTransform styles → the ops OCIO builds for them (forward direction); null for a style OCIO has that is not here yet.

import type { Op } from '../ops/op.js';
import { ACES_BUILTINS } from './aces.js';
import { ACES13_BUILTINS } from './aces13.js';
import { CAMERA_BUILTINS } from './cameras.js';
import { DISPLAY_BUILTINS } from './displays.js';

const REGISTRY: Record<string, () => Op[]> = { ...ACES_BUILTINS, ...ACES13_BUILTINS, ...CAMERA_BUILTINS, ...DISPLAY_BUILTINS };

/** The ops of a built-in style (matched without regard to case, as OCIO does), or undefined when it is unknown. */
export function builtinOps(style: string): Op[] | undefined {
  const exact = REGISTRY[style];
  if (exact) return exact();
  const lower = style.toLowerCase();
  const key = Object.keys(REGISTRY).find((k) => k.toLowerCase() === lower);
  return key ? REGISTRY[key]!() : undefined;
}

export const BUILTIN_STYLES: readonly string[] = Object.keys(REGISTRY);
