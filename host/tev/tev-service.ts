// tev's protocol, started: the live images and the listener that fills them, with OpenImage reading EXRs from disk.

import { LiveImages } from './live-images.js';
import { startTevListener, type TevListener, type TevListenerOptions } from './listener.js';
import { readExrAsLive } from './open-file.js';
import { DEFAULT_TEV_LIMITS } from './packet.js';

export interface TevService {
  images: LiveImages;
  listener: TevListener;
  close(): Promise<void>;
}

export async function startTevService(options: Omit<TevListenerOptions, 'images'> = {}): Promise<TevService> {
  const limits = options.limits ?? DEFAULT_TEV_LIMITS;
  const images = new LiveImages({ openFile: (path, selector) => readExrAsLive(path, selector, limits) });
  let listener: TevListener;
  try {
    listener = await startTevListener({ ...options, images });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const port = options.port ?? 14158;
    if (code === 'EADDRINUSE') {
      throw new Error(`port ${port} for tev's protocol is in use (is tev running?): quit it, or pick another port with --tev PORT`);
    }
    if (code === 'EACCES') throw new Error(`not allowed to listen on port ${port} for tev's protocol: use a port above 1023`);
    throw error;
  }
  return {
    images,
    listener,
    async close() {
      await listener.close();
      images.clear();
    },
  };
}
