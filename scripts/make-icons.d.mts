// Types of scripts/make-icons.mjs, for the tests that import it.
export const ICON_SOURCE: string;
export const ICON_DIR: string;
export const PNG_SIZES: number[];
export const ICO_SIZES: number[];
export const ICNS_ENTRIES: [type: string, sizePx: number][];
export function iconFiles(outDir?: string): string[];
export function iconsUpToDate(source?: string, outDir?: string): boolean;
export function makeIcons(source?: string, outDir?: string): Promise<string[]>;
