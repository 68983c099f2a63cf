// A JPEG 2000 codestream decoder for the reversible HTJ2K streams OpenEXR writes (through OpenJPH):
// markers, tiles, packets, HT code-blocks, the 5/3 inverse wavelet, RCT, DC shift and NLT.
//
// Supported: any tiling, precincts and progression order, one quality layer, HT cleanup passes,
// per-component parameters (COC, QCC, NLT), 1 to 32-bit components. Refused as `unsupported`:
// the 9/7 transform, Part 1 (non-HT) code-blocks, several layers, HT refinement passes, and
// tile-level coding parameters. Damage is refused as `invalid`.

import { invalid, unsupported } from '../core/errors.js';
import { checkHtCleanupLength, decodeHtCleanup } from './ht-block.js';

export interface J2kComponent {
  bitDepth: number;
  signed: boolean;
  dx: number;
  dy: number;
  width: number;
  height: number;
  /** Reconstructed samples (DC shift and NLT applied); Int32Array where they fit, else Float64Array. */
  data: Int32Array | Float64Array;
}

export interface J2kSize {
  /** Image extent minus offset, as OpenEXR reads it. */
  width: number;
  height: number;
  components: { bitDepth: number; signed: boolean; dx: number; dy: number; width: number; height: number }[];
}

export interface J2kImage extends J2kSize {
  components: J2kComponent[];
}

/** What inspectJ2k finds: the size, and how samples are reconstructed. */
export interface J2kInfo extends J2kSize {
  /** The reversible colour transform joins components 0-2. */
  colourTransform: boolean;
  /** Per component: signed samples pass the binary complement non-linearity. */
  nltType3: boolean[];
}

const SOC = 0xff4f;
const SOT = 0xff90;
const SOD = 0xff93;
const EOC = 0xffd9;
const SIZ = 0xff51;
const COD = 0xff52;
const COC = 0xff53;
const QCD = 0xff5c;
const QCC = 0xff5d;
const NLT = 0xff76;

/** Big-endian reads with bounds checks. */
class Cursor {
  constructor(
    readonly bytes: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  need(n: number, what: string): void {
    if (this.pos + n > this.end) throw invalid(`JPEG 2000 codestream ends inside ${what}`);
  }

  u8(what: string): number {
    this.need(1, what);
    return this.bytes[this.pos++]!;
  }

  u16(what: string): number {
    this.need(2, what);
    const v = (this.bytes[this.pos]! << 8) | this.bytes[this.pos + 1]!;
    this.pos += 2;
    return v;
  }

  u32(what: string): number {
    this.need(4, what);
    const b = this.bytes;
    const v = b[this.pos]! * 0x1000000 + ((b[this.pos + 1]! << 16) | (b[this.pos + 2]! << 8) | b[this.pos + 3]!);
    this.pos += 4;
    return v;
  }
}

interface Siz {
  x1: number;
  y1: number;
  x0: number;
  y0: number;
  tileW: number;
  tileH: number;
  tileX0: number;
  tileY0: number;
  comps: { bitDepth: number; signed: boolean; dx: number; dy: number }[];
}

/** Coding style of one component (COD, or COC overriding it). */
interface CodingStyle {
  levels: number;
  /** Code-block size exponents. */
  xcb: number;
  ycb: number;
  /** Precinct size exponents per resolution. */
  ppx: number[];
  ppy: number[];
}

interface Quant {
  guardBits: number;
  /** Exponent per subband: LL, then HL, LH, HH of each level from the coarsest. */
  exponents: number[];
}

interface MainHeader {
  siz: Siz;
  progression: number;
  mct: boolean;
  sop: boolean;
  eph: boolean;
  styles: CodingStyle[];
  quants: Quant[];
  /** Per component: the binary complement NLT (type 3) applies. */
  nltType3: boolean[];
}

/** Decodes a whole codestream; `check` sees the size before anything is allocated by it and may refuse it. */
export function decodeJ2k(bytes: Uint8Array, check: (size: J2kSize) => void): J2kImage {
  return parse(bytes, check, true) as J2kImage;
}

/**
 * Reads every header of a codestream, packet headers included, and checks every code-block's
 * place and length, without decoding any: what another decoder is handed only once it passes.
 */
export function inspectJ2k(bytes: Uint8Array, check: (size: J2kSize) => void): J2kInfo {
  return parse(bytes, check, false) as J2kInfo;
}

function parse(bytes: Uint8Array, check: (size: J2kSize) => void, decode: boolean): J2kImage | J2kInfo {
  const c = new Cursor(bytes, 0, bytes.length);
  if (c.u16('SOC marker') !== SOC) throw invalid('JPEG 2000 codestream does not start with SOC');
  const header = readMainHeader(c);
  const { siz } = header;
  const size: J2kSize = {
    width: siz.x1 - siz.x0,
    height: siz.y1 - siz.y0,
    components: siz.comps.map((comp) => ({
      ...comp,
      width: Math.ceil(siz.x1 / comp.dx) - Math.ceil(siz.x0 / comp.dx),
      height: Math.ceil(siz.y1 / comp.dy) - Math.ceil(siz.y0 / comp.dy),
    })),
  };
  check(size);

  const wide = header.quants.map((q, i) => maxKmax(q, header.styles[i]!.levels) > 27);
  const planes = size.components.map((comp, i) => {
    const n = decode ? comp.width * comp.height : 0;
    return wide[i] ? new Float64Array(n) : new Int32Array(n);
  });

  // tile-parts: gather each tile's packet data (a tile's parts follow one another in its packet order)
  const tilesX = Math.ceil((siz.x1 - siz.tileX0) / siz.tileW);
  const tilesY = Math.ceil((siz.y1 - siz.tileY0) / siz.tileH);
  const tileData: Uint8Array[][] = Array.from({ length: tilesX * tilesY }, () => []);
  for (;;) {
    const marker = c.u16('marker');
    if (marker === EOC) break;
    if (marker !== SOT) throw invalid(`JPEG 2000 marker 0x${marker.toString(16)} where a tile-part should start`);
    const sotStart = c.pos - 2;
    if (c.u16('SOT length') !== 10) throw invalid('JPEG 2000 SOT marker has the wrong length');
    const tile = c.u16('tile index');
    const partBytes = c.u32('tile-part length');
    c.u8('tile-part index');
    c.u8('tile-part count');
    if (tile >= tileData.length) throw invalid(`JPEG 2000 tile ${tile} of ${tileData.length}`);
    // Psot 0: the last tile-part runs to EOC
    const partEnd = partBytes === 0 ? bytes.length - 2 : sotStart + partBytes;
    if (partEnd > bytes.length || partEnd < c.pos)
      throw invalid(`JPEG 2000 tile-part claims ${partBytes} bytes, ${bytes.length - sotStart} remain`);
    for (;;) {
      const m = c.u16('tile-part marker');
      if (m === SOD) break;
      const length = c.u16('marker length');
      if (length < 2) throw invalid('JPEG 2000 marker segment is shorter than its length field');
      if (
        m === COD ||
        m === COC ||
        m === QCD ||
        m === QCC ||
        m === NLT ||
        m === 0xff5f /* POC */ ||
        m === 0xff61 /* PPT */ ||
        m === 0xff5e /* RGN */
      ) {
        throw unsupported(`JPEG 2000 tile-part header marker 0x${m.toString(16)} (tile-level coding parameters)`);
      }
      c.need(length - 2, 'a tile-part marker segment');
      c.pos += length - 2;
    }
    if (c.pos > partEnd) throw invalid('JPEG 2000 tile-part header runs past the tile-part');
    tileData[tile]!.push(bytes.subarray(c.pos, partEnd));
    c.pos = partEnd;
    if (partBytes === 0) {
      c.u16('EOC marker');
      break;
    }
  }

  for (let t = 0; t < tileData.length; t++) {
    const parts = tileData[t]!;
    const data = parts.length === 1 ? parts[0]! : concat(parts);
    decodeTile(header, t % tilesX, Math.floor(t / tilesX), data, decode ? planes : null, size);
  }
  if (!decode) return { ...size, colourTransform: header.mct && siz.comps.length >= 3, nltType3: header.nltType3 };

  if (header.mct && siz.comps.length >= 3) inverseRct(planes, size);
  for (let i = 0; i < planes.length; i++) finishComponent(planes[i]!, siz.comps[i]!, header.nltType3[i]!);
  return { ...size, components: size.components.map((comp, i) => ({ ...comp, data: planes[i]! })) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function maxKmax(q: Quant, levels: number): number {
  let max = 0;
  for (let b = 0; b <= 3 * levels; b++) max = Math.max(max, q.guardBits + (q.exponents[b] ?? 0) - 1);
  return max;
}

function readMainHeader(c: Cursor): MainHeader {
  let siz: Siz | null = null;
  let cod: { progression: number; layers: number; mct: boolean; sop: boolean; eph: boolean; style: CodingStyle } | null = null;
  const cocs = new Map<number, CodingStyle>();
  let qcd: Quant | null = null;
  const qccs = new Map<number, Quant>();
  const nlts = new Map<number, { bitDepth: number; signed: boolean; type: number }>();
  let first = true;
  for (;;) {
    const marker = c.u16('main header marker');
    if (marker === SOT) {
      c.pos -= 2;
      break;
    }
    if ((marker & 0xff00) !== 0xff00) throw invalid(`JPEG 2000 main header holds 0x${marker.toString(16)} where a marker should be`);
    const length = c.u16('marker length');
    if (length < 2) throw invalid('JPEG 2000 marker segment is shorter than its length field');
    c.need(length - 2, `marker segment 0x${marker.toString(16)}`);
    const seg = new Cursor(c.bytes, c.pos, c.pos + length - 2);
    c.pos += length - 2;
    if (first && marker !== SIZ) throw invalid('JPEG 2000 main header does not start with SIZ');
    first = false;
    const componentIndex = () => (siz!.comps.length < 257 ? seg.u8('component index') : seg.u16('component index'));
    switch (marker) {
      case SIZ:
        siz = readSiz(seg);
        break;
      case COD: {
        const scod = seg.u8('Scod');
        const progression = seg.u8('progression order');
        const layers = seg.u16('layer count');
        const mct = seg.u8('multiple component transform');
        if (progression > 4) throw invalid(`JPEG 2000 progression order ${progression}`);
        if (mct > 1) throw unsupported(`JPEG 2000 multiple component transform ${mct}`);
        cod = {
          progression,
          layers,
          mct: mct === 1,
          sop: (scod & 2) !== 0,
          eph: (scod & 4) !== 0,
          style: readStyle(seg, (scod & 1) !== 0),
        };
        break;
      }
      case COC: {
        if (!siz) throw invalid('JPEG 2000 COC before SIZ');
        const index = componentIndex();
        const scoc = seg.u8('Scoc');
        cocs.set(index, readStyle(seg, (scoc & 1) !== 0));
        break;
      }
      case QCD:
        qcd = readQuant(seg);
        break;
      case QCC: {
        if (!siz) throw invalid('JPEG 2000 QCC before SIZ');
        qccs.set(componentIndex(), readQuant(seg));
        break;
      }
      case NLT: {
        const index = seg.u16('NLT component');
        const depth = seg.u8('NLT bit depth');
        const type = seg.u8('NLT type');
        nlts.set(index, { bitDepth: (depth & 0x7f) + 1, signed: (depth & 0x80) !== 0, type });
        break;
      }
      case 0xff60: // PPM
        throw unsupported('JPEG 2000 packed packet headers (PPM)');
      case 0xff5f: // POC
        throw unsupported('JPEG 2000 progression order changes (POC)');
      case 0xff5e: // RGN
        throw unsupported('JPEG 2000 regions of interest (RGN)');
      default:
        // CAP, COM, TLM, PLM, CRG and others carry nothing decoding needs
        break;
    }
  }
  if (!siz) throw invalid('JPEG 2000 codestream has no SIZ marker');
  if (!cod) throw invalid('JPEG 2000 codestream has no COD marker');
  if (!qcd) throw invalid('JPEG 2000 codestream has no QCD marker');
  if (cod.layers !== 1) throw unsupported(`JPEG 2000 codestream with ${cod.layers} quality layers (one is decoded)`);
  const count = siz.comps.length;
  for (const index of [...cocs.keys(), ...qccs.keys()])
    if (index >= count) throw invalid(`JPEG 2000 parameters for component ${index} of ${count}`);
  const styles = siz.comps.map((_, i) => cocs.get(i) ?? cod.style);
  const quants = siz.comps.map((_, i) => qccs.get(i) ?? qcd);
  quants.forEach((q, i) => {
    if (q.exponents.length < 3 * styles[i]!.levels + 1) throw invalid(`JPEG 2000 quantization of component ${i} lists too few subbands`);
  });
  const nltType3 = siz.comps.map((comp, i) => {
    const nlt = nlts.get(i) ?? nlts.get(65535);
    if (!nlt || nlt.type === 0) return false;
    if (nlt.type !== 3) throw unsupported(`JPEG 2000 non-linearity type ${nlt.type}`);
    if (nlt.bitDepth !== comp.bitDepth || nlt.signed !== comp.signed)
      throw invalid(`JPEG 2000 NLT of component ${i} disagrees with SIZ on its bit depth`);
    return comp.signed;
  });
  return { siz, progression: cod.progression, mct: cod.mct, sop: cod.sop, eph: cod.eph, styles, quants, nltType3 };
}

function readSiz(seg: Cursor): Siz {
  seg.u16('Rsiz');
  const x1 = seg.u32('Xsiz');
  const y1 = seg.u32('Ysiz');
  const x0 = seg.u32('XOsiz');
  const y0 = seg.u32('YOsiz');
  const tileW = seg.u32('XTsiz');
  const tileH = seg.u32('YTsiz');
  const tileX0 = seg.u32('XTOsiz');
  const tileY0 = seg.u32('YTOsiz');
  const count = seg.u16('Csiz');
  if (count < 1 || count > 16384) throw invalid(`JPEG 2000 image with ${count} components`);
  if (x0 >= x1 || y0 >= y1) throw invalid(`JPEG 2000 image area (${x0}, ${y0}) - (${x1}, ${y1}) is empty`);
  if (tileW < 1 || tileH < 1 || tileX0 > x0 || tileY0 > y0 || tileX0 + tileW <= x0 || tileY0 + tileH <= y0) {
    throw invalid('JPEG 2000 tile grid does not cover the image');
  }
  if (Math.ceil((x1 - tileX0) / tileW) * Math.ceil((y1 - tileY0) / tileH) > 65535)
    throw invalid('JPEG 2000 image has more than 65535 tiles');
  const comps: Siz['comps'] = [];
  for (let i = 0; i < count; i++) {
    const s = seg.u8('Ssiz');
    const dx = seg.u8('XRsiz');
    const dy = seg.u8('YRsiz');
    const bitDepth = (s & 0x7f) + 1;
    if (dx < 1 || dy < 1) throw invalid(`JPEG 2000 component ${i} has sampling ${dx}x${dy}`);
    if (bitDepth > 32) throw unsupported(`JPEG 2000 component of ${bitDepth} bits (32 at most)`);
    comps.push({ bitDepth, signed: (s & 0x80) !== 0, dx, dy });
  }
  return { x1, y1, x0, y0, tileW, tileH, tileX0, tileY0, comps };
}

function readStyle(seg: Cursor, precincts: boolean): CodingStyle {
  const levels = seg.u8('decomposition levels');
  const xcb = seg.u8('code-block width') + 2;
  const ycb = seg.u8('code-block height') + 2;
  const blockStyle = seg.u8('code-block style');
  const transform = seg.u8('wavelet transform');
  if (levels > 32) throw invalid(`JPEG 2000 ${levels} decomposition levels`);
  if (xcb > 10 || ycb > 10 || xcb + ycb > 12) throw invalid(`JPEG 2000 code-blocks of 2^${xcb} x 2^${ycb}`);
  if ((blockStyle & 0x40) === 0) throw unsupported('JPEG 2000 Part 1 code-blocks (only High-Throughput ones are decoded)');
  if ((blockStyle & 0x80) !== 0) throw unsupported('JPEG 2000 mixed HT and Part 1 code-blocks');
  if (transform !== 1) throw unsupported('JPEG 2000 9/7 irreversible wavelet (only the reversible 5/3 is decoded)');
  const ppx: number[] = [];
  const ppy: number[] = [];
  for (let r = 0; r <= levels; r++) {
    const p = precincts ? seg.u8('precinct size') : 0xff;
    ppx.push(precincts ? p & 0xf : 15);
    ppy.push(precincts ? p >> 4 : 15);
    if (r > 0 && (ppx[r] === 0 || ppy[r] === 0)) throw invalid('JPEG 2000 precinct size 1 above the lowest resolution');
  }
  return { levels, xcb, ycb, ppx, ppy };
}

function readQuant(seg: Cursor): Quant {
  const s = seg.u8('Sqcd');
  if ((s & 0x1f) !== 0) throw unsupported('JPEG 2000 scalar quantization (only reversible streams are decoded)');
  const exponents: number[] = [];
  while (seg.pos < seg.end) exponents.push(seg.u8('subband exponent') >> 3);
  return { guardBits: s >> 5, exponents };
}

// ---------------------------------------------------------------------------------------------
// Tile structure

interface Band {
  /** 0 LL, 1 HL, 2 LH, 3 HH. */
  kind: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  kMax: number;
  data: Int32Array | Float64Array;
}

interface Resolution {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  ppx: number;
  ppy: number;
  precinctsX: number;
  precinctsY: number;
  bands: Band[];
  /** Code-block size exponents in this resolution. */
  xcb: number;
  ycb: number;
}

interface TileComponent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  resolutions: Resolution[];
}

const ceilDiv = (a: number, b: number) => Math.ceil(a / b);

function buildTileComponent(
  header: MainHeader,
  comp: number,
  tx0: number,
  ty0: number,
  tx1: number,
  ty1: number,
  allocate: boolean,
): TileComponent {
  const { dx, dy } = header.siz.comps[comp]!;
  const style = header.styles[comp]!;
  const quant = header.quants[comp]!;
  const wide = maxKmax(quant, style.levels) > 27;
  const x0 = ceilDiv(tx0, dx);
  const y0 = ceilDiv(ty0, dy);
  const x1 = ceilDiv(tx1, dx);
  const y1 = ceilDiv(ty1, dy);
  const levels = style.levels;
  const resolutions: Resolution[] = [];
  for (let r = 0; r <= levels; r++) {
    const scale = 2 ** (levels - r);
    const res: Resolution = {
      x0: ceilDiv(x0, scale),
      y0: ceilDiv(y0, scale),
      x1: ceilDiv(x1, scale),
      y1: ceilDiv(y1, scale),
      ppx: style.ppx[r]!,
      ppy: style.ppy[r]!,
      precinctsX: 0,
      precinctsY: 0,
      bands: [],
      xcb: Math.min(style.xcb, r === 0 ? style.ppx[r]! : style.ppx[r]! - 1),
      ycb: Math.min(style.ycb, r === 0 ? style.ppy[r]! : style.ppy[r]! - 1),
    };
    if (res.x1 > res.x0) res.precinctsX = ceilDiv(res.x1, 2 ** res.ppx) - Math.floor(res.x0 / 2 ** res.ppx);
    if (res.y1 > res.y0) res.precinctsY = ceilDiv(res.y1, 2 ** res.ppy) - Math.floor(res.y0 / 2 ** res.ppy);
    const kinds = r === 0 ? [0] : [1, 2, 3];
    for (const kind of kinds) {
      const nb = r === 0 ? levels : levels - r + 1;
      const xo = kind & 1;
      const yo = kind >> 1;
      const s = 2 ** nb;
      const off = nb > 0 ? 2 ** (nb - 1) : 0;
      const band = {
        kind,
        x0: ceilDiv(x0 - off * xo, s),
        y0: ceilDiv(y0 - off * yo, s),
        x1: ceilDiv(x1 - off * xo, s),
        y1: ceilDiv(y1 - off * yo, s),
        kMax: quant.guardBits + quant.exponents[r === 0 ? 0 : 3 * (r - 1) + kind]! - 1,
        data: new Int32Array(0) as Int32Array | Float64Array,
      };
      const area = allocate ? Math.max(0, band.x1 - band.x0) * Math.max(0, band.y1 - band.y0) : 0;
      band.data = wide ? new Float64Array(area) : new Int32Array(area);
      res.bands.push(band);
    }
    resolutions.push(res);
  }
  return { x0, y0, x1, y1, resolutions };
}

/** One packet: a precinct of one resolution of one component (one layer only). */
interface Packet {
  comp: number;
  r: number;
  precinct: number;
  /** Reference-grid position of the precinct, for the position-driven progressions. */
  px: number;
  py: number;
}

function packetOrder(header: MainHeader, comps: TileComponent[], tx0: number, ty0: number): Packet[] {
  const packets: Packet[] = [];
  comps.forEach((tc, comp) => {
    const { dx, dy } = header.siz.comps[comp]!;
    const levels = tc.resolutions.length - 1;
    tc.resolutions.forEach((res, r) => {
      const firstX = Math.floor(res.x0 / 2 ** res.ppx);
      const firstY = Math.floor(res.y0 / 2 ** res.ppy);
      for (let j = 0; j < res.precinctsY; j++) {
        for (let i = 0; i < res.precinctsX; i++) {
          // where the precinct starts on the reference grid: the tile origin for a precinct clipped by it
          const rx = (firstX + i) * 2 ** res.ppx;
          const ry = (firstY + j) * 2 ** res.ppy;
          const px = rx > res.x0 ? rx * 2 ** (levels - r) * dx : tx0;
          const py = ry > res.y0 ? ry * 2 ** (levels - r) * dy : ty0;
          packets.push({ comp, r, precinct: j * res.precinctsX + i, px, py });
        }
      }
    });
  });
  const by =
    (...keys: ((p: Packet) => number)[]) =>
    (a: Packet, b: Packet) => {
      for (const key of keys) {
        const d = key(a) - key(b);
        if (d !== 0) return d;
      }
      return 0;
    };
  const r = (p: Packet) => p.r;
  const c = (p: Packet) => p.comp;
  const k = (p: Packet) => p.precinct;
  const y = (p: Packet) => p.py;
  const x = (p: Packet) => p.px;
  switch (header.progression) {
    case 0: // LRCP (one layer)
    case 1: // RLCP
      return packets.sort(by(r, c, k));
    case 2: // RPCL
      return packets.sort(by(r, y, x, c));
    case 3: // PCRL
      return packets.sort(by(y, x, c, r));
    default: // CPRL
      return packets.sort(by(c, y, x, r));
  }
}

/** Packet header bits, MSB first, with JPEG 2000's stuffing after 0xFF. */
class HeaderBits {
  private current = 0;
  private bitsLeft = 0;
  private lastWasFF = false;

  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  bit(): number {
    if (this.bitsLeft === 0) {
      if (this.pos >= this.data.length) throw invalid('JPEG 2000 packet header runs past the tile data');
      this.current = this.data[this.pos++]!;
      this.bitsLeft = this.lastWasFF ? 7 : 8;
      this.lastWasFF = this.current === 0xff;
    }
    this.bitsLeft--;
    return (this.current >> this.bitsLeft) & 1;
  }

  bits(n: number): number {
    let v = 0;
    for (let i = 0; i < n; i++) v = v * 2 + this.bit();
    return v;
  }

  /** Ends the header on a byte boundary (a header ending in 0xFF is followed by a stuffing byte). */
  finish(): number {
    if (this.lastWasFF) this.pos++;
    this.bitsLeft = 0;
    this.lastWasFF = false;
    return this.pos;
  }
}

/** A tag tree (B.10.2) over w x h leaves, decoded lazily. */
class TagTree {
  private readonly levels: { w: number; h: number; value: Int32Array; low: Int32Array }[] = [];

  constructor(w: number, h: number) {
    for (;;) {
      this.levels.push({ w, h, value: new Int32Array(w * h).fill(0x7fffffff), low: new Int32Array(w * h) });
      if (w === 1 && h === 1) break;
      w = (w + 1) >> 1;
      h = (h + 1) >> 1;
    }
  }

  /** Whether leaf (x, y)'s value is below `threshold`, reading bits as needed. */
  decode(bits: HeaderBits, x: number, y: number, threshold: number): boolean {
    let low = 0;
    let node = 0;
    for (let l = this.levels.length - 1; l >= 0; l--) {
      const level = this.levels[l]!;
      node = (y >> l) * level.w + (x >> l);
      if (low > level.low[node]!) level.low[node] = low;
      else low = level.low[node]!;
      while (low < threshold && low < level.value[node]!) {
        if (bits.bit()) level.value[node] = low;
        else low++;
      }
      level.low[node] = low;
    }
    return this.levels[0]!.value[node]! < threshold;
  }

  /** Leaf (x, y)'s value; more than `limit` is damage. */
  value(bits: HeaderBits, x: number, y: number, limit: number): number {
    let threshold = 1;
    while (!this.decode(bits, x, y, threshold)) {
      if (++threshold > limit + 1) throw invalid(`JPEG 2000 tag tree value above ${limit}`);
    }
    return threshold - 1;
  }
}

/** Parses a tile's packets and, given planes, decodes its code-blocks and wavelet into them. */
function decodeTile(
  header: MainHeader,
  tileX: number,
  tileY: number,
  data: Uint8Array,
  planes: (Int32Array | Float64Array)[] | null,
  size: J2kSize,
): void {
  const { siz } = header;
  const tx0 = Math.max(siz.tileX0 + tileX * siz.tileW, siz.x0);
  const ty0 = Math.max(siz.tileY0 + tileY * siz.tileH, siz.y0);
  const tx1 = Math.min(siz.tileX0 + (tileX + 1) * siz.tileW, siz.x1);
  const ty1 = Math.min(siz.tileY0 + (tileY + 1) * siz.tileH, siz.y1);
  const comps = siz.comps.map((_, i) => buildTileComponent(header, i, tx0, ty0, tx1, ty1, planes !== null));
  let pos = 0;
  for (const packet of packetOrder(header, comps, tx0, ty0)) {
    pos = readPacket(header, comps[packet.comp]!.resolutions[packet.r]!, packet.precinct, data, pos, planes !== null);
  }
  if (!planes) return;
  comps.forEach((tc, i) => {
    const comp = size.components[i]!;
    const image = inverseDwt(tc);
    // place the tile-component in the component plane
    const plane = planes[i]!;
    const ox = tc.x0 - Math.ceil(siz.x0 / siz.comps[i]!.dx);
    const oy = tc.y0 - Math.ceil(siz.y0 / siz.comps[i]!.dy);
    const w = tc.x1 - tc.x0;
    for (let y = 0; y < tc.y1 - tc.y0; y++) plane.set(image.subarray(y * w, y * w + w), (oy + y) * comp.width + ox);
  });
}

function readPacket(header: MainHeader, res: Resolution, precinct: number, data: Uint8Array, start: number, decode: boolean): number {
  let pos = start;
  // an SOP marker segment may precede the packet
  if (header.sop && pos + 6 <= data.length && data[pos] === 0xff && data[pos + 1] === 0x91) pos += 6;
  const bits = new HeaderBits(data, pos);
  const pi = precinct % res.precinctsX;
  const pj = Math.floor(precinct / res.precinctsX);
  // precinct in band coordinates (half the resolution's size above the lowest resolution)
  const shiftX = res.bands[0]!.kind === 0 ? res.ppx : res.ppx - 1;
  const shiftY = res.bands[0]!.kind === 0 ? res.ppy : res.ppy - 1;
  const pxIndex = Math.floor(res.x0 / 2 ** res.ppx) + pi;
  const pyIndex = Math.floor(res.y0 / 2 ** res.ppy) + pj;

  interface Block {
    band: Band;
    x0: number;
    y0: number;
    x1: number;
    y1: number;
    missing: number;
    lengths: number[];
  }
  const blocks: Block[] = [];
  const nonEmpty = bits.bit() === 1;
  if (nonEmpty) {
    for (const band of res.bands) {
      const bx0 = Math.max(band.x0, pxIndex * 2 ** shiftX);
      const by0 = Math.max(band.y0, pyIndex * 2 ** shiftY);
      const bx1 = Math.min(band.x1, (pxIndex + 1) * 2 ** shiftX);
      const by1 = Math.min(band.y1, (pyIndex + 1) * 2 ** shiftY);
      if (bx1 <= bx0 || by1 <= by0) continue;
      const cw = 2 ** res.xcb;
      const ch = 2 ** res.ycb;
      const cx0 = Math.floor(bx0 / cw);
      const cy0 = Math.floor(by0 / ch);
      const nx = Math.ceil(bx1 / cw) - cx0;
      const ny = Math.ceil(by1 / ch) - cy0;
      const inclusion = new TagTree(nx, ny);
      const zeroPlanes = new TagTree(nx, ny);
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          if (!inclusion.decode(bits, i, j, 1)) continue;
          let missing = zeroPlanes.value(bits, i, j, band.kMax);
          let passes = 1;
          if (bits.bit()) {
            passes = 2;
            if (bits.bit()) {
              passes = 3 + bits.bits(2);
              if (passes === 6) {
                passes = 6 + bits.bits(5);
                if (passes === 37) passes = 37 + bits.bits(7);
              }
            }
          }
          // HT: each further set of three passes is a placeholder for one more skipped bit-plane
          const placeholders = Math.floor((passes - 1) / 3);
          missing += placeholders;
          passes -= 3 * placeholders;
          let lblock = 3;
          while (bits.bit()) lblock++;
          const lengths = [bits.bits(lblock + Math.floor(Math.log2(3 * placeholders + 1)))];
          if (passes > 1) lengths.push(bits.bits(lblock + (passes > 2 ? 1 : 0)));
          if (lengths[0]! < 2 || lengths[0]! >= 65535) throw invalid(`HT cleanup segment of ${lengths[0]} bytes`);
          if (missing > band.kMax) throw invalid(`JPEG 2000 code-block skips ${missing} of ${band.kMax} bit-planes`);
          blocks.push({
            band,
            x0: Math.max(bx0, (cx0 + i) * cw),
            y0: Math.max(by0, (cy0 + j) * ch),
            x1: Math.min(bx1, (cx0 + i + 1) * cw),
            y1: Math.min(by1, (cy0 + j + 1) * ch),
            missing,
            lengths,
          });
        }
      }
    }
  }
  pos = bits.finish();
  if (header.eph) {
    if (data[pos] !== 0xff || data[pos + 1] !== 0x92) throw invalid('JPEG 2000 packet header lacks its EPH marker');
    pos += 2;
  }
  for (const block of blocks) {
    const total = block.lengths.reduce((a, b) => a + b, 0);
    if (pos + total > data.length) throw invalid(`JPEG 2000 code-block claims ${total} bytes, ${data.length - pos} remain in the tile`);
    if (block.lengths.length > 1) throw unsupported('HT refinement passes (SigProp and MagRef); OpenEXR writes cleanup passes only');
    const band = block.band;
    const stride = band.x1 - band.x0;
    if (!decode) {
      checkHtCleanupLength(data, pos, block.lengths[0]!);
      pos += total;
      continue;
    }
    decodeHtCleanup(data, pos, block.lengths[0]!, block.x1 - block.x0, block.y1 - block.y0, block.missing, band.kMax, {
      data: band.data,
      offset: (block.y0 - band.y0) * stride + (block.x0 - band.x0),
      stride,
    });
    pos += total;
  }
  return pos;
}

// ---------------------------------------------------------------------------------------------
// Inverse 5/3 wavelet (F.3), horizontal then vertical at each level, in place on one buffer

function inverseDwt(tc: TileComponent): Int32Array | Float64Array {
  const ll = tc.resolutions[0]!.bands[0]!;
  let image = ll.data;
  for (let r = 1; r < tc.resolutions.length; r++) {
    const res = tc.resolutions[r]!;
    const lower = tc.resolutions[r - 1]!;
    image = synthesize(res, lower, image);
  }
  return image;
}

/**
 * One level of 5/3 synthesis: interleave, lift each row, then lift the rows. Planes are Int32Array for most components and
 * Float64Array for those whose coefficients pass 2^30 (32-bit float and uint channels), where a shift would wrap: the lifts
 * halve with shifts on integers (the common, hot case) and floor division on doubles, one loop-invariant branch.
 */
function synthesize<Plane extends Int32Array | Float64Array>(res: Resolution, lower: Resolution, low: Plane): Plane {
  const w = res.x1 - res.x0;
  const h = res.y1 - res.y0;
  const int = low instanceof Int32Array;
  const out = (int ? new Int32Array(w * h) : new Float64Array(w * h)) as Plane;
  const hl = res.bands[0]!.data as Plane;
  const lh = res.bands[1]!.data as Plane;
  const hh = res.bands[2]!.data as Plane;
  const lowW = lower.x1 - lower.x0;
  const highW = res.bands[0]!.x1 - res.bands[0]!.x0;
  const firstLow = res.x0 & 1;
  const firstLowRow = res.y0 & 1;
  // rows of LL and HL start at the lower resolution's y0, rows of LH and HH at floor(y0 / 2)
  const lhY0 = res.bands[1]!.y0;
  const floor = Math.floor;
  for (let y = 0; y < h; y++) {
    // even coordinates on the resolution grid take low-pass samples, odd ones high-pass
    const v = res.y0 + y;
    const lowRow = (v & 1) === 0;
    const left = lowRow ? low : lh;
    const right = lowRow ? hl : hh;
    const sy = (v >> 1) - (lowRow ? lower.y0 : lhY0);
    const leftStart = sy * lowW;
    const rightStart = sy * highW;
    const row = y * w;
    for (let x = firstLow, i = leftStart; x < w; x += 2, i++) out[row + x] = left[i]!;
    for (let x = 1 - firstLow, i = rightStart; x < w; x += 2, i++) out[row + x] = right[i]!;
    if (w === 1) {
      if (firstLow === 1) out[row] = int ? out[row]! >> 1 : floor(out[row]! / 2);
      continue;
    }
    // low-pass (even) samples: X = Y - floor((left + right + 2) / 4), mirrored at the ends
    for (let x = firstLow; x < w; x += 2) {
      const l = x > 0 ? out[row + x - 1]! : out[row + x + 1]!;
      const rr = x + 1 < w ? out[row + x + 1]! : out[row + x - 1]!;
      out[row + x] = out[row + x]! - (int ? (l + rr + 2) >> 2 : floor((l + rr + 2) / 4));
    }
    // high-pass (odd) samples: X = Y + floor((left + right) / 2)
    for (let x = 1 - firstLow; x < w; x += 2) {
      const l = x > 0 ? out[row + x - 1]! : out[row + x + 1]!;
      const rr = x + 1 < w ? out[row + x + 1]! : out[row + x - 1]!;
      out[row + x] = out[row + x]! + (int ? (l + rr) >> 1 : floor((l + rr) / 2));
    }
  }
  if (h === 1) {
    if (firstLowRow === 1) for (let x = 0; x < w; x++) out[x] = int ? out[x]! >> 1 : floor(out[x]! / 2);
    return out;
  }
  for (let k = firstLowRow; k < h; k += 2) {
    const up = (k > 0 ? k - 1 : k + 1) * w;
    const down = (k + 1 < h ? k + 1 : k - 1) * w;
    const row = k * w;
    for (let x = 0; x < w; x++) {
      const sum = out[up + x]! + out[down + x]! + 2;
      out[row + x] = out[row + x]! - (int ? sum >> 2 : floor(sum / 4));
    }
  }
  for (let k = 1 - firstLowRow; k < h; k += 2) {
    const up = (k > 0 ? k - 1 : k + 1) * w;
    const down = (k + 1 < h ? k + 1 : k - 1) * w;
    const row = k * w;
    for (let x = 0; x < w; x++) {
      const sum = out[up + x]! + out[down + x]!;
      out[row + x] = out[row + x]! + (int ? sum >> 1 : floor(sum / 2));
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Component transforms

/** Inverse reversible colour transform on components 0-2 (G.2). */
function inverseRct(planes: (Int32Array | Float64Array)[], size: J2kSize): void {
  const [a, b, c] = size.components as [J2kSize['components'][0], J2kSize['components'][0], J2kSize['components'][0]];
  if (a.width !== b.width || a.width !== c.width || a.height !== b.height || a.height !== c.height) {
    throw invalid('JPEG 2000 colour transform over components of different sizes');
  }
  const y = planes[0]!;
  const cb = planes[1]!;
  const cr = planes[2]!;
  if (y instanceof Int32Array && cb instanceof Int32Array && cr instanceof Int32Array) {
    for (let i = 0; i < y.length; i++) {
      const g = y[i]! - ((cb[i]! + cr[i]!) >> 2);
      y[i] = cr[i]! + g;
      cb[i] = cb[i]! + g;
      cr[i] = g;
    }
  } else {
    for (let i = 0; i < y.length; i++) {
      const g = y[i]! - Math.floor((cb[i]! + cr[i]!) / 4);
      y[i] = cr[i]! + g;
      cb[i] = cb[i]! + g;
      cr[i] = g;
    }
  }
  // components 0, 1, 2 are R, G, B: Cb's plane holds B and Cr's holds G, so swap them into place
  planes[1] = cr;
  planes[2] = cb;
}

/** DC level shift of unsigned components; the binary complement NLT of signed ones. */
function finishComponent(plane: Int32Array | Float64Array, comp: { bitDepth: number; signed: boolean }, nltType3: boolean): void {
  const half = 2 ** (comp.bitDepth - 1);
  if (!comp.signed) {
    for (let i = 0; i < plane.length; i++) plane[i] = plane[i]! + half;
  } else if (nltType3) {
    const offset = half + 1;
    for (let i = 0; i < plane.length; i++) {
      const v = plane[i]!;
      if (v < 0) plane[i] = -v - offset;
    }
  }
}
