// tev packets decoded per type, as tev's own client writes them; and every way a packet can be wrong, as a typed error.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTevPacket } from './parse.js';
import { PacketFramer } from './framer.js';
import { DEFAULT_TEV_LIMITS, TevProtocolError, type TevLimits } from './packet.js';
import {
  PACKET,
  PacketWriter,
  closeImage,
  createImage,
  openImage,
  openImageV1,
  reloadImage,
  updateImageV1,
  updateImageV2,
  updateImageV3,
  vectorGraphics,
} from '../../testing/tev/tev-client.js';

const codeOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof TevProtocolError) return e.code;
    throw e;
  }
  return 'no error';
};

describe('parseTevPacket', () => {
  it('reads OpenImage v1 and v2, splitting v1\'s "path:channels" as tev does', () => {
    expect(parseTevPacket(openImage('/a/b.exr', 'R,G', false))).toEqual({
      type: 'open-image',
      grabFocus: false,
      path: '/a/b.exr',
      channelSelector: 'R,G',
    });
    expect(parseTevPacket(openImageV1('/a/b.exr:diffuse'))).toMatchObject({ path: '/a/b.exr', channelSelector: 'diffuse' });
    expect(parseTevPacket(openImageV1('C:/x.exr'))).toMatchObject({ path: 'C:/x.exr', channelSelector: '' });
    expect(parseTevPacket(openImageV1('plain.exr'))).toMatchObject({ path: 'plain.exr', channelSelector: '' });
  });

  it('reads ReloadImage, CloseImage and CreateImage', () => {
    expect(parseTevPacket(reloadImage('x', true))).toEqual({ type: 'reload-image', grabFocus: true, name: 'x' });
    expect(parseTevPacket(closeImage('ü.exr'))).toEqual({ type: 'close-image', name: 'ü.exr' });
    expect(parseTevPacket(createImage('img', 3, 2, ['R', 'G', 'B']))).toEqual({
      type: 'create-image',
      grabFocus: true,
      name: 'img',
      widthPx: 3,
      heightPx: 2,
      channelNames: ['R', 'G', 'B'],
    });
  });

  it('reads UpdateImage v1 (one channel), v2 (planar) and v3 (offsets and strides)', () => {
    const tile = { x: 1, y: 2, widthPx: 2, heightPx: 1 };
    const v1 = parseTevPacket(updateImageV1('img', 'Y', tile, [5, 6]));
    expect(v1).toMatchObject({
      type: 'update-image',
      x: 1,
      y: 2,
      widthPx: 2,
      heightPx: 1,
      channels: [{ name: 'Y', offset: 0, stride: 1 }],
    });
    expect(v1.type === 'update-image' && [...v1.data]).toEqual([5, 6]);
    const v2 = parseTevPacket(updateImageV2('img', ['R', 'G'], tile, [1, 2, 3, 4]));
    expect(v2.type === 'update-image' && v2.channels).toEqual([
      { name: 'R', offset: 0, stride: 1 },
      { name: 'G', offset: 2, stride: 1 },
    ]);
    const rgba = [1, 2, 3, 4, 5, 6, 7, 8];
    const v3 = parseTevPacket(
      updateImageV3(
        'img',
        ['R', 'G', 'B', 'A'].map((name, i) => ({ name, offset: i, stride: 4 })),
        tile,
        rgba,
      ),
    );
    expect(v3.type === 'update-image' && v3.channels[3]).toEqual({ name: 'A', offset: 3, stride: 4 });
    expect(v3.type === 'update-image' && [...v3.data]).toEqual(rgba);
  });

  it('reads vector graphics, text included', () => {
    const p = parseTevPacket(
      vectorGraphics(
        'img',
        [
          { type: 6, values: [] },
          { type: 18, values: [1, 2, 3, 4] },
          { type: 21, values: [5, 6], text: 'hello' },
        ],
        true,
      ),
    );
    expect(p).toEqual({
      type: 'vector-graphics',
      grabFocus: false,
      name: 'img',
      append: true,
      commands: [
        { kind: 'begin-path', values: [] },
        { kind: 'rect', values: [1, 2, 3, 4] },
        { kind: 'text', values: [5, 6], text: 'hello' },
      ],
    });
  });

  it('refuses what breaks the protocol or a limit, each with its code', () => {
    const small: TevLimits = { ...DEFAULT_TEV_LIMITS, maxSamples: 100, maxChannels: 4, maxStringBytes: 8 };
    expect(codeOf(() => parseTevPacket(Uint8Array.of(5, 0, 0, 0)))).toBe('packet-too-small');
    expect(codeOf(() => parseTevPacket(closeImage('x').subarray(0, 6)))).toBe('bad-size');
    expect(codeOf(() => parseTevPacket(new PacketWriter(42).bytes()))).toBe('unknown-type');
    expect(codeOf(() => parseTevPacket(new PacketWriter(PACKET.closeImage).u8(65).bytes()))).toBe('truncated');
    expect(codeOf(() => parseTevPacket(closeImage('a-very-long-name'), small))).toBe('string-too-long');
    expect(codeOf(() => parseTevPacket(new PacketWriter(PACKET.closeImage).u8(0xff).u8(0).bytes()))).toBe('bad-string');
    expect(codeOf(() => parseTevPacket(createImage('x', 100, 100, ['R']), small))).toBe('too-many-samples');
    expect(codeOf(() => parseTevPacket(createImage('x', 0, 1, ['R'])))).toBe('bad-size');
    expect(codeOf(() => parseTevPacket(createImage('x', 1, 1, ['R', 'G', 'B', 'A', 'Z']), small))).toBe('too-many-channels');
    expect(codeOf(() => parseTevPacket(createImage('x', 1, 1, ['R', 'R'])))).toBe('bad-layout');
    expect(codeOf(() => parseTevPacket(createImage('x', 1, 1, [])))).toBe('bad-size');
    const tile = { x: 0, y: 0, widthPx: 2, heightPx: 2 };
    expect(codeOf(() => parseTevPacket(updateImageV1('x', 'R', tile, [1, 2, 3])))).toBe('truncated');
    expect(codeOf(() => parseTevPacket(updateImageV1('x', 'R', { ...tile, x: -1 }, [1, 2, 3, 4])))).toBe('bad-size');
    expect(codeOf(() => parseTevPacket(updateImageV3('x', [{ name: 'R', offset: 0, stride: 5 }], tile, [1, 2, 3, 4])))).toBe('truncated');
    expect(codeOf(() => parseTevPacket(updateImageV3('x', [{ name: 'R', offset: -1, stride: 1 }], tile, [1, 2, 3, 4])))).toBe('bad-layout');
    expect(codeOf(() => parseTevPacket(vectorGraphics('x', [{ type: 99, values: [] }])))).toBe('bad-vector-command');
    expect(
      codeOf(() =>
        parseTevPacket(
          new PacketWriter(PACKET.vectorGraphics)
            .bool(false)
            .string('x')
            .bool(false)
            .i32(2 ** 30)
            .bytes(),
        ),
      ),
    ).toBe('bad-size');
    expect(
      codeOf(() => parseTevPacket(new PacketWriter(PACKET.vectorGraphics).bool(false).string('x').bool(false).i32(1000).bytes())),
    ).toBe('truncated');
  });
});

describe('PacketFramer', () => {
  it('checks the length as soon as its 4 bytes are in, before the packet arrives', () => {
    const framer = new PacketFramer({ ...DEFAULT_TEV_LIMITS, maxPacketBytes: 1000 });
    expect(codeOf(() => framer.push(Uint8Array.of(0xff, 0xff, 0xff, 0x7f)))).toBe('packet-too-large');
    expect(codeOf(() => new PacketFramer().push(Uint8Array.of(3, 0, 0, 0)))).toBe('packet-too-small');
  });

  it('cuts a stream split anywhere into the packets it holds', () => {
    const packets = [
      createImage('a', 2, 2, ['R', 'G']),
      updateImageV2('a', ['R', 'G'], { x: 0, y: 0, widthPx: 2, heightPx: 2 }, [1, 2, 3, 4, 5, 6, 7, 8]),
      closeImage('a'),
    ];
    const stream = new Uint8Array(packets.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of packets) {
      stream.set(p, at);
      at += p.length;
    }
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 20 }), (cuts) => {
        const framer = new PacketFramer();
        const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), stream.length];
        const got: Uint8Array[] = [];
        for (let i = 1; i < points.length; i++) got.push(...framer.push(stream.subarray(points[i - 1], points[i])));
        expect(got.map((g) => [...g])).toEqual(packets.map((p) => [...p]));
        expect(framer.heldBytes).toBe(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('fuzzed packets', () => {
  const limits: TevLimits = { maxPacketBytes: 1 << 16, maxStringBytes: 64, maxChannels: 8, maxSamples: 4096, maxVectorCommands: 256 };
  const valid = [
    openImage('/p.exr', 'R'),
    openImageV1('/p.exr:R'),
    reloadImage('n'),
    closeImage('n'),
    createImage('n', 16, 16, ['R', 'G', 'B']),
    updateImageV1('n', 'R', { x: 0, y: 0, widthPx: 2, heightPx: 2 }, [1, 2, 3, 4]),
    updateImageV2('n', ['R', 'G'], { x: 1, y: 1, widthPx: 1, heightPx: 2 }, [1, 2, 3, 4]),
    updateImageV3('n', [{ name: 'R', offset: 1, stride: 2 }], { x: 0, y: 0, widthPx: 2, heightPx: 1 }, [0, 1, 0, 2]),
    vectorGraphics('n', [
      { type: 15, values: [1, 2, 3] },
      { type: 23, values: [], text: 'sans' },
    ]),
  ];

  /** Only typed errors; and an update's data never longer than the packet that carried it. */
  const check = (bytes: Uint8Array): void => {
    try {
      const p = parseTevPacket(bytes, limits);
      if (p.type === 'update-image') expect(p.data.byteLength).toBeLessThanOrEqual(bytes.length);
      if (p.type === 'create-image') expect(p.widthPx * p.heightPx * p.channelNames.length).toBeLessThanOrEqual(limits.maxSamples);
    } catch (e) {
      if (!(e instanceof TevProtocolError)) throw e;
    }
  };

  it('truncated, with a lying length, or with bytes flipped: a typed error or a packet within the limits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...valid),
        fc.nat(),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }),
        fc.option(fc.integer({ min: 0, max: 2 ** 32 - 1 })),
        (packet, cut, flips, length) => {
          const bytes = packet.slice(0, (cut % packet.length) + 1);
          for (const [at, v] of flips) bytes[at % bytes.length] = v;
          if (length !== null && bytes.length >= 4) new DataView(bytes.buffer).setUint32(0, length, true);
          check(bytes);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('random bytes with a right length: a typed error or a packet within the limits', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 8 }), fc.uint8Array({ maxLength: 200 }), (type, body) => {
        const bytes = new Uint8Array(5 + body.length);
        new DataView(bytes.buffer).setUint32(0, bytes.length, true);
        bytes[4] = type;
        bytes.set(body, 5);
        check(bytes);
      }),
      { numRuns: 5000 },
    );
  });

  it('huge sizes in any field are refused without allocating for them', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }),
        (w, h, n) => {
          check(new PacketWriter(PACKET.createImage).bool(true).string('n').i32(w).i32(h).i32(n).string('R').bytes());
          check(
            new PacketWriter(PACKET.updateImageV2)
              .bool(true)
              .string('n')
              .i32(n)
              .string('R')
              .i32(0)
              .i32(0)
              .i32(w)
              .i32(h)
              .floats([1])
              .bytes(),
          );
          check(
            new PacketWriter(PACKET.updateImageV3)
              .bool(true)
              .string('n')
              .i32(1)
              .string('R')
              .i32(0)
              .i32(0)
              .i32(w)
              .i32(h)
              .i64(BigInt(n) * 4096n)
              .i64(BigInt(h) ** 2n)
              .floats([1])
              .bytes(),
          );
        },
      ),
      { numRuns: 2000 },
    );
  });
});
