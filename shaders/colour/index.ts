// The display core's colour management: OCIO configs parsed, processors built and applied on the CPU.

export { ColourConfigError } from './errors.js';
export {
  parseConfig,
  findColourSpace,
  findNamedTransform,
  type OcioConfig,
  type ColourSpace,
  type Display,
  type View,
  type Look,
} from './config.js';
export { ProcessorBuilder, applyOps, type ColourFiles } from './processor.js';
export { describeConfig } from './list.js';
export { openConfig, type ConfigReader, type OpenedConfig } from './open-config.js';
export { colourSpaceOfPath, matchFileRule, activeDisplays, activeViews } from './rules.js';
export { BUILTIN_CONFIGS, BUILTIN_ALIASES } from './builtin-configs/index.js';
export type { Op } from './ops/op.js';
