// Colormaps for single channels and differences: 64 sRGB-encoded stops each, interpolated linearly; the GPU reads the
// same table (a storage buffer) as the CPU reference. Stops generated from d3-scale-chromatic 3.1.0 (ISC) by
// scripts/make-colormaps.mjs: viridis and inferno (Smith & van der Walt, CC0), turbo (Mikhailov's polynomial, as d3
// has it) and a diverging blue–white–red (RdBu reversed: negative blue, zero white, positive red).

export const COLORMAPS = ['none', 'viridis', 'inferno', 'turbo', 'diverging'] as const;
export type Colormap = (typeof COLORMAPS)[number];
export const COLORMAP_LABELS: Record<Colormap, string> = {
  none: 'None (tone-map)',
  viridis: 'Viridis',
  inferno: 'Inferno',
  turbo: 'Turbo',
  diverging: 'Diverging (signed)',
};
export const COLORMAP_STOPS = 64;

const HEX: Record<Exclude<Colormap, 'none'>, string> = {
  viridis:
    '44015446075a470d6047136548186a481d6f482374482878472d7b46327e453781443b844240864045883e49893d4e8a' +
    '3a538b38588c365c8d34608d32648e31688e2f6c8e2d708e2c738e2a778e297b8e277f8e26828e24868e238a8d218e8d' +
    '20928c1f968b1f9a8a1f9e891fa18721a58523a98326ad812ab07f2fb47c35b7793bbb7542be714ac16d52c5695ac864' +
    '65cb5e6ece5877d15381d34d8bd64695d840a0da39aadc32b5de2bc0df25cae11fd5e21adfe318eae51af4e61efde725',
  inferno:
    '00000402010a04031207051b0b072410092d150b371b0c41210c4a280b532f0a5b3609613d0965440a684a0c6b510e6c' +
    '59106e5f136e65156e6c186e721a6e781c6d7f1e6c85216b8c23699225689827669f2a63a52c60ab2f5eb1325ab73557' +
    'bf3952c43c4eca404acf4446d44842d94d3dde5238e25734e65d2fea632aed6925f06f20f3761bf57d15f78410f98b0b' +
    'fa9407fb9b06fca309fcaa0ffcb216fbba1ffac228f9c932f7d13df5d949f4e156f2e865f1ef75f3f586f6fa96fcffa4',
  turbo:
    '23171b33204a3e2a73453494493fb04b4ac74a55d84860e6446bef4076f53b81f8368cf93297f72da1f32aabee27b5e7' +
    '26bfdf25c7d626d0cd27d7c32adfb92ee5ae34eba43af09942f48f4bf88554fa7c5ffc736afd6a76fe6282fd5b8efc54' +
    '9bf94ea7f648b4f342c0ee3dcbe839d6e235e0db32e9d42ff1cc2cf8c329feb927ffb025ffa523ff9b21ff9020ff851e' +
    'ff7a1cfe6e1af86318f15816e94d14e04312d6390fcc300dc2270ab71f08ad1905a413029c0f00950c00910b00900c00',
  diverging:
    '05306109396d0e4179124a8417528e1c5a982162a1256aa82b72af3079b43780b93d88bd458fc14e97c5589ec963a6cd' +
    '6eaed179b5d585bcd990c3dd9bc9e0a6cfe3b0d4e6bad9e9c3deeccbe2eed3e6f0dae9f1e1ecf2e6eef2eceff1f0f0ef' +
    'f3efecf6ede7f8eae2f9e6dbfae1d3fbdccbfad5c2faceb8f9c7aef8bfa4f6b69af4ad90f1a386ee9a7cea8f73e6856a' +
    'e17a62dc6f5ad76453d2594ccc4e46c64340c0383bb92f36b12631a91e2e9f172a9511288a0c257f082373042167001f',
};

export function colormapCode(c: Colormap): number {
  return COLORMAPS.indexOf(c);
}

/** Display-encoded RGB stops of a colormap, 0..1. */
export function colormapStops(c: Exclude<Colormap, 'none'>): Float32Array {
  const hex = HEX[c];
  const out = new Float32Array(COLORMAP_STOPS * 3);
  for (let i = 0; i < COLORMAP_STOPS * 3; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16) / 255;
  return out;
}

/** Every colormap's stops as vec4 (rgb, 1), colormap code 1 first: what the shader's storage buffer holds. */
export function colormapTable(): Float32Array<ArrayBuffer> {
  const maps = COLORMAPS.filter((c): c is Exclude<Colormap, 'none'> => c !== 'none');
  const out = new Float32Array(maps.length * COLORMAP_STOPS * 4);
  maps.forEach((m, k) => {
    const s = colormapStops(m);
    for (let i = 0; i < COLORMAP_STOPS; i++) out.set([s[i * 3]!, s[i * 3 + 1]!, s[i * 3 + 2]!, 1], (k * COLORMAP_STOPS + i) * 4);
  });
  return out;
}

/** The colour at t in [0, 1] (clamped) of a colormap: what colormapLookup() in compare.wgsl computes. */
export function colormapRgb(table: Float32Array, code: number, t: number): [number, number, number] {
  const x = Math.min(Math.max(t, 0), 1) * (COLORMAP_STOPS - 1);
  const i = Math.min(Math.floor(x), COLORMAP_STOPS - 2);
  const f = x - i;
  const base = ((code - 1) * COLORMAP_STOPS + i) * 4;
  const rgb: [number, number, number] = [0, 0, 0];
  for (let c = 0; c < 3; c++) rgb[c] = table[base + c]! + (table[base + 4 + c]! - table[base + c]!) * f;
  return rgb;
}
