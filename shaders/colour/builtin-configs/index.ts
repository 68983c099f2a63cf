// The configs OpenColorIO 2.5 builds in (`ocio://NAME`): their names, the aliases OCIO resolves, and their text on demand.

export interface BuiltinConfig {
  name: string;
  uiName: string;
  recommended: boolean;
}

const ACES = 'Academy Color Encoding System';
const entry = (kind: 'CG' | 'Studio', colourSpaces: string, aces: string, ocio: string, recommended = false): BuiltinConfig => ({
  name: `${kind.toLowerCase()}-config-v${colourSpaces === '2.0.0' ? '2.1.0' : colourSpaces}_aces-v${aces}_ocio-v${ocio}`,
  uiName: `${ACES} - ${kind} Config [COLORSPACES v${colourSpaces}] [ACES v${aces}] [OCIO v${ocio}]`,
  recommended,
});

/** In OCIO's order (`BuiltinConfigRegistry`). */
export const BUILTIN_CONFIGS: readonly BuiltinConfig[] = [
  entry('CG', '1.0.0', '1.3', '2.1'),
  entry('CG', '2.0.0', '1.3', '2.3'),
  entry('CG', '2.2.0', '1.3', '2.4'),
  entry('CG', '4.0.0', '2.0', '2.5', true),
  entry('Studio', '1.0.0', '1.3', '2.1'),
  entry('Studio', '2.0.0', '1.3', '2.3'),
  entry('Studio', '2.2.0', '1.3', '2.4'),
  entry('Studio', '4.0.0', '2.0', '2.5', true),
];

/** The aliases OCIO 2.5 resolves to a versioned built-in config. */
export const BUILTIN_ALIASES: Readonly<Record<string, string>> = {
  'ocio://default': 'ocio://cg-config-v4.0.0_aces-v2.0_ocio-v2.5',
  'ocio://cg-config-latest': 'ocio://cg-config-v4.0.0_aces-v2.0_ocio-v2.5',
  'ocio://studio-config-latest': 'ocio://studio-config-v4.0.0_aces-v2.0_ocio-v2.5',
};

const LOADERS: Record<string, () => Promise<{ default: string }>> = {
  'cg-config-v1.0.0_aces-v1.3_ocio-v2.1': () => import('./cg-config-v1.0.0_aces-v1.3_ocio-v2.1.js'),
  'cg-config-v2.1.0_aces-v1.3_ocio-v2.3': () => import('./cg-config-v2.1.0_aces-v1.3_ocio-v2.3.js'),
  'cg-config-v2.2.0_aces-v1.3_ocio-v2.4': () => import('./cg-config-v2.2.0_aces-v1.3_ocio-v2.4.js'),
  'cg-config-v4.0.0_aces-v2.0_ocio-v2.5': () => import('./cg-config-v4.0.0_aces-v2.0_ocio-v2.5.js'),
  'studio-config-v1.0.0_aces-v1.3_ocio-v2.1': () => import('./studio-config-v1.0.0_aces-v1.3_ocio-v2.1.js'),
  'studio-config-v2.1.0_aces-v1.3_ocio-v2.3': () => import('./studio-config-v2.1.0_aces-v1.3_ocio-v2.3.js'),
  'studio-config-v2.2.0_aces-v1.3_ocio-v2.4': () => import('./studio-config-v2.2.0_aces-v1.3_ocio-v2.4.js'),
  'studio-config-v4.0.0_aces-v2.0_ocio-v2.5': () => import('./studio-config-v4.0.0_aces-v2.0_ocio-v2.5.js'),
};

export function isBuiltinUri(uri: string): boolean {
  return uri.startsWith('ocio://');
}

/** `ocio://default` and the other aliases → the versioned URI; a versioned URI stays; undefined for an unknown name. */
export function resolveBuiltinUri(uri: string): string | undefined {
  const resolved = BUILTIN_ALIASES[uri] ?? uri;
  return LOADERS[resolved.slice('ocio://'.length)] ? resolved : undefined;
}

/**
 * A built-in config, parsed (`parseYamlTree`'s output, for `parseConfigTree`); loaded on first use, so that a bundle
 * carries only the configs it opens. Undefined for an unknown name.
 */
export async function builtinConfigTree(uri: string): Promise<unknown> {
  const resolved = resolveBuiltinUri(uri);
  if (!resolved) return undefined;
  return JSON.parse((await LOADERS[resolved.slice('ocio://'.length)]!()).default) as unknown;
}
