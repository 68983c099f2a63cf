// GradingTone and GradingHueCurve: read from YAML and CTF alike, OCIO's validation with the file and line, and inverses that undo.

import { describe, expect, it } from 'vitest';
import { ColourConfigError } from '../errors.js';
import { parseConfig, ProcessorBuilder, applyOps } from '../index.js';
import type { Op } from './op.js';

const config = (version: string, transform: string, files: Record<string, string> = {}): ProcessorBuilder =>
  new ProcessorBuilder(
    parseConfig(
      `ocio_profile_version: ${version}\nsearch_path: .\ncolorspaces:\n  - !<ColorSpace> {name: ref}\n` +
        `  - !<ColorSpace>\n    name: g\n    to_scene_reference: ${transform}\n`,
      '/c/g.ocio',
    ),
    { readText: (path) => files[path.split('/').pop()!] ?? '' },
  );

function messageOf(build: () => unknown): string {
  try {
    build();
  } catch (error) {
    if (error instanceof ColourConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ColourConfigError');
}

const TONE_YAML =
  '!<GradingToneTransform> {style: video, s_contrast: 1.2, ' +
  'blacks: {rgb: [1.1, 0.95, 1], master: 1.05, start: 0.4, width: 0.4}, ' +
  'midtones: {rgb: [1.1, 1, 0.9], master: 0.95, center: 0.4, width: 0.7}, ' +
  'highlights: {rgb: [0.9, 1.1, 1], master: 1.15, start: 0.2, pivot: 1}, direction: inverse}';
const TONE_CTF = `<GradingTone inBitDepth="32f" outBitDepth="32f" style="videoRev">
  <Blacks rgb="1.1 0.95 1" master="1.05" start="0.4" width="0.4" />
  <Midtones rgb="1.1 1 0.9" master="0.95" center="0.4" width="0.7" />
  <Highlights rgb="0.9 1.1 1" master="1.15" start="0.2" pivot="1" />
  <SContrast master="1.2" />
</GradingTone>`;
const HUE_YAML =
  '!<GradingHueCurveTransform> {style: linear, hue_sat: {control_points: [0, 1.1, 0.3, 0.9, 0.6, 1.05]}, ' +
  'lum_lum: {control_points: [-7, -7, 0, 0.4, 7, 7], slopes: [1, 1.1, 0.9]}}';
const HUE_CTF = `<GradingHueCurve inBitDepth="32f" outBitDepth="32f" style="linear">
  <HueSat><ControlPoints>0 1.1 0.3 0.9 0.6 1.05</ControlPoints></HueSat>
  <LumLum><ControlPoints>-7 -7 0 0.4 7 7</ControlPoints><Slopes>1 1.1 0.9</Slopes></LumLum>
</GradingHueCurve>`;
const ctf = (body: string): string => `<?xml version="1.0"?>\n<ProcessList id="t" version="2.5">\n${body}\n</ProcessList>\n`;

/** Values in each style's working range, and a few outside it. */
function grid(lo: number, hi: number): Float32Array {
  const steps = Array.from({ length: 9 }, (_, i) => lo + ((hi - lo) * i) / 8);
  const out: number[] = [];
  for (const r of steps) for (const g of steps) for (const b of steps) out.push(r, g, b, 1);
  return Float32Array.from(out);
}

describe('GradingTone and GradingHueCurve transforms', () => {
  it('reads a CTF node as the same op as the YAML transform', () => {
    const fromCtf = (body: string): Op[] => config('2.5', '!<FileTransform> {src: t.ctf}', { 't.ctf': ctf(body) }).colourSpace('g', 'ref');
    const fromYaml = (transform: string): Op[] => config('2.5', transform).colourSpace('g', 'ref');
    const strip = (ops: Op[]): unknown => JSON.parse(JSON.stringify(ops));
    expect(strip(fromCtf(TONE_CTF))).toEqual(strip(fromYaml(TONE_YAML)));
    expect(strip(fromCtf(HUE_CTF))).toEqual(strip(fromYaml(HUE_YAML)));
    expect(fromYaml(TONE_YAML)[0]).toMatchObject({ type: 'gradingTone', style: 'video', direction: 'inverse', sContrast: 1.2 });
  });

  it("holds OCIO's rules, naming the file and line", () => {
    expect(messageOf(() => config('2.1', HUE_YAML).colourSpace('g', 'ref'))).toBe(
      "/c/g.ocio:7: GradingHueCurveTransform needs ocio_profile_version 2.5 or later: raise the config's version or remove the transform",
    );
    expect(messageOf(() => config('2', '!<GradingToneTransform> {style: log, s_contrast: 2.5}').colourSpace('g', 'ref'))).toBe(
      '/c/g.ocio:7: s_contrast must be from 0.01 to 1.99',
    );
    expect(
      messageOf(() => config('2', '!<GradingToneTransform> {blacks: {rgb: [1, 1, 1], master: 1, start: 0.4}}').colourSpace('g', 'ref')),
    ).toBe('/c/g.ocio:7: blacks needs `rgb: [r, g, b]`, `master:`, `start:` and `width:`');
    expect(messageOf(() => config('2.5', '!<GradingHueCurveTransform> {hsy_transform: hsv}').colourSpace('g', 'ref'))).toMatch(
      /g\.ocio:7: hsy_transform "hsv" is not "none"/,
    );
    expect(
      messageOf(() => config('2.5', '!<GradingHueCurveTransform> {hue_hue: {control_points: [0, 0, 1.2, 1]}}').colourSpace('g', 'ref')),
    ).toBe('/c/g.ocio:7: hue_hue: x values must be from 0 to 1');
    const noStyle = ctf('<GradingTone inBitDepth="32f" outBitDepth="32f"><SContrast master="1.2"/></GradingTone>');
    expect(messageOf(() => config('2', '!<FileTransform> {src: t.ctf}', { 't.ctf': noStyle }).colourSpace('g', 'ref'))).toMatch(
      /t\.ctf:3: .*needs a style attribute/,
    );
  });

  it('each style and direction undoes itself inside its working range', () => {
    const transforms = [
      TONE_YAML,
      TONE_YAML.replace('video', 'log'),
      '!<GradingToneTransform> {style: linear, s_contrast: 0.8, whites: {rgb: [1.2, 1, 0.9], master: 1.1, start: 0, width: 8}}',
      HUE_YAML,
      HUE_YAML.replace('linear', 'log').replace('[-7, -7, 0, 0.4, 7, 7]', '[0, 0, 0.5, 0.55, 1, 1]'),
      HUE_YAML.replace('linear', 'video').replace('[-7, -7, 0, 0.4, 7, 7]', '[0, 0.02, 0.5, 0.5, 1, 1]'),
    ];
    for (const transform of transforms) {
      const builder = config('2.5', transform);
      const input = transform.includes('linear') ? grid(0.01, 4) : grid(0.05, 0.95);
      const out = input.slice();
      applyOps(builder.colourSpace('g', 'ref'), out);
      expect(out, transform).not.toEqual(input);
      applyOps(builder.colourSpace('ref', 'g'), out);
      let worst = 0;
      for (let i = 0; i < out.length; i++) worst = Math.max(worst, Math.abs(out[i]! - input[i]!) / Math.max(1, Math.abs(input[i]!)));
      expect(worst, transform).toBeLessThan(2e-4);
    }
  });
});
