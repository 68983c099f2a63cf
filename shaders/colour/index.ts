// The display core's colour management: OCIO configs parsed, processors built and applied on the CPU.

export { ColourConfigError } from './errors.js';
export { parseConfig, findColourSpace, type OcioConfig, type ColourSpace, type Display, type View, type Look } from './config.js';
export { ProcessorBuilder, applyOps, type ColourFiles } from './processor.js';
export { describeConfig } from './list.js';
export type { Op } from './ops/op.js';
