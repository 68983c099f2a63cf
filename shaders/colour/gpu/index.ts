// OpenColorIO on the GPU: a processor's ops as WGSL and LUT textures, and their upload to a device.
export { buildGpuProcessor, isAnalytic, OCIO_IDENTITY_WGSL, type GpuProcessor, type GpuProcessorOptions } from './processor-wgsl.js';
export { uploadOcioLuts, type OcioLutTextures } from './gpu-luts.js';
