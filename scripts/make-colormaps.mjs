// Writes the colormap stops of shaders/colormaps.ts. Run: npm i --no-save d3-scale-chromatic@3.1.0 && node scripts/make-colormaps.mjs
import * as d3 from 'd3-scale-chromatic';
const maps = {
  viridis: d3.interpolateViridis,
  inferno: d3.interpolateInferno,
  turbo: d3.interpolateTurbo,
  diverging: (t) => d3.interpolateRdBu(1 - t),
};
const N = 64;
let out = '';
for (const [name, f] of Object.entries(maps)) {
  let hex = '';
  for (let i = 0; i < N; i++) {
    const s = f(i / (N - 1));
    const m = /rgb\((\d+), (\d+), (\d+)\)/.exec(s) ?? null;
    let r, g, b;
    if (m) {
      r = +m[1];
      g = +m[2];
      b = +m[3];
    } else {
      r = parseInt(s.slice(1, 3), 16);
      g = parseInt(s.slice(3, 5), 16);
      b = parseInt(s.slice(5, 7), 16);
    }
    hex += [r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('');
  }
  out += `  ${name}:\n    '${hex.match(/.{1,96}/g).join("' +\n    '")}',\n`;
}
console.log(out);
