// Lint: TypeScript rules plus the layering of ARCHITECTURE.md, at error level.
// Each room may import only the rooms below it; a room outside the codec reaches it only through codec/index.ts.
import tseslint from 'typescript-eslint';
import { SOURCE_ROOMS, TOOLING_ROOMS } from './scripts/rooms.mjs';

const nodeBuiltins = ['fs', 'path', 'os', 'zlib', 'worker_threads', 'child_process', 'http', 'net', 'crypto', 'url', 'stream'];
const ELECTRON = {
  regex: '^electron(/(main|renderer|common|utility))?$',
  message: 'Only electron/main.ts and electron/preload.ts import electron.',
};
const NO_NODE = [
  { group: ['node:*'], message: 'This room runs in the browser: no Node modules.' },
  ...nodeBuiltins.map((name) => ({ group: [name], message: 'This room runs in the browser: no Node modules.' })),
];

/** The rooms, lowest first; each may import the rooms listed in its `may` and nothing else of the project. */
const ROOMS = {
  common: { may: [], what: 'common/ holds pure helpers for every room: it imports none of them' },
  codec: { may: [], what: 'the codec imports nothing of the app' },
  shaders: { may: ['common'], what: 'the display core (shaders/) depends on nothing but WebGPU' },
  contract: { may: ['common'], what: 'the contract between host and renderer depends on nothing' },
  host: { may: ['common', 'codec', 'contract', 'shaders'], what: 'the host sits on the codec, the contract and the display core' },
  transport: { may: ['common', 'contract'], what: 'transport/ is what both transports share: it knows the contract only' },
  server: { may: ['common', 'codec', 'contract', 'host', 'transport', 'shaders'], what: 'the server sits on the host and transport' },
  cli: { may: ['common', 'codec', 'contract', 'host', 'server', 'shaders'], what: 'the command line sits on the host and the server' },
  electron: {
    may: ['common', 'codec', 'contract', 'host', 'transport', 'server', 'cli', 'shaders'],
    what: 'the Electron shell is the top of the Node side',
  },
  renderer: { may: ['common', 'contract', 'shaders'], what: 'the renderer sees only the contract and the display core' },
};
const ALL = [...SOURCE_ROOMS, ...TOOLING_ROOMS];
if (SOURCE_ROOMS.some((room) => !(room in ROOMS))) throw new Error('eslint.config.js: a room of scripts/rooms.mjs has no layer rule');

/** Relative import patterns that reach a room from anywhere (any depth of ../). */
const into = (room) => [
  `../${room}/**`,
  `../../${room}/**`,
  `../../../${room}/**`,
  `../../../../${room}/**`,
  `../${room}`,
  `../../${room}`,
];

const roomRules = Object.entries(ROOMS).map(([room, { may, what }]) => {
  const forbidden = ALL.filter((r) => r !== room && !may.includes(r));
  const patterns = [
    ...(room === 'electron' ? [] : [ELECTRON]),
    { group: forbidden.flatMap(into), message: `${what} (ARCHITECTURE.md).` },
    // outside the codec, only its façade
    ...(room === 'codec'
      ? []
      : [
          {
            group: ['**/codec/*', '**/codec/**', '!**/codec/index.js'],
            message: 'Import the codec through codec/index.js, not its internals.',
          },
        ]),
    ...(['common', 'contract', 'shaders', 'renderer'].includes(room) ? NO_NODE : []),
  ];
  return {
    files: [`${room}/**/*.{ts,tsx}`],
    ignores: ['**/*.test.ts', ...(room === 'electron' ? ['electron/main.ts', 'electron/preload.ts'] : [])],
    rules: { 'no-restricted-imports': ['error', { patterns }] },
  };
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'release/**',
      'node_modules/**',
      'native/build/**',
      '.gpu/**',
      '.gl/**',
      '.cpu/**',
      'test-results/**',
      'playwright-report/**',
    ],
  },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  ...roomRules,
  {
    // tests may reach a room's internals, and harnesses live in testing/, but only main.ts and preload.ts touch electron
    files: ['**/*.test.ts', 'testing/**/*.ts', 'bench/**/*.ts', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [ELECTRON] }] },
  },
);
