// The GPU thumbnail process (`dist/gpu-thumbs-child.mjs`): opens Dawn, then makes thumbnails from the planes the command sends.
// A process of its own so that a native abort in the driver or in Dawn ends it, not the command (which goes on on the CPU).
import { loadDawn, openDawnDevice } from './dawn.js';
import type { GpuChildReply, GpuChildRequest } from './client.js';

function send(m: GpuChildReply): void {
  process.send!(m);
}

async function main(): Promise<void> {
  if (!process.send) throw new Error('gpu-thumbs-child runs as a child process with an IPC channel');
  let opened: Awaited<ReturnType<typeof openDawnDevice>>;
  try {
    await loadDawn();
    opened = await openDawnDevice();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    send({
      type: 'fatal',
      error: /Cannot find (module|package) 'webgpu'/.test(message) ? "Dawn's webgpu package is not installed" : message,
    });
    process.disconnect?.();
    return;
  }
  // shaders/ reads the GPU globals when it loads: only now that loadDawn() installed them
  const { GpuThumbnailer } = await import('./thumbnailer.js');
  const thumbnailer = new GpuThumbnailer(opened.device);
  let lost = '';
  void opened.device.lost.then((info) => {
    lost = `GPU device lost (${info.reason}): ${info.message}`;
  });
  process.on('message', (m: GpuChildRequest) => {
    if (m.type === 'exit') {
      thumbnailer.destroy();
      process.disconnect?.();
      return;
    }
    if (lost) {
      send({ type: 'thumb', id: m.id, ok: false, error: lost });
      return;
    }
    thumbnailer.thumbnail(m.request).then(
      (r) => send({ type: 'thumb', id: m.id, ok: true, result: r }),
      (e: unknown) => send({ type: 'thumb', id: m.id, ok: false, error: lost || (e instanceof Error ? e.message : String(e)) }),
    );
  });
  send({ type: 'ready', adapter: opened.adapter });
}

main().catch((e: unknown) => {
  send({ type: 'fatal', error: e instanceof Error ? e.message : String(e) });
  process.exitCode = 1;
});
