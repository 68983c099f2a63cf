// GPU time of a channel expression (issue 40) at 4K over six RGB layers (18 half planes) in Node + Dawn: the whole build
// as the viewer encodes an expression layer (packing only planes past the device's sampled-texture limit), with and
// without the MIP chain after it, and the expression pass alone; and the textures a build creates (0 is the goal).
// Bundled and run by bench/expr-gpu.mjs; prints one JSON object last.
import './install-globals.js'; // first: shaders/ reads GPU* globals at load time
import { ShaderKit } from '../../shaders/pipelines.js';
import { createMipTexture, DummyPlanes, encodeMips, type PlaneTexture } from '../../shaders/passes.js';
import { compileExpression } from '../../shaders/expressions/index.js';
import { encodeExpression, planeReads } from '../../shaders/expressions/gpu.js';
import { adapterKey, openDawnDevice, timePasses } from './dawn.js';
import { makeHalfPlanes } from './images.js';

const LAYERS = ['diffuse', 'specular', 'emission', 'sss', 'transmission', 'coat'];
const EXPRESSIONS: Record<string, string> = {
  sum: 'diffuse + specular + emission + sss + transmission - coat',
  functions: 'select(luminance(diffuse + specular) > 1, pow(abs(emission), 0.4545) * sss, clamp(transmission - coat, 0, 1))',
};

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const dawn = await openDawnDevice({ timestamps: !process.argv.includes('--no-timestamps') });
  const { device } = dawn;
  device.addEventListener('uncapturederror', (e) => console.error(`GPU error: ${(e as GPUUncapturedErrorEvent).error.message}`));
  const kit = new ShaderKit(device);
  const dummies = new DummyPlanes(device);
  // --quick proves the bench runs (on SwiftShader, a shared CPU): its figures are not the GPU's
  const [w, h] = quick ? [320, 180] : [3840, 2160];
  const runs = quick ? 2 : 50;
  const channels: string[] = [];
  const planes = new Map<string, PlaneTexture>();
  LAYERS.forEach((layer, k) => {
    const p = makeHalfPlanes(w, h, 3 + k);
    for (const [c, data] of [
      ['R', p.r],
      ['G', p.g],
      ['B', p.b],
    ] as const) {
      const texture = device.createTexture({
        size: [w, h],
        format: 'r16float',
        usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      });
      // copied out of its SharedArrayBuffer: Dawn's writeTexture takes plain buffers
      device.queue.writeTexture({ texture }, new Uint16Array(data), { bytesPerRow: w * 2 }, [w, h]);
      channels.push(`${layer}.${c}`);
      planes.set(`${layer}.${c}`, { texture, kind: 'float', xSampling: 1, ySampling: 1 });
    }
  });
  await device.queue.onSubmittedWorkDone();
  const layer = createMipTexture(device, w, h, 'expression layer');
  const layout = { originX: 0, originY: 0, widthPx: w, heightPx: h };
  const out: Record<string, unknown> = {
    adapter: adapterKey(dawn.adapterInfo),
    timestamps: dawn.timestamps,
    imagePx: [w, h],
    planes: channels.length,
    maxSampledTexturesPerShaderStage: device.limits.maxSampledTexturesPerShaderStage,
    runs,
  };
  for (const [name, text] of Object.entries(EXPRESSIONS)) {
    const compiled = compileExpression(text, channels);
    if (!compiled.ok) throw new Error(`${text}: ${compiled.error.message}`);
    const program = compiled.program;
    const inputs = program.planes.map((p) => planes.get(p)!);
    const made: { destroy(): void }[] = [];
    const encode = (e: GPUCommandEncoder, ts: GPUComputePassTimestampWrites | undefined, mips: boolean, only: boolean): void => {
      const first = ts && !only ? { querySet: ts.querySet, beginningOfPassWriteIndex: ts.beginningOfPassWriteIndex } : undefined;
      const end = ts && !only ? { querySet: ts.querySet, endOfPassWriteIndex: ts.endOfPassWriteIndex } : undefined;
      made.push(encodeExpression(kit, e, program, inputs, layout, layer, dummies, { first, last: only ? ts : mips ? undefined : end }));
      if (mips) encodeMips(kit, e, layer, end);
    };
    // warm the clocks and the pipeline
    for (let i = 0; i < (quick ? 1 : 20); i++) {
      const e = device.createCommandEncoder();
      encode(e, undefined, true, false);
      device.queue.submit([e.finish()]);
      await device.queue.onSubmittedWorkDone();
    }
    // textures one build creates, once warm
    let texturesCreated = 0;
    const createTexture = device.createTexture.bind(device);
    device.createTexture = (d: GPUTextureDescriptor): GPUTexture => {
      texturesCreated++;
      return createTexture(d);
    };
    encode(device.createCommandEncoder(), undefined, false, false);
    device.createTexture = createTexture;
    const build = await timePasses(dawn, runs, (e, ts) => encode(e, ts, false, false));
    const withMips = await timePasses(dawn, runs, (e, ts) => encode(e, ts, true, false));
    const pass = await timePasses(dawn, runs, (e, ts) => encode(e, ts, false, true));
    for (const m of made.splice(0)) m.destroy();
    out[name] = {
      text,
      planesRead: program.planes.length,
      planesPacked: planeReads(inputs, device.limits.maxSampledTexturesPerShaderStage).filter((r) => r.from === 'packed').length,
      texturesCreatedPerBuild: texturesCreated,
      gpuMs: build.gpuMedianMs,
      gpuMsWithMips: withMips.gpuMedianMs,
      expressionPassGpuMs: pass.gpuMedianMs,
      wallMs: build.wallMedianMs,
    };
  }
  console.log(JSON.stringify(out));
  device.destroy();
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
