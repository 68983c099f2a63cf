// Types of scripts/build-wasm.mjs, for the tests that import it.
export const LIBDEFLATE_VERSION: string;
export const WASM_OUTPUT: string;
export const WASM_BUILT_WITH: string;
export type Toolchain = { ok: true; clang: string; version: string } | { ok: false; reason: string };
export function wasmToolchain(env?: NodeJS.ProcessEnv): Toolchain;
export function libdeflateSources(root: string, env?: NodeJS.ProcessEnv): string;
export function compileWasm(root: string, out: string, toolchain: Toolchain & { ok: true }, sources: string): void;
export function checkWasm(root: string, env?: NodeJS.ProcessEnv): { result: 'same' | 'differs' | 'skipped'; reason: string };
export function copyWasm(root: string): void;
