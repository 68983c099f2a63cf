// The HTJ2K block decoder (ITU-T T.814): the cleanup pass of one code-block, from its three
// interleaved bit streams (MagSgn forward, MEL forward, VLC backward) to signed coefficients.

import { invalid, unsupported } from '../core/errors.js';
import { VLC_INITIAL_ROW, VLC_OTHER_ROWS } from './ht-vlc-tables.js';

/** MEL run-length exponents per adaptation state (T.814's 13-state table). */
const MEL_EXPONENTS = [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 4, 5];

/** The widest code-block T.814 allows (1024 samples, 512 quads). */
export const MAX_BLOCK_WIDTH = 1024;

/** MEL: adaptive run-length code of the "significant quad in a zero context" events, MSB first. */
class MelDecoder {
  private pos: number;
  private current = 0;
  private bitsLeft = 0;
  private unstuff = false;
  private state = 0;
  private zerosLeft = 0;
  private onePending = false;

  constructor(
    private readonly data: Uint8Array,
    start: number,
    /** One past the last MEL byte; that byte's low nibble belongs to Scup and reads as ones. */
    private readonly end: number,
  ) {
    this.pos = start;
  }

  private bit(): number {
    if (this.bitsLeft === 0) {
      let byte = this.pos < this.end ? this.data[this.pos]! : 0xff;
      if (this.pos === this.end - 1) byte |= 0x0f;
      this.pos++;
      // after 0xFF the next byte carries 7 bits (its MSB is a stuffed zero)
      this.bitsLeft = this.unstuff ? 7 : 8;
      this.unstuff = byte === 0xff;
      this.current = byte;
    }
    this.bitsLeft--;
    return (this.current >> this.bitsLeft) & 1;
  }

  event(): number {
    if (this.zerosLeft > 0) {
      this.zerosLeft--;
      return 0;
    }
    if (this.onePending) {
      this.onePending = false;
      return 1;
    }
    const exponent = MEL_EXPONENTS[this.state]!;
    if (this.bit() === 1) {
      // a full run of 2^exponent zeros
      this.zerosLeft = (1 << exponent) - 1;
      if (this.state < 12) this.state++;
      return 0;
    }
    let run = 0;
    for (let i = 0; i < exponent; i++) run = (run << 1) | this.bit();
    if (this.state > 0) this.state--;
    // `run` zeros, then a one
    if (run === 0) return 1;
    this.zerosLeft = run - 1;
    this.onePending = true;
    return 0;
  }
}

/** VLC: read backward from the end of the cleanup segment, LSB first, with its own unstuffing rule. */
class VlcReader {
  private acc: number;
  private bits: number;
  private pos: number;
  private unstuff: boolean;

  constructor(
    private readonly data: Uint8Array,
    /** The byte before the last one of the segment: only its high nibble is VLC data. */
    first: number,
    /** Lowest byte index of the VLC segment (the start of MEL, which VLC grows towards). */
    private readonly lowest: number,
  ) {
    const byte = data[first]!;
    let nibble = byte >> 4;
    this.bits = 4;
    if ((nibble & 7) === 7) {
      this.bits = 3;
      nibble &= 7;
    }
    this.acc = nibble;
    this.unstuff = (byte | 0x0f) > 0x8f;
    this.pos = first - 1;
  }

  private fill(): void {
    while (this.bits <= 24) {
      // past the segment the bits are never used by a valid stream: zeros keep a damaged one bounded
      let byte = this.pos >= this.lowest ? this.data[this.pos]! : 0;
      this.pos--;
      let count = 8;
      const next = byte > 0x8f;
      if (this.unstuff && (byte & 0x7f) === 0x7f) {
        count = 7;
        byte &= 0x7f;
      }
      this.unstuff = next;
      this.acc = (this.acc | (byte << this.bits)) >>> 0;
      this.bits += count;
    }
  }

  /** The next n (at most 24) bits without consuming them. */
  peek(n: number): number {
    if (this.bits < n) this.fill();
    return this.acc & ((1 << n) - 1);
  }

  skip(n: number): void {
    if (this.bits < n) this.fill();
    this.acc >>>= n;
    this.bits -= n;
  }

  read(n: number): number {
    const value = this.peek(n);
    this.skip(n);
    return value;
  }
}

/** Decodes one u value's prefix (up to 3 bits): returns prefix value (1, 2, 3 or 5). */
function uvlcPrefix(vlc: VlcReader): number {
  const bits = vlc.peek(3);
  if (bits & 1) {
    vlc.skip(1);
    return 1;
  }
  if (bits & 2) {
    vlc.skip(2);
    return 2;
  }
  vlc.skip(3);
  return bits & 4 ? 3 : 5;
}

/** Suffix bits that follow a prefix. */
const suffixBits = (prefix: number): number => (prefix === 3 ? 1 : prefix === 5 ? 5 : 0);

export interface HtBlockTarget {
  /** Signed coefficients; Int32Array when every magnitude fits 30 bits (kMax <= 27), else Float64Array. */
  data: Int32Array | Float64Array;
  offset: number;
  stride: number;
}

/** Checks the cleanup segment's own length field; returns Scup, the bytes of MEL and VLC at its end. */
export function checkHtCleanupLength(src: Uint8Array, start: number, length: number): number {
  if (length < 2) throw invalid('HT code-block cleanup segment is shorter than 2 bytes');
  const end = start + length;
  const scup = (src[end - 1]! << 4) | (src[end - 2]! & 0x0f);
  if (scup < 2 || scup > length || scup > 4079)
    throw invalid(`HT code-block claims ${scup} bytes of MEL and VLC in a ${length}-byte segment`);
  return scup;
}

/**
 * Decodes the cleanup pass of one HT code-block of width x height samples held in
 * src[start, start + length), writing its coefficients into `out` (zeros where insignificant).
 * `missingMsbs` is the packet header's count (placeholder passes included), `kMax` the subband's
 * magnitude bit-planes.
 */
export function decodeHtCleanup(
  src: Uint8Array,
  start: number,
  length: number,
  width: number,
  height: number,
  missingMsbs: number,
  kMax: number,
  out: HtBlockTarget,
): void {
  if (length < 2) throw invalid('HT code-block cleanup segment is shorter than 2 bytes');
  if (width > MAX_BLOCK_WIDTH || height > MAX_BLOCK_WIDTH) throw invalid(`HT code-block of ${width}x${height} samples`);
  if (missingMsbs > kMax) throw invalid(`HT code-block skips ${missingMsbs} bit-planes of ${kMax}`);
  const end = start + length;
  const scup = checkHtCleanupLength(src, start, length);
  const mel = new MelDecoder(src, end - scup, end - 1);
  const vlc = new VlcReader(src, end - 2, end - scup);
  // MagSgn, read inline below (the hottest loop): forward, LSB first, 0xFF fed once used up
  let msPos = start;
  const msEnd = end - scup;
  let msAcc = 0;
  let msBits = 0;
  let msUnstuff = false;

  // one of the two is set: stores stay monomorphic
  const ints = out.data instanceof Int32Array ? out.data : null;
  const wides = out.data instanceof Float64Array ? out.data : null;
  const { offset, stride } = out;
  // coefficient = mu * 2^shift (+ half a step when bit-planes below the cleanup pass are missing)
  const shift = kMax - 1 - missingMsbs;
  const scale = 2 ** shift;
  const half = shift >= 1 ? 2 ** (shift - 1) : 0;
  // the largest exponent bound whose magnitudes still fit the coefficient (T.814 bounds U_q by P + 2)
  const maxUq = missingMsbs + 2;
  if (ints && maxUq + shift > 30) throw unsupported(`HT code-block needs ${maxUq + shift} magnitude bits in a 32-bit path`);

  const quadsX = (width + 1) >> 1;
  // per quad of the previous and current quad rows: rho; per column: the exponent E of the bottom sample above
  let rhoAbove = scratch.rhoA.fill(0, 0, quadsX + 2);
  let rhoHere = scratch.rhoB.fill(0, 0, quadsX + 2);
  const eAbove = scratch.eA.fill(0, 0, width + 2);
  const eHere = scratch.eB;

  for (let qy = 0, y = 0; y < height; qy++, y += 2) {
    const initial = qy === 0;
    const table = initial ? VLC_INITIAL_ROW : VLC_OTHER_ROWS;
    eHere.fill(0, 0, width + 2);
    const rowBase = offset + y * stride;
    const hasBottom = y + 1 < height;
    for (let qx = 0; qx < quadsX; qx += 2) {
      const pair = qx + 1 < quadsX ? 2 : 1;
      // VLC: significance pattern, u_off and EMB bits of each quad of the pair
      let info0 = 0;
      let info1 = 0;
      for (let k = 0; k < pair; k++) {
        const q = qx + k;
        let context: number;
        if (initial) {
          // context from the quad to the west
          const w = q > 0 ? rhoHere[q - 1]! : 0;
          context = (w & 1) | ((w >> 1) & 1) | ((w >> 1) & 6);
        } else {
          const nw = q > 0 ? rhoAbove[q - 1]! : 0;
          const n = rhoAbove[q]!;
          const ne = rhoAbove[q + 1]!;
          const w = q > 0 ? rhoHere[q - 1]! : 0;
          context = ((nw >> 3) & 1) | ((n >> 1) & 1) | ((((w >> 2) | (w >> 3)) & 1) << 1) | ((((n >> 3) | (ne >> 1)) & 1) << 2);
        }
        let entry = 0;
        if (context !== 0 || mel.event() === 1) {
          entry = table[(context << 7) | vlc.peek(7)]!;
          vlc.skip(entry & 7);
        }
        if (k === 0) info0 = entry;
        else info1 = entry;
        rhoHere[q] = (entry >> 4) & 0xf;
      }
      // UVLC: the exponent bound offsets u of the pair
      const uOff0 = (info0 >> 3) & 1;
      const uOff1 = (info1 >> 3) & 1;
      let u0 = 0;
      let u1 = 0;
      if (uOff0 && uOff1) {
        if (initial && mel.event() === 1) {
          const p0 = uvlcPrefix(vlc);
          const p1 = uvlcPrefix(vlc);
          u0 = p0 + vlc.read(suffixBits(p0));
          u1 = p1 + vlc.read(suffixBits(p1));
          if (u0 > 32) u0 += vlc.read(4) << 2;
          if (u1 > 32) u1 += vlc.read(4) << 2;
          u0 += 2;
          u1 += 2;
        } else {
          const p0 = uvlcPrefix(vlc);
          if (initial && p0 > 2) {
            // in the first row, a u0 above 2 leaves u1 one bit: 1 or 2
            u1 = 1 + vlc.read(1);
            u0 = p0 + vlc.read(suffixBits(p0));
            if (u0 > 32) u0 += vlc.read(4) << 2;
          } else {
            const p1 = uvlcPrefix(vlc);
            u0 = p0 + vlc.read(suffixBits(p0));
            u1 = p1 + vlc.read(suffixBits(p1));
            if (u0 > 32) u0 += vlc.read(4) << 2;
            if (u1 > 32) u1 += vlc.read(4) << 2;
          }
        }
      } else if (uOff0) {
        const p0 = uvlcPrefix(vlc);
        u0 = p0 + vlc.read(suffixBits(p0));
        if (u0 > 32) u0 += vlc.read(4) << 2;
      } else if (uOff1) {
        const p1 = uvlcPrefix(vlc);
        u1 = p1 + vlc.read(suffixBits(p1));
        if (u1 > 32) u1 += vlc.read(4) << 2;
      }

      // MagSgn: the magnitude and sign of every significant sample of the pair
      for (let k = 0; k < pair; k++) {
        const q = qx + k;
        const entry = k === 0 ? info0 : info1;
        const rho = (entry >> 4) & 0xf;
        if (rho === 0) continue;
        let kappa = 1;
        if (!initial && (rho & (rho - 1)) !== 0) {
          // more than one significant sample: predict from the exponents of the row above
          const x = 2 * q;
          let e = eAbove[x]! > eAbove[x + 1]! ? eAbove[x]! : eAbove[x + 1]!;
          if (x > 0 && eAbove[x - 1]! > e) e = eAbove[x - 1]!;
          if (eAbove[x + 2]! > e) e = eAbove[x + 2]!;
          if (e > 2) kappa = e - 1;
        }
        const Uq = (k === 0 ? u0 : u1) + kappa;
        if (Uq > maxUq) throw invalid(`HT code-block exponent bound ${Uq} exceeds ${maxUq}`);
        for (let n = 0; n < 4; n++) {
          if (((rho >> n) & 1) === 0) continue;
          const m = Uq - ((entry >> (12 + n)) & 1);
          const e1 = (entry >> (8 + n)) & 1;
          let mu: number;
          let sign: number;
          let exponent: number;
          if (m <= 24) {
            if (msBits < m) {
              while (msBits <= 24) {
                let byte = msPos < msEnd ? src[msPos]! : 0xff;
                msPos++;
                let count = 8;
                if (msUnstuff) {
                  count = 7;
                  byte &= 0x7f;
                }
                msUnstuff = byte === 0xff;
                msAcc = (msAcc | (byte << msBits)) >>> 0;
                msBits += count;
              }
            }
            const v = (msAcc & ((1 << m) - 1)) | (e1 << m);
            msAcc >>>= m;
            msBits -= m;
            sign = v & 1;
            mu = (v >>> 1) + 1;
            exponent = 32 - Math.clz32(v | 1);
          } else {
            let low = 0;
            let high = 0;
            for (let part = 0; part < 2; part++) {
              const want = part === 0 ? 24 : m - 24;
              while (msBits <= 24) {
                let byte = msPos < msEnd ? src[msPos]! : 0xff;
                msPos++;
                let count = 8;
                if (msUnstuff) {
                  count = 7;
                  byte &= 0x7f;
                }
                msUnstuff = byte === 0xff;
                msAcc = (msAcc | (byte << msBits)) >>> 0;
                msBits += count;
              }
              const bits = msAcc & ((1 << want) - 1);
              msAcc >>>= want;
              msBits -= want;
              if (part === 0) low = bits;
              else high = bits;
            }
            const v = low + high * 16777216 + e1 * 2 ** m;
            sign = low & 1;
            mu = Math.floor(v / 2) + 1;
            const v1 = v - sign + 1;
            exponent = v1 < 4294967296 ? 32 - Math.clz32(v1) : 64 - Math.clz32(Math.floor(v1 / 4294967296));
          }
          const sx = 2 * q + (n >> 1);
          // samples past the block's right or bottom edge are never significant in a valid stream
          if (sx >= width || ((n & 1) === 1 && !hasBottom)) continue;
          if (n & 1) eHere[sx] = exponent;
          const at = rowBase + (n & 1) * stride + sx;
          if (ints) {
            const magnitude = shift >= 0 ? (mu << shift) + half : (2 * mu + 1) >> (1 - shift);
            ints[at] = sign ? -magnitude : magnitude;
          } else {
            const magnitude = shift >= 0 ? mu * scale + half : Math.floor((2 * mu + 1) / 2 ** (1 - shift));
            wides![at] = sign ? -magnitude : magnitude;
          }
        }
      }
    }
    eAbove.set(eHere.subarray(0, width + 2));
    const t = rhoAbove;
    rhoAbove = rhoHere;
    rhoHere = t;
    rhoHere.fill(0, 0, quadsX + 2);
  }
}

/** Per-row state, reused from block to block (a worker decodes one block at a time). */
const scratch = {
  rhoA: new Uint8Array(MAX_BLOCK_WIDTH / 2 + 2),
  rhoB: new Uint8Array(MAX_BLOCK_WIDTH / 2 + 2),
  eA: new Uint8Array(MAX_BLOCK_WIDTH + 2),
  eB: new Uint8Array(MAX_BLOCK_WIDTH + 2),
};
