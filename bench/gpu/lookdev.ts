// GPU time of the look-development passes (issue 15) in Node + Dawn: the 4K preview tone-map without a LUT, with a
// 65^3 .cube LUT after the view or on the log shaper, on the HDR path; and the pass that turns the cached layer into the
// Environment view's lat-long texture (a lat-long copy, and a cube resampled). three.js itself needs a browser; its
// PMREM and draw cost is measured in Chromium (e2e/lookdev-env.spec.ts), this is the project's own part.
import { ShaderKit } from '../../shaders/pipelines.js';
import { DummyPlanes } from '../../shaders/passes.js';
import { createUploader } from '../../shaders/upload.js';
import { DEFAULT_DISPLAY, type DisplayParams } from '../../shaders/display-params.js';
import { lutFromFunction } from '../../shaders/lut-cube.js';
import { encodeLatLong } from '../../renderer/env/env-texture.js';
import { timePasses, type DawnDevice } from './dawn.js';
import { makeHalfPlanes } from './images.js';
import { GpuImageWork } from './gpu-work.js';

interface Opts {
  quick: boolean;
  log: (m: string) => void;
}

export async function benchLookdev(dawn: DawnDevice, opts: Opts): Promise<Record<string, unknown>> {
  const { device } = dawn;
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  const uploader = createUploader(device, { ringBytes: 320 << 20, label: 'lookdev' });
  const [w, h] = opts.quick ? [960, 540] : [3840, 2160];
  const runs = opts.quick ? 3 : 20;
  const work = new GpuImageWork(kit, dummies, w, h, 'r16float');
  await work.uploadPlanes(uploader, makeHalfPlanes(w, h, 5));
  const enc0 = device.createCommandEncoder();
  const u = work.encodeAssembleAndMips(enc0);
  device.queue.submit([enc0.finish()]);
  await device.queue.onSubmittedWorkDone();
  u.destroy();
  // a non-separable grade, as a creative LUT is: every lookup reads 8 scattered texels of the 65^3 texture
  const lut = lutFromFunction(
    65,
    (r, g, b) => [Math.pow(r, 0.8) * 0.9 + b * 0.1, (g * g + r * 0.2) / 1.2, (Math.sin(b * 1.4) / Math.sin(1.4)) * 0.85 + g * 0.15],
    'bench grade',
  );
  const sdr = device.createTexture({ size: [w, h], format: 'rgba8unorm', usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const hdr = device.createTexture({ size: [w, h], format: 'rgba16float', usage: GPUTextureUsage.RENDER_ATTACHMENT });
  const toneMaps: [string, GPUTexture, DisplayParams][] = [
    ['noLut', sdr, DEFAULT_DISPLAY],
    ['lut65AfterView', sdr, { ...DEFAULT_DISPLAY, lut: { lut, shaper: 'display', name: 'bench' } }],
    ['lut65OnLogShaper', sdr, { ...DEFAULT_DISPLAY, lut: { lut, shaper: 'log', name: 'bench' } }],
    ['hdrRollOff', hdr, { ...DEFAULT_DISPLAY, hdr: { paperWhiteNits: 203, peakNits: 1000, rollOff: true } }],
  ];
  const out: Record<string, unknown> = { imagePx: [w, h], runs };
  // warm the clocks (idle H100 clocks sit low) on the heaviest pass
  kit.setLut(lut);
  for (let i = 0; i < (opts.quick ? 1 : 40); i++) {
    const e = device.createCommandEncoder();
    work.encodeToneMap(e, sdr, undefined, toneMaps[1]![2]);
    device.queue.submit([e.finish()]);
    await device.queue.onSubmittedWorkDone();
  }
  for (const [name, target, display] of toneMaps) {
    opts.log(`lookdev tone-map ${name}`);
    kit.setLut(display.lut?.lut ?? null);
    out[`toneMap.${name}`] = await timePasses(dawn, runs, (e, ts) => work.encodeToneMap(e, target, ts, display));
  }
  // the Environment view's source: the cached layer (level 0) to a filterable lat-long; a 4K lat-long, a 1024 px-face cube
  opts.log('lookdev env lat-long');
  const envTargets: GPUTexture[] = [];
  out['envLatLong.copy'] = await timePasses(dawn, runs, (e, ts) =>
    envTargets.push(encodeLatLong(device, e, work.mip, 'latlong', w, h, ts)),
  );
  const face = opts.quick ? 128 : 1024;
  const cube = new GpuImageWork(kit, dummies, face, 6 * face, 'r16float');
  await cube.uploadPlanes(uploader, makeHalfPlanes(face, 6 * face, 6));
  const enc1 = device.createCommandEncoder();
  const u1 = cube.encodeAssembleAndMips(enc1);
  device.queue.submit([enc1.finish()]);
  await device.queue.onSubmittedWorkDone();
  u1.destroy();
  opts.log('lookdev env cube');
  out['envLatLong.cube'] = {
    facePx: face,
    ...(await timePasses(dawn, runs, (e, ts) => envTargets.push(encodeLatLong(device, e, cube.mip, 'cube', face, 6 * face, ts)))),
  };
  for (const t of envTargets) t.destroy();
  work.destroy();
  cube.destroy();
  sdr.destroy();
  hdr.destroy();
  dummies.destroy();
  uploader.destroy();
  kit.dispose();
  return out;
}
