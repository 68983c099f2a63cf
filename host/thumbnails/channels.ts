// Which channels make a file's thumbnail (layer grouping itself is the codec's, codec/layers.ts).

const RGBA_ORDER: Record<string, number> = { R: 0, r: 0, red: 0, G: 1, g: 1, green: 1, B: 2, b: 2, blue: 2, A: 3, a: 3, alpha: 3 };

function splitName(channel: string): { layer: string; suffix: string } {
  const dot = channel.lastIndexOf('.');
  return dot < 0 ? { layer: '', suffix: channel } : { layer: channel.slice(0, dot), suffix: channel.slice(dot + 1) };
}

/**
 * What a thumbnail shows, in this order of preference:
 * 1. the base layer's R, G, B (and A): a missing colour channel is black;
 * 2. the base layer's luminance/chroma Y (RY, BY): converted to RGB, or grey when there is only Y;
 * 3. the first layer (in name order) with R, G or B, e.g. "diffuse.R/G/B";
 * 4. otherwise one channel as grey: the first channel that is not alpha (or alpha itself when that is all).
 * Alpha comes from the same layer as the colour; without one the thumbnail is opaque.
 */
export type ThumbnailChannels =
  | { kind: 'rgb'; r: string | null; g: string | null; b: string | null; a: string | null; layer: string }
  | { kind: 'luma-chroma'; y: string; ry: string | null; by: string | null; a: string | null }
  | { kind: 'grey'; channel: string; a: string | null };

export function chooseThumbnailChannels(channelNames: readonly string[]): ThumbnailChannels {
  const names = new Set(channelNames);
  const pick = (layer: string, suffixes: string[]): string | null => {
    for (const s of suffixes) {
      const full = layer ? `${layer}.${s}` : s;
      if (names.has(full)) return full;
    }
    return null;
  };
  const rgbOf = (layer: string): ThumbnailChannels | null => {
    const r = pick(layer, ['R', 'r', 'red']);
    const g = pick(layer, ['G', 'g', 'green']);
    const b = pick(layer, ['B', 'b', 'blue']);
    if (!r && !g && !b) return null;
    return { kind: 'rgb', r, g, b, a: pick(layer, ['A', 'a', 'alpha']), layer };
  };
  const base = rgbOf('');
  if (base) return base;
  if (names.has('Y')) return { kind: 'luma-chroma', y: 'Y', ry: pick('', ['RY']), by: pick('', ['BY']), a: pick('', ['A']) };
  const layerNames = [...new Set(channelNames.map((c) => splitName(c).layer))].filter((l) => l !== '').sort();
  for (const layer of layerNames) {
    const found = rgbOf(layer);
    if (found) return found;
  }
  const first = channelNames.find((c) => RGBA_ORDER[splitName(c).suffix] !== 3) ?? channelNames[0];
  if (first === undefined) throw new Error('the part has no channels');
  const { layer } = splitName(first);
  const a = pick(layer, ['A', 'a', 'alpha']);
  return { kind: 'grey', channel: first, a: a === first ? null : a };
}

/** The channel names a choice needs decoded. */
export function channelsOf(choice: ThumbnailChannels): string[] {
  const list =
    choice.kind === 'rgb'
      ? [choice.r, choice.g, choice.b, choice.a]
      : choice.kind === 'luma-chroma'
        ? [choice.y, choice.ry, choice.by, choice.a]
        : [choice.channel, choice.a];
  return list.filter((c): c is string => c !== null);
}
