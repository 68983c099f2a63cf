// WebSocket /api/events: every HostEvent to every connected page, as JSON text frames.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { HostApi } from '../contract/host-api.js';

export interface EventHub {
  /** Accepts an upgrade already checked for Host, Origin and token; refuses one over the client limit. */
  accept(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  readonly clientCount: number;
  close(): void;
}

/** The hub; `ws` is loaded here, when a server starts, so commands that serve nothing need no npm packages. */
export async function createEventHub(host: HostApi, maxClients: number): Promise<EventHub> {
  const { WebSocketServer } = await import('ws');
  // clients send nothing: a tiny payload limit makes any message they do send close the connection
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024, perMessageDeflate: false });
  const clients = new Set<WebSocket>();
  const unsubscribe = host.onEvent((event) => {
    const frame = JSON.stringify(event);
    for (const ws of clients) if (ws.readyState === ws.OPEN) ws.send(frame);
  });
  return {
    accept(req, socket, head) {
      if (clients.size >= maxClients) {
        refuseUpgrade(socket, 503, `too many event connections (limit ${maxClients}); close other exrview tabs`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        clients.add(ws);
        ws.on('close', () => clients.delete(ws));
        ws.on('error', () => ws.terminate());
        ws.on('message', () => ws.close(1003, 'this stream only sends'));
      });
    },
    get clientCount() {
      return clients.size;
    },
    close() {
      unsubscribe();
      for (const ws of clients) ws.terminate();
      wss.close();
    },
  };
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  503: 'Service Unavailable',
};

/** Answers a refused upgrade with a plain HTTP error and closes the socket. */
export function refuseUpgrade(socket: Duplex, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
