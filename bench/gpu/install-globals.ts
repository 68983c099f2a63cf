// Puts Dawn's WebGPU globals (GPUBufferUsage, GPUShaderStage, …) on globalThis before shaders/ modules that use them at load time run.
import { globals } from 'webgpu';

Object.assign(globalThis, globals);
