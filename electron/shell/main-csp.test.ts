// main.ts writes the CSP out literally (for electronegativity to evaluate it); it must be the one csp.ts makes.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../transport/csp.js';

describe('the CSP in main.ts', () => {
  it('is contentSecurityPolicy() word for word', () => {
    const main = readFileSync(new URL('../main.ts', import.meta.url), 'utf8');
    const literal = /'Content-Security-Policy': \[\s*"([^"]+)"/.exec(main)?.[1];
    expect(literal).toBe(contentSecurityPolicy());
  });
});
