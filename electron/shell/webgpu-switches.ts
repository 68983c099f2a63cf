// Chromium switches the app sets before it starts: WebGPU on Linux, where Chromium keeps it behind flags.

export interface Switch {
  name: string;
  value?: string;
}

export function chromiumSwitches(platform: NodeJS.Platform): Switch[] {
  if (platform !== 'linux') return [];
  return [
    // WebGPU is not enabled by default on Linux in Chromium; the viewer's GPU path needs it (it falls back to the CPU without)
    { name: 'enable-unsafe-webgpu' },
    { name: 'enable-features', value: 'Vulkan,VulkanFromANGLE,DefaultANGLEVulkan' },
  ];
}
