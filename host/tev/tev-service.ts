// tev's protocol, started: the live images and the listener that fills them, with OpenImage reading EXRs from disk.

import { LiveImages } from './live-images.js';
import { startTevListener, type TevListener, type TevListenerOptions } from './listener.js';
import { readExrAsLive } from './open-file.js';
import { DEFAULT_TEV_LIMITS, type TevLimits } from './packet.js';

export interface TevService {
  images: LiveImages;
  listener: TevListener;
  close(): Promise<void>;
}

/**
 * `images`: the live images to fill (the app keeps one set across listener restarts); new ones by default.
 * `pickPort`: how the user picks another port, said when this one is in use.
 */
export async function startTevService(
  options: Omit<TevListenerOptions, 'images'> & { images?: LiveImages; pickPort?: string } = {},
): Promise<TevService> {
  const limits = options.limits ?? DEFAULT_TEV_LIMITS;
  const images = options.images ?? liveImagesReadingFiles(limits);
  let listener: TevListener;
  try {
    listener = await startTevListener({ ...options, images });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const port = options.port ?? 14158;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `port ${port} for tev's protocol is in use (is tev running?): quit it, or ${options.pickPort ?? 'pick another port with --tev PORT'}`,
      );
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

/** Live images whose OpenImage and ReloadImage read EXRs from disk. */
export function liveImagesReadingFiles(limits: TevLimits = DEFAULT_TEV_LIMITS): LiveImages {
  return new LiveImages({ openFile: (path, selector) => readExrAsLive(path, selector, limits) });
}
