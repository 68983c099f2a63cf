// Which image the deep panel's samples are of: the file's name, then its part and layer where the file has more than
// one of them to choose from (named as the pickers name them).
import type { PartSummary } from '../host-client/api-types.js';

/** "volumes.exr", or "shot.exr · part 1 (fx) · layer smoke" in a file of several parts and layers. */
export function deepSourceLabel(
  fileName: string,
  parts: readonly Pick<PartSummary, 'name' | 'layers'>[],
  partIndex: number,
  layerName: string,
): string {
  const part = parts[partIndex];
  const label = [fileName];
  if (parts.length > 1) label.push(part?.name ? `part ${partIndex} (${part.name})` : `part ${partIndex}`);
  if (part && part.layers.length > 1) {
    const layer = part.layers.find((l) => l.name === layerName) ?? part.layers[0]!;
    label.push(`layer ${layer.name || '(base)'}`);
  }
  return label.join(' · ');
}
