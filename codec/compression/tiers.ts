// The kernel tier of each compression in this thread, picked once at start: the native addon's kernel, else the
// WebAssembly one, else the TypeScript codec (the fallback and oracle); and a report of which ran and why.

import type { Compression } from '../core/types.js';
import { nativeCodecsInUse, type DecompressorInto } from './native-codecs.js';
import { nativeStatus, type NativeStatus } from './native.js';
import { wasmCodecsInUse } from './wasm-codecs.js';
import { wasmStatus, type WasmStatus } from './wasm.js';
import { inflateTier } from './inflate-tier.js';

export type KernelTier = 'native' | 'wasm' | 'typescript';

/** A whole-chunk kernel of the tier above TypeScript for this compression, or null (its TypeScript codec runs). */
export function tierKernel(compression: Compression): { into: DecompressorInto; tier: KernelTier } | null {
  const native = nativeCodecsInUse?.into[compression];
  if (native) return { into: native, tier: 'native' };
  const wasm = wasmCodecsInUse?.into[compression];
  return wasm ? { into: wasm, tier: 'wasm' } : null;
}

export { inflateExact, inflateTier } from './inflate-tier.js';

/** Compressions whose TypeScript codec inflates through inflateExact above. */
const INFLATING: readonly Compression[] = ['pxr24', 'dwaa', 'dwab'];

/** The tier a compression's chunks run in: whole-chunk kernels, else the TypeScript codec with its inflation's tier. */
export function kernelTierOf(compression: Compression): string {
  const kernel = tierKernel(compression);
  if (kernel) return kernel.tier;
  return INFLATING.includes(compression) && inflateTier !== 'typescript' ? `typescript, inflate ${inflateTier}` : 'typescript';
}

export interface KernelTierReport {
  native: NativeStatus;
  wasm: WasmStatus;
  /** The tier of each compression (see kernelTierOf). */
  compressions: Partial<Record<Compression, string>>;
}

const REPORTED: readonly Compression[] = ['zip', 'zips', 'rle', 'piz', 'pxr24', 'b44', 'b44a', 'dwaa', 'dwab', 'htj2k256', 'htj2k32'];

export function kernelTierReport(): KernelTierReport {
  return {
    native: nativeStatus,
    wasm: wasmStatus,
    compressions: Object.fromEntries(REPORTED.map((c) => [c, kernelTierOf(c)])),
  };
}

/** The tier this thread decodes in (native, else WebAssembly, else TypeScript) and why the one above it is off. */
export interface DecodeTier {
  tier: KernelTier;
  /** Why the tier above is off; null in the native tier. */
  whyNotAbove: string | null;
}

export function decodeTier(native: NativeStatus = nativeStatus, wasm: WasmStatus = wasmStatus): DecodeTier {
  if (native.on) return { tier: 'native', whyNotAbove: null };
  if (wasm.on) return { tier: 'wasm', whyNotAbove: `native kernels off: ${native.reason}` };
  return { tier: 'typescript', whyNotAbove: `WebAssembly kernels off: ${wasm.reason}` };
}

const TIER_NAMES: Record<KernelTier, string> = { native: 'native kernels', wasm: 'WebAssembly kernels', typescript: 'TypeScript codecs' };

/** One line for people starting the app: "decoding with the WebAssembly kernels (native kernels off: ...)". */
export function describeDecodeTier(tier: DecodeTier = decodeTier()): string {
  return `decoding with the ${TIER_NAMES[tier.tier]}${tier.whyNotAbove ? ` (${tier.whyNotAbove})` : ''}`;
}

/** One line for people: each tier on or off and why, then the compressions by tier. */
export function describeKernelTiers(report: KernelTierReport = kernelTierReport()): string {
  const byTier = new Map<string, Compression[]>();
  for (const [compression, tier] of Object.entries(report.compressions) as [Compression, string][])
    byTier.set(tier, [...(byTier.get(tier) ?? []), compression]);
  const tiers = [...byTier].map(([tier, compressions]) => `${tier}: ${compressions.join(' ')}`).join('; ');
  const onOff = (s: NativeStatus | WasmStatus) => (s.on ? 'on' : `off (${s.reason})`);
  return `native ${onOff(report.native)}, WebAssembly ${onOff(report.wasm)}; ${tiers}`;
}
