// tev's remote-display packets as exrview reads them: their types, the limits every size is checked against, and the typed error.

/** The type byte after the length, as tev's `IpcPacket::EType` numbers them. */
export const TEV_PACKET_TYPE = {
  openImage: 0,
  reloadImage: 1,
  closeImage: 2,
  updateImage: 3,
  createImage: 4,
  updateImageV2: 5,
  updateImageV3: 6,
  openImageV2: 7,
  vectorGraphics: 8,
} as const;

/** tev's default port (`127.0.0.1:14158`). */
export const TEV_DEFAULT_PORT = 14158;

/** What a packet may ask for: every size is checked against these before anything is allocated for it. */
export interface TevLimits {
  /** A whole packet, its 4-byte length included. */
  maxPacketBytes: number;
  /** An image name, a path or a channel name, in UTF-8 bytes. */
  maxStringBytes: number;
  maxChannels: number;
  /** Width × height × channels of an image or of one update. */
  maxSamples: number;
  maxVectorCommands: number;
}

export const DEFAULT_TEV_LIMITS: TevLimits = {
  maxPacketBytes: 512 * 2 ** 20,
  maxStringBytes: 4096,
  maxChannels: 1024,
  maxSamples: 2 ** 27,
  maxVectorCommands: 1 << 20,
};

export type TevErrorCode =
  | 'packet-too-small'
  | 'packet-too-large'
  | 'unknown-type'
  | 'truncated'
  | 'string-too-long'
  | 'bad-string'
  | 'bad-size'
  | 'too-many-channels'
  | 'too-many-samples'
  | 'bad-layout'
  | 'bad-vector-command';

/** A packet that breaks the protocol or a limit: the connection that sent it is closed with this reason. */
export class TevProtocolError extends Error {
  constructor(
    readonly code: TevErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TevProtocolError';
  }
}

export interface TevOpenImage {
  type: 'open-image';
  grabFocus: boolean;
  path: string;
  channelSelector: string;
}

export interface TevReloadImage {
  type: 'reload-image';
  grabFocus: boolean;
  name: string;
}

export interface TevCloseImage {
  type: 'close-image';
  name: string;
}

export interface TevCreateImage {
  type: 'create-image';
  grabFocus: boolean;
  name: string;
  widthPx: number;
  heightPx: number;
  channelNames: string[];
}

/** One channel of an update: sample i of the tile is float number `offset + i * stride` of `data`. */
export interface TevUpdateChannel {
  name: string;
  offset: number;
  stride: number;
}

export interface TevUpdateImage {
  type: 'update-image';
  grabFocus: boolean;
  name: string;
  x: number;
  y: number;
  widthPx: number;
  heightPx: number;
  channels: TevUpdateChannel[];
  /** The packet's float data, little-endian, 4-byte aligned; long enough for every channel's last sample. */
  data: Float32Array;
}

export type TevVectorCommandKind =
  | 'save'
  | 'restore'
  | 'fill-color'
  | 'fill'
  | 'stroke-color'
  | 'stroke-width'
  | 'stroke'
  | 'begin-path'
  | 'close-path'
  | 'path-winding'
  | 'debug-dump-path-cache'
  | 'move-to'
  | 'line-to'
  | 'arc-to'
  | 'arc'
  | 'bezier-to'
  | 'circle'
  | 'ellipse'
  | 'quad-to'
  | 'rect'
  | 'rounded-rect'
  | 'rounded-rect-varying'
  | 'text'
  | 'text-align'
  | 'font-face'
  | 'font-size';

export interface TevVectorCommand {
  kind: TevVectorCommandKind;
  values: number[];
  /** Text and font-face commands: their string. */
  text?: string;
}

export interface TevVectorGraphics {
  type: 'vector-graphics';
  grabFocus: boolean;
  name: string;
  /** Add to the image's commands rather than replace them. */
  append: boolean;
  commands: TevVectorCommand[];
}

export type TevPacket = TevOpenImage | TevReloadImage | TevCloseImage | TevCreateImage | TevUpdateImage | TevVectorGraphics;
