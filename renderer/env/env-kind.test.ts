// The Environment view's guess: the envmap attribute wins over the shape; 2:1 and 1:6 shapes suggest lat-long and cube.
import { describe, expect, it } from 'vitest';
import type { FileHeader } from '../host-client/api-types.js';
import { guessEnvKind } from './env-kind.js';

const header = (text: string | null): FileHeader =>
  ({ parts: [{ index: 0, attributes: text ? [{ name: 'envmap', type: 'envmap', text }] : [] }] }) as unknown as FileHeader;

describe('guessEnvKind', () => {
  it('follows the envmap attribute whatever the shape', () => {
    expect(guessEnvKind(header('envmap (envmap): cube-face map'), 0, 100, 100)).toMatchObject({ kind: 'cube', fromShape: false });
    expect(guessEnvKind(header('envmap (envmap): latitude-longitude map'), 0, 64, 64)).toMatchObject({ kind: 'latlong', fromShape: false });
  });
  it('falls back to the shape', () => {
    expect(guessEnvKind(header(null), 0, 512, 256)).toMatchObject({ kind: 'latlong', fromShape: true });
    expect(guessEnvKind(null, 0, 64, 384)).toMatchObject({ kind: 'cube', fromShape: true });
    expect(guessEnvKind(null, 0, 1920, 1080).kind).toBeNull();
  });
});
