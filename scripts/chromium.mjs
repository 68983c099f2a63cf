// Debian's Chromium with WebGPU on SwiftShader (../shared/GPU.md's flags): one list for Playwright and the benches.
// --use-angle=swiftshader besides GPU.md's flags: without it a WebGPU canvas loses its device on the first present.

export const CHROMIUM_PATH = process.env.EXRVIEW_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-vulkan=swiftshader',
  '--use-webgpu-adapter=swiftshader',
  '--use-angle=swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
