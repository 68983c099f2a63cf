// The HostApi methods a transport carries, by kind: every method but onEvent, which travels as an event stream.

import type { HostApi } from './host-api.js';

/** Methods whose promise the caller awaits. */
export const CALL_METHODS = [
  'getInfo',
  'openFolder',
  'closeFolder',
  'listFiles',
  'listSequences',
  'getHeader',
  'decodeImage',
  'getThumbnail',
  'exportImages',
  'readColourConfig',
  'deepSamples',
  'levelStatistics',
] as const;

/** Fire-and-forget methods: the caller does not wait for them. */
export const SIGNAL_METHODS = ['cancel', 'setVisible', 'setPlayback'] as const;

export type CallMethod = (typeof CALL_METHODS)[number];
export type SignalMethod = (typeof SIGNAL_METHODS)[number];
export type TransportMethod = CallMethod | SignalMethod;

/** Methods that may carry request ids the server can cancel when the caller goes away. */
export const CANCELLABLE_METHODS: readonly CallMethod[] = ['decodeImage', 'getThumbnail', 'levelStatistics'];

// Compile-time proof that the lists above are exactly HostApi minus onEvent: adding a method to the
// contract without a transport for it fails type-checking here.
type Missing = Exclude<keyof HostApi, TransportMethod | 'onEvent'>;
type Extra = Exclude<TransportMethod, keyof HostApi>;
const _exhaustive: [Missing, Extra] extends [never, never] ? true : never = true;
void _exhaustive;

export const TRANSPORT_METHODS: readonly TransportMethod[] = [...CALL_METHODS, ...SIGNAL_METHODS];

export function isTransportMethod(name: string): name is TransportMethod {
  return (TRANSPORT_METHODS as readonly string[]).includes(name);
}

export function isSignalMethod(name: TransportMethod): name is SignalMethod {
  return (SIGNAL_METHODS as readonly string[]).includes(name);
}
