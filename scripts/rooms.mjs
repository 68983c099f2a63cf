// The project's top-level rooms (ARCHITECTURE.md), named once for the lint rules, the test projects and the cycle test.

/** Rooms of source, lowest first. */
export const SOURCE_ROOMS = ['common', 'codec', 'shaders', 'contract', 'host', 'transport', 'server', 'cli', 'electron', 'renderer'];

/** Rooms that hold tests, harnesses, benchmarks and tooling rather than the app. */
export const TOOLING_ROOMS = ['native', 'testing', 'bench', 'e2e', 'scripts'];
