// The opt-in TCP listener for tev's protocol: 127.0.0.1 only, loopback peers only, a bounded number of connections and
// of bytes held for unfinished packets; a bad packet closes its connection with a logged reason and changes nothing else.

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { PacketFramer } from './framer.js';
import { DEFAULT_TEV_LIMITS, TEV_DEFAULT_PORT, TevProtocolError, type TevLimits } from './packet.js';
import { parseTevPacket } from './parse.js';
import type { LiveImages } from './live-images.js';

export interface TevListenerOptions {
  images: LiveImages;
  /** Default 14158, tev's; 0: any free port. */
  port?: number;
  limits?: TevLimits;
  /** Connections open at once (default 64): more are closed as they come. */
  maxConnections?: number;
  /** Bytes held for unfinished packets over all connections (default 1 GiB): a connection that would pass it is closed. */
  maxHeldBytes?: number;
  /** A connection that sends nothing for this long is closed (default 5 minutes). */
  idleMs?: number;
  log?: (line: string) => void;
}

export interface TevListener {
  port: number;
  readonly connections: number;
  readonly heldBytes: number;
  /** Packets applied, and connections closed for a bad packet or a limit. */
  readonly stats: { packets: number; refused: number; badPackets: number };
  close(): Promise<void>;
}

const LOOPBACK_PEERS = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export async function startTevListener(options: TevListenerOptions): Promise<TevListener> {
  const limits = options.limits ?? DEFAULT_TEV_LIMITS;
  const maxConnections = options.maxConnections ?? 64;
  const maxHeldBytes = options.maxHeldBytes ?? 2 ** 30;
  const log = options.log ?? ((line: string) => process.stderr.write(`exrview: tev: ${line}\n`));
  const sockets = new Set<Socket>();
  const stats = { packets: 0, refused: 0, badPackets: 0 };
  let heldBytes = 0;

  const serve = (socket: Socket): void => {
    const peer = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    if (!LOOPBACK_PEERS.has(socket.remoteAddress ?? '')) {
      stats.refused++;
      log(`refused ${peer}: only clients on this machine may connect`);
      socket.destroy();
      return;
    }
    if (sockets.size >= maxConnections) {
      stats.refused++;
      // said once per burst, not once per socket: a thousand at once must not flood the log
      if (stats.refused % 100 === 1) log(`refused ${peer}: ${maxConnections} clients are connected already`);
      socket.destroy();
      return;
    }
    sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(options.idleMs ?? 5 * 60_000, () => socket.destroy());
    const framer = new PacketFramer(limits);
    let held = 0;
    // packets apply in order: a file an OpenImage reads must land before the next packet's update
    let queue = Promise.resolve();
    const release = (): void => {
      heldBytes -= held;
      held = 0;
    };
    const fail = (reason: string): void => {
      stats.badPackets++;
      log(`closed ${peer}: ${reason}`);
      socket.destroy();
    };
    socket.on('data', (chunk: Buffer) => {
      if (socket.destroyed) return;
      let packets: Uint8Array[];
      try {
        packets = framer.push(chunk);
      } catch (error) {
        fail(reasonOf(error));
        return;
      }
      heldBytes += framer.heldBytes - held;
      held = framer.heldBytes;
      if (heldBytes > maxHeldBytes) {
        fail(`unfinished packets hold more than ${maxHeldBytes} bytes over all clients`);
        return;
      }
      for (const bytes of packets) {
        let packet;
        try {
          packet = parseTevPacket(bytes, limits);
        } catch (error) {
          fail(reasonOf(error));
          return;
        }
        stats.packets++;
        queue = queue.then(async () => {
          const outcome = await options.images.apply(packet);
          if (!outcome.ok) log(outcome.note);
        });
      }
    });
    socket.on('error', () => {}); // a reset by the client ends only its connection
    socket.on('close', () => {
      release();
      sockets.delete(socket);
    });
  };

  const server: Server = createServer(serve);
  server.maxConnections = maxConnections * 4; // beyond this the kernel's sockets are closed before `serve` sees them
  const port = options.port ?? TEV_DEFAULT_PORT;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port, backlog: 511 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => log(`listener error: ${reasonOf(error)}`));

  return {
    port: (server.address() as AddressInfo).port,
    get connections() {
      return sockets.size;
    },
    get heldBytes() {
      return heldBytes;
    },
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function reasonOf(error: unknown): string {
  if (error instanceof TevProtocolError) return `bad packet (${error.code}): ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
