// The commands of `exrview` and their options: one table that the argument parser, the help and the Electron shell all read.

import type { DisplayTransform } from '../shaders/display-params.js';

export interface OptionSpec {
  name: string;
  /** The value's placeholder (`--size PX`); absent for a flag. */
  value?: string;
  help: string;
  /** The values it takes, each with one line of help, listed under the option. */
  choices?: Readonly<Record<string, string>>;
}

export interface CommandSpec {
  /** What follows `exrview` in the one-line usage. */
  synopsis: string;
  /** One line for the overview. */
  summary: string;
  /** Sentences for the command's own help. */
  details: string[];
  options: OptionSpec[];
  examples: string[];
}

/** One line per display transform, so a new one cannot be added without saying what it is (TypeScript checks every name). */
export const TONE_MAP_HELP: Readonly<Record<DisplayTransform, string>> = {
  linear: 'no curve, no encoding: values clipped to 0..1',
  srgb: 'sRGB encoding, no curve: values above 1 clip (the default)',
  rec709: 'Rec. 709 encoding, no curve',
  aces: 'ACES filmic fit (Hill), sRGB-encoded',
  agx: 'AgX (Sobotka), sRGB-encoded: soft highlights, hue-stable',
  'pbr-neutral': 'Khronos PBR Neutral, sRGB-encoded: keeps base colours',
  reinhard: 'Reinhard x/(1+x), sRGB-encoded',
};

const JSON_FLAG: OptionSpec = { name: 'json', help: 'print JSON instead of text' };

export const COMMANDS = {
  info: {
    synopsis: 'info FILE [--json]',
    summary: 'every attribute of every part, as exrheader shows it',
    details: [
      'Every attribute of every part, as exrheader shows it. A file still being written (its offset tables not filled',
      'yet) or cut short says how many of its chunks are there ("incomplete": {"chunksPresent", "chunksTotal"} in JSON).',
    ],
    options: [JSON_FLAG],
    examples: ['exrview info shot.0001.exr', 'exrview info shot.0001.exr --json'],
  },
  stats: {
    synopsis: 'stats FILE [--json] [--expr EXPR]',
    summary: 'decode every part, per-channel min/max/mean/NaN/Inf',
    details: [
      'Decodes every non-deep part fully (level 0 of tiled parts) and prints, for each part, its windows and a table of its channels.',
      'min, max and mean are over finite values ("none" when there are none); NaN and ±Inf are counted apart.',
      'Deep parts list their channels without statistics. With --json: one JSON object, in the shape scripts read.',
      'A file still being written (its offset tables not filled yet) or cut short is decoded as far as its chunks are there:',
      'the statistics are of those, the JSON says "incomplete": {"chunksPresent": N, "chunksTotal": M}, and the exit code is 3.',
      "With --expr: a channel expression (the viewer's language, F2 there) evaluated in float32 over each part whose channels",
      'it names, and the statistics of its result (value, or R G B (A)). An expression that does not parse or fits no part',
      'prints the error with the expression and a caret under the place, exit 2.',
    ],
    options: [
      JSON_FLAG,
      { name: 'expr', value: 'EXPR', help: 'statistics of this channel expression instead of the channels, e.g. "(R+G+B)/3"' },
    ],
    examples: [
      'exrview stats shot.0001.exr',
      'exrview stats shot.0001.exr --json',
      'exrview stats shot.0001.exr --expr "diffuse + specular - beauty"',
    ],
  },
  matte: {
    synopsis: 'matte FILE [--layer NAME] --names LIST --out OUT.exr|OUT.png | matte FILE [--layer NAME] --list [--json]',
    summary: "a Cryptomatte layer's matte of picked names (EXR or PNG), or its names",
    details: [
      'Writes the matte of the picked names from a Cryptomatte layer (spec v1.2): per pixel, the coverage summed over every rank',
      "whose ID is a picked one. .exr writes it as one float channel A over the image's data window; .png as 8-bit grey (0 to 1).",
      "Names come from the layer's manifest (inline, or the sidecar file beside the image); a layer without one hashes the names",
      'given (MurmurHash3), unchecked; <hex> picks an ID directly. --list without --layer lists the Cryptomatte layers.',
      'A malformed layer (ranks missing or out of order, an unknown hash, a bad manifest) says what is wrong, exit 1.',
    ],
    options: [
      { name: 'layer', value: 'NAME', help: 'the Cryptomatte layer, e.g. crypto_object (may be left out when the file has one)' },
      { name: 'names', value: 'LIST', help: 'the names to pick, comma-separated; write a comma in a name as \\, and a backslash as \\\\' },
      { name: 'out', value: 'FILE', help: 'the matte: FILE.exr (float) or FILE.png (8-bit grey); replaced if there' },
      { name: 'list', help: "print the layer's names with their IDs (without --layer, in a file of several layers: the layers)" },
      { name: 'json', help: 'with --list: print JSON' },
    ],
    examples: [
      'exrview matte shot.exr --layer crypto_object --names "bunny,chair" --out matte.exr',
      'exrview matte shot.exr --layer crypto_material --names mtl_glass --out glass.png',
      'exrview matte shot.exr --layer crypto_object --list',
    ],
  },
  thumbs: {
    synopsis:
      'thumbs DIR --out DIR [--size PX] [--format png|jpg] [--exposure EV] [--tonemap NAME] [--gpu auto|on|off] [--ocio CONFIG --display D --view V [--look L] [--colorspace CS]]',
    summary: 'one thumbnail per EXR (PNG or JPEG) with a timing summary',
    details: [
      'Writes one thumbnail per EXR in DIR, with the same base name, showing a progress bar on a terminal and a timing summary at the end.',
      'Thumbnails are cached between runs in $EXRVIEW_CACHE_DIR, else $XDG_CACHE_HOME/exrview, else ~/.cache/exrview.',
    ],
    options: [
      { name: 'out', value: 'DIR', help: 'the folder the thumbnails are written to (made when missing)' },
      { name: 'size', value: 'PX', help: 'long side in pixels, 1 to 8192 (default 256)' },
      { name: 'format', value: 'png|jpg', help: 'image format (default png)' },
      { name: 'exposure', value: 'EV', help: 'exposure in stops, before the tone map (default 0)' },
      { name: 'tonemap', value: 'NAME', help: 'display transform after the exposure (default srgb), one of:', choices: TONE_MAP_HELP },
      {
        name: 'gpu',
        value: 'auto|on|off',
        help: 'auto: the GPU for the sizes where it measured faster (default); on: always; off: CPU only',
      },
      { name: 'ocio', value: 'CONFIG', help: 'an OpenColorIO config (.ocio, .ocioz or ocio://NAME) instead of --tonemap' },
      { name: 'display', value: 'D', help: 'the OCIO display (with --ocio)' },
      { name: 'view', value: 'V', help: 'the OCIO view (with --ocio)' },
      { name: 'look', value: 'L', help: "looks instead of the view's own (with --ocio)" },
      { name: 'colorspace', value: 'CS', help: "the images' colour space (with --ocio; default the scene_linear role)" },
    ],
    examples: [
      'exrview thumbs shots/ --out thumbs/',
      'exrview thumbs shots/ --out thumbs/ --ocio ocio://cg-config-latest --display "sRGB - Display" --view "ACES 2.0 - SDR 100 nits (Rec.709)"',
      'exrview thumbs shots/ --out thumbs/ --size 512 --format jpg --tonemap agx --exposure -1',
    ],
  },
  bench: {
    synopsis: 'bench DIR [--json] [--runs N] [--no-warmup] [--size PX]',
    summary: 'decode, then thumbnail, timings per stage',
    details: [
      'Decodes every EXR in DIR on the worker pool, then makes every thumbnail, and reports the time of each stage (read, decompress, unpack or resize).',
      'With --json the summary is one JSON object on the last line.',
    ],
    options: [
      JSON_FLAG,
      { name: 'runs', value: 'N', help: 'timed runs, 1 to 100; the median is reported (default 1)' },
      { name: 'no-warmup', help: 'skip the untimed first pass (it compiles the decoders and warms the disk cache)' },
      { name: 'size', value: 'PX', help: 'long side of the thumbnails in pixels, 1 to 8192 (default 256)' },
    ],
    examples: ['exrview bench shots/', 'exrview bench shots/ --json --runs 5'],
  },
  serve: {
    synopsis: 'serve [DIR] [--port N] [--tev [PORT]]',
    summary: 'the viewer in a browser, on 127.0.0.1 with an access token',
    details: [
      'Serves the viewer to any browser with WebGPU and prints the address, with its access token.',
      'Without DIR: the folder the viewer showed last, else the sample images. Stops on Ctrl-C.',
      "With --tev, renderers that speak tev's protocol (its Python client, pbrt, Mitsuba) send images to 127.0.0.1:PORT;",
      'they show in the grid as live items, updated as pixels arrive. Only clients on this machine may connect.',
    ],
    options: [
      { name: 'port', value: 'N', help: 'the port, 0 to 65535 (default 0: any free port)' },
      { name: 'tev', help: "also listen for tev's protocol on 127.0.0.1, on PORT when it follows (default 14158, as tev)" },
    ],
    examples: ['exrview serve shots/', 'exrview serve shots/ --port 8080', 'exrview serve shots/ --tev'],
  },
  ocio: {
    synopsis: 'ocio apply CONFIG cs SRC DST | ocio apply CONFIG dv SRC DISPLAY VIEW | ocio list CONFIG [--json]',
    summary: 'apply an OpenColorIO processor to raw float32 RGBA, or list a config',
    details: [
      "apply reads little-endian float32 RGBA on stdin and writes the result on stdout, as OpenColorIO's ocio_apply does;",
      "cs converts colour space SRC to DST, dv converts SRC through DISPLAY's VIEW ($OCIO_LOOKS overrides its looks).",
      'list prints the colour spaces, displays with their views, looks and roles as JSON.',
    ],
    options: [JSON_FLAG],
    examples: ['exrview ocio list studio.ocio --json', 'exrview ocio apply studio.ocio cs ACEScg sRGB < in.f32 > out.f32'],
  },
  help: {
    synopsis: 'help [COMMAND]',
    summary: "this overview, or a command's options and examples",
    details: [],
    options: [],
    examples: ['exrview help thumbs'],
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;
export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** Arguments that ask for help or the version rather than name a command or a path. */
export const HELP_FLAGS: readonly string[] = ['--help', '-h'];
export const VERSION_FLAGS: readonly string[] = ['--version', '-V'];

/** The command's options for parseArgs: those that take a value, then the flags. */
export function optionsOf(command: CommandName): [withValue: string[], bare: string[]] {
  const options: readonly OptionSpec[] = COMMANDS[command].options;
  return [options.filter((o) => o.value !== undefined).map((o) => o.name), options.filter((o) => o.value === undefined).map((o) => o.name)];
}
