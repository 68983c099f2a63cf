import { describe, expect, it } from 'vitest';
import { ProcessorBuilder, applyOps, openConfig } from '../../shaders/colour/index.js';
import { ocioDisplayOf } from './ocio-view.js';

const VIEW = {
  config: 'ocio://cg-config-latest',
  inputSpace: 'ACEScg',
  display: 'sRGB - Display',
  view: 'ACES 2.0 - SDR 100 nits (Rec.709)',
};

describe('the host-side OCIO view', () => {
  it('builds the processor the viewer builds from the same config, once per view', async () => {
    const opened = await openConfig(VIEW.config, { readText: () => '', readBytes: () => new Uint8Array() });
    const ops = new ProcessorBuilder(opened.config, opened.files).displayView(VIEW.inputSpace, VIEW.display, VIEW.view);
    const display = await ocioDisplayOf(VIEW);
    const a = Float32Array.of(0.18, 0.5, 2, 1),
      b = a.slice();
    applyOps(ops, a);
    applyOps(display.ops, b);
    expect([...b]).toEqual([...a]);
    expect([...b.subarray(0, 3)]).not.toEqual([0.18, 0.5, 2].map(Math.fround)); // a view, not the identity
    expect(await ocioDisplayOf(VIEW)).toBe(display);
  });

  it('an unknown view or a missing config file is an error naming it', async () => {
    await expect(ocioDisplayOf({ ...VIEW, view: 'No such view' })).rejects.toThrow(/No such view/);
    await expect(ocioDisplayOf({ ...VIEW, config: '/nowhere/config.ocio' })).rejects.toThrow(/\/nowhere\/config\.ocio.*check the path/);
  });
});
