// The HostApi contract: the one interface the renderer sees, over Electron IPC or HTTP/WebSocket (browser mode).
// Types only (plus constants): the renderer imports this file with `import type`.

export type PixelTypeName = 'half' | 'float' | 'uint';
export type PartTypeName = 'scanlineimage' | 'tiledimage' | 'deepscanline' | 'deeptile';
/** Inclusive box: [xMin, yMin, xMax, yMax], as in the file. */
export type BoxTuple = [number, number, number, number];

export interface ChannelSummary {
  name: string;
  pixelType: PixelTypeName;
  xSampling: number;
  ySampling: number;
}

export interface LayerSummary {
  /** "" for the base layer (channels without a dot). */
  name: string;
  /** The view these channels belong to in a multi-view part (stereo `left`/`right`), else null. */
  view: string | null;
  /** Full channel names, RGBA-like ones first in R, G, B, A order. */
  channels: string[];
}

export interface PartSummary {
  index: number;
  name: string;
  type: PartTypeName;
  view: string | null;
  compression: string;
  dataWindow: BoxTuple;
  displayWindow: BoxTuple;
  channels: ChannelSummary[];
  layers: LayerSummary[];
  tiled: boolean;
  levelMode: 'oneLevel' | 'mipmapLevels' | 'ripmapLevels' | null;
  /** Number of levels (x levels for ripmaps). */
  levelCount: number;
  hasPreview: boolean;
  /**
   * The `chromaticities` attribute: CIE xy of red, green, blue and white ([rx, ry, gx, gy, bx, by, wx, wy]); absent
   * when the part has none (OpenEXR then means Rec. 709 primaries and D65, but says nothing of the colour space).
   */
  chromaticities?: number[];
  /** A string attribute that names the part's colour space (`colorSpace`, `oiio:ColorSpace`, ...), when it has one. */
  colourSpaceName?: string;
}

/** What the grid needs about one file, from a header-only parse. */
export interface FileSummary {
  widthPx: number;
  heightPx: number;
  multipart: boolean;
  views: string[];
  parts: PartSummary[];
}

export interface FileEntry {
  /** Stable id of the file for this host session (opaque to the renderer). */
  id: string;
  folderId: string;
  /** Path relative to the folder root, '/'-separated. */
  relativePath: string;
  name: string;
  sizeBytes: number;
  mtimeMs: number;
  /** 'incomplete': still being written (truncated); retried when it stops changing. */
  status: 'ok' | 'error' | 'incomplete';
  /** What went wrong and what to do, when status is 'error'. */
  error?: string;
  /** Not a file: an image a renderer sends over tev's protocol (`exrview serve --tev`), changing as it renders. */
  live?: 'tev';
  /**
   * From the header. Also on an 'error' file whose header reads but whose chunks do not all (cut short): its readable
   * chunks can be decoded, with the rest in the image's `missing`. Also on an 'incomplete' one whose header is whole.
   */
  summary?: FileSummary;
  /** An 'incomplete' file whose header is whole: how many of its chunks a writer has put down so far (shown as they land). */
  rendering?: RenderProgress;
}

/** A file still being written: its chunks present (walked, as OpenEXR reads a file whose offset tables are not filled yet). */
export interface RenderProgress {
  chunksPresent: number;
  /** The chunks of every part once the file is whole. */
  chunksTotal: number;
}

export interface FolderInfo {
  id: string;
  /** Shown to the user (absolute path in Electron, the served folder's name in browser mode). */
  displayPath: string;
  recursive: boolean;
  /**
   * Set when changes are found by looking at the folder every second, not by the platform's file events (a network mount,
   * or a platform watcher that failed): "watching by polling: <why>".
   */
  polling?: string;
}

/** One frame of a sequence: its number and the file that holds it. */
export interface SequenceFrame {
  frame: number;
  fileId: string;
  /** The file's status: 'error' or 'incomplete' frames are shown as damaged and skipped in playback. */
  status: FileEntry['status'];
}

/** Files of one folder named `name.####.exr`, `name_####.exr` or `name####.exr` (any padding): shown as one item and played. */
export interface SequenceInfo {
  /** Stable for this host session while the sequence exists (opaque to the renderer). */
  id: string;
  folderId: string;
  /** The pattern with one # per padded digit, relative to the folder ('shots/beauty.####.exr'). */
  relativePattern: string;
  /** The pattern's file name alone ('beauty.####.exr'). */
  name: string;
  padding: number;
  firstFrame: number;
  lastFrame: number;
  /** Frame step: 2 for a sequence rendered on twos. Missing frames are counted in steps. */
  step: number;
  /** Present frames in frame order. */
  frames: SequenceFrame[];
  /** Frame numbers between first and last (every `step`) that have no file: reported, not fatal. */
  missingFrames: number[];
  /** Frames whose file is damaged or incomplete (status not 'ok'). */
  damagedFrames: number[];
  /** The first readable frame's `framesPerSecond` attribute, or null when it has none (the player then uses 24). */
  framesPerSecond: number | null;
  /** Of the first readable frame. */
  widthPx: number;
  heightPx: number;
  sizeBytes: number;
  mtimeMs: number;
}

/**
 * What a playing sequence will show next: the host decodes these frames ahead, in this order, into its frame ring
 * (under a byte budget), and drops decodes of frames that are no longer in the list.
 */
export interface PlaybackPlan {
  /** The frames' files in the order they will be asked for, the next one first (a file may come more than once, as in a loop). */
  fileIds: string[];
  part: number;
  /** The channels each frame shows (its layer and alpha). */
  channels: string[];
  /**
   * The page's limits, as its decode requests for these frames carry them (DecodeRequest.fitWithin): a frame over them
   * is decoded ahead once, reduced, and served to a request with the same limits.
   */
  fitWithin?: FitWithin;
}

/** Every attribute of every part, for the header panel. */
export interface FileHeader {
  fileId: string;
  version: number;
  multipart: boolean;
  parts: { index: number; attributes: { name: string; type: string; text: string }[]; cryptomatte?: CryptomatteHeader }[];
  /** A live image's vector graphics (tev's protocol), drawn over it: the whole list as it stands. */
  vectorGraphics?: VectorCommand[];
}

/**
 * One of tev's vector-graphics commands (its `VgCommand`, NanoVG's calls): `kind` as NanoVG names the call
 * ('move-to', 'stroke-color'…), its float arguments in image pixels (colours 0–1), and the string of text commands.
 */
export interface VectorCommand {
  kind: string;
  values: number[];
  text?: string;
}

/** A part's Cryptomatte layers (spec v1.2), found by the host, which reads sidecar manifests beside the file. */
export interface CryptomatteHeader {
  layers: {
    name: string;
    key: string;
    /** Rank groups' channels (R, G, B, A each), group 00 first. */
    groups: string[][];
    manifestKind: 'inline' | 'sidecar' | 'none';
    /** The sidecar's path as the file names it. */
    manifestPath?: string;
    /** The manifest's JSON (inline, or the sidecar's text); null when there is none to read. */
    manifestJson: string | null;
    /** Why names are hashed rather than listed (no manifest, a sidecar not beside the image). */
    manifestWarning?: string;
  }[];
  /** Layers that cannot be used, each with what is wrong and what to do. */
  problems: { layer: string | null; kind: string; message: string }[];
}

export interface StageTimingsMs {
  /** Disk read. */
  readMs: number;
  decompressMs: number;
  unpackMs: number;
  /** Waiting in the host queue before a worker took it. */
  queueMs: number;
  /** Host-side wall time from request to reply. */
  hostMs: number;
  bytesRead: number;
  /** A reduced level box-filtered by the workers as they decoded: their filter time, summed. */
  filterMs?: number;
}

/** 'playback': frames of a playing sequence, decoded ahead in play order (after the image on screen, before prefetches). */
export type Priority = 'preview' | 'playback' | 'prefetch' | 'thumbnail-visible' | 'thumbnail-hidden';

export interface DecodeRequest {
  /** Chosen by the renderer; `cancel(requestId)` drops it. */
  requestId: string;
  fileId: string;
  part: number;
  lx?: number;
  ly?: number;
  /** Default: every channel of the part. */
  channels?: string[];
  priority: Priority;
  /**
   * What the page can show whole (its GPU's texture limit, its cache budget): level 0 of an image larger than this
   * comes reduced by a power of two, as the file's own MIP level when it has one, else box-filtered by the host.
   */
  fitWithin?: FitWithin;
  /**
   * With a smaller `fitWithin`: the level the page asks for next to refine this first one (its own fitWithin). The host
   * makes both in one pass over the file, answers this request with the smaller and holds the other for a while, for
   * the request that asks for it.
   */
  refineWithin?: FitWithin;
  /**
   * Only this crop of level 0 (data-window pixels, absolute: the detail of a huge image zoomed in past its reduced
   * level): the host decodes only the chunks it touches and answers with the crop alone (`DecodedImage.region`).
   */
  region?: PixelRegion;
}

/** A crop of an image's level 0 in absolute data-window pixels. */
export interface PixelRegion {
  xPx: number;
  yPx: number;
  widthPx: number;
  heightPx: number;
}

/** The largest image a page can show whole: sides of at most `maxSidePx`, at most `maxPixels` pixels. */
export interface FitWithin {
  maxSidePx: number;
  maxPixels: number;
}

/** A level 0 handed out reduced because it did not fit the page (see DecodeRequest.fitWithin). */
export interface ReducedLevel {
  /** Each side is 1/factor of level 0's (rounded as the level was made). */
  factor: number;
  /** The file's own MIP level, or level 0 box-filtered by the host as it was decoded. */
  from: 'mip-level' | 'box-filter';
  /** Level 0's size. */
  fullWidthPx: number;
  fullHeightPx: number;
  /** What level 0 was over: the page's largest side, or its pixel count (the GPU cache's budget). */
  over: 'side' | 'pixels';
  /** The limit it was over (px, or pixels). */
  limit: number;
}

export interface DecodedPlane {
  name: string;
  pixelType: PixelTypeName;
  xSampling: number;
  ySampling: number;
  widthSamples: number;
  heightSamples: number;
  /**
   * Half: raw binary16 bits; float: float32; uint: uint32. Little-endian, rows top to bottom. In the Node host a
   * SharedArrayBuffer the decode workers filled in place, which may be longer than the plane (its memory is reused
   * across image sizes): the plane is its first widthSamples × heightSamples samples (decode/plane-bytes.ts). In the
   * renderer the ArrayBuffer its transport received, exactly the plane's bytes.
   */
  data: ArrayBuffer | SharedArrayBuffer;
}

export interface DecodedImage {
  fileId: string;
  part: number;
  lx: number;
  ly: number;
  /** Absolute pixel box decoded (the data window at level 0). */
  dataWindow: BoxTuple;
  displayWindow: BoxTuple;
  widthPx: number;
  heightPx: number;
  planes: DecodedPlane[];
  /** Deep parts: the flattened image is in `planes`, and per-pixel sample counts here. */
  deepSampleCounts?: ArrayBuffer;
  /** Where the pixels came from: the RAM cache, or a decode. */
  source: 'ram-cache' | 'decode';
  timings: StageTimingsMs;
  /** Chunks of a damaged file that could not be read: their pixels are zero. Absent when every chunk was read. */
  missing?: MissingRegions;
  /** Level 0 reduced to fit the page (`DecodeRequest.fitWithin`): its pixels, windows and sizes are the reduced level's. */
  reduced?: ReducedLevel;
  /** The crop asked for (DecodeRequest.region): the data window is the crop's, the display window the image's. */
  region?: PixelRegion;
}

/**
 * A deep part's samples (`deepSamples`): one pixel's, read from the one chunk that holds it, or every pixel of level 0
 * for the depth-range composite.
 */
export interface DeepSamplesRequest {
  fileId: string;
  part: number;
  /** One pixel (absolute coordinates); omitted: every pixel of the data window. */
  pixel?: { xPx: number; yPx: number };
  /** Only these channels, in the file's order; default: every channel. */
  channels?: string[];
  /** Each pixel's samples sorted by depth (Z, then ZBack, then file order) instead of the file's order. */
  sortByDepth?: boolean;
}

/**
 * Statistics of level 0 measured on the host chunk by chunk (`levelStatistics`): for an image too large for the page to
 * hold whole, whose level on screen is reduced. The workers decode and measure it a band at a time; only the figures
 * come back.
 */
export interface LevelStatisticsRequest {
  /** Cancels it (`cancel`); a request that names no id runs to its end. */
  requestId?: string;
  fileId: string;
  part: number;
  /** The channels measured (1 to 64 of the part's). */
  channels: string[];
  /** Only these pixels (absolute); omitted: the whole data window. */
  region?: PixelRegion;
  /** Channels counted as R, G, B (null: 0) into [luminance, R, G, B] histogram bins; each must be full resolution. */
  histogram?: [string | null, string | null, string | null];
}

/** One channel's figures: finite values' count, mean, M2 (n × variance), min and max (0 when n is 0); NaN and ±Inf apart. */
export interface ChannelFigures {
  name: string;
  n: number;
  mean: number;
  m2: number;
  min: number;
  max: number;
  nan: number;
  inf: number;
}

export interface LevelStatistics {
  fileId: string;
  part: number;
  /** The pixels measured (absolute, inclusive): the request's region within the data window. */
  region: BoxTuple;
  /** Per channel asked for, in the file's order. */
  channels: ChannelFigures[];
  /** [luminance, R, G, B] × HIST_BINS counts over log2 of the value, when asked for (as the page's histogram bins). */
  histogram?: number[];
  /** Pixels of the region in chunks that could not be read (damaged, or not written yet): left out of the figures. */
  missingPx: number;
  /** Host figures: the pass's wall time, its workers' decode and measuring time summed, chunks read. */
  timings: { wallMs: number; decodeMs: number; statsMs: number; chunks: number; tasks: number };
}

/** Deep samples of a region, as the file holds them (half as binary16 bits, float32, uint32). */
export interface DeepSampleSet {
  fileId: string;
  part: number;
  /** Absolute inclusive box: the pixel asked for, or the data window. */
  region: BoxTuple;
  widthPx: number;
  heightPx: number;
  /** Samples per pixel (uint32), rows top to bottom. */
  sampleCounts: ArrayBuffer;
  /** The channels asked for, in the file's order; each holds every sample of every pixel, pixels in row order. */
  channels: { name: string; pixelType: PixelTypeName; data: ArrayBuffer }[];
  /** Per sample (uint32): its index among its pixel's samples in the file's order. */
  fileIndex: ArrayBuffer;
  /** Per sample (uint32): its place in its pixel's depth order (0 nearest). */
  depthIndex: ArrayBuffer;
  /** Nearest Z and farthest ZBack (or Z) of the part's samples in the region; null without Z or samples. */
  depthExtent: [number, number] | null;
}

/** What of a damaged image could not be read, and why. */
export interface MissingRegions {
  /** The pixels no chunk could be read for (absolute, inclusive, within the dataWindow), as few boxes as cover them. */
  regions: BoxTuple[];
  /** The first failure, as the codec says it ("part 0, chunk 14: chunk is not in the file (incomplete file?)"). */
  reason: string;
  chunksRead: number;
  chunksTotal: number;
  /** The file is still being written: the regions are chunks not written yet, not damage. */
  incomplete?: RenderProgress;
}

export interface ThumbnailRequest {
  requestId: string;
  fileId: string;
  /** Long side in pixels (the host makes 2x the display size). */
  longSidePx: number;
  priority: 'thumbnail-visible' | 'thumbnail-hidden';
  /**
   * Instead of the thumbnail, a stand-in to show while it is made: the file's embedded preview image
   * (OpenEXR's `preview` attribute, read with the header, in milliseconds), or the thumbnail itself
   * when the disk cache already has it. Rejects when the file has no preview.
   */
  embeddedPreview?: boolean;
}

export interface Thumbnail {
  fileId: string;
  widthPx: number;
  heightPx: number;
  /** Linear half-float RGBA, interleaved, rows top to bottom: the renderer tone-maps it. */
  rgbaHalf: ArrayBuffer;
  /** How it was made: a MIP level of a tiled file, a full decode box-filtered, the embedded preview, or the disk cache. */
  source: 'mip-level' | 'full-decode' | 'embedded-preview' | 'disk-cache';
  timings: StageTimingsMs;
  /** A damaged file's thumbnail, made of the chunks that could be read (the pixels of the others hatched). */
  missing?: ThumbnailMissing;
}

/** The chunks a thumbnail of a damaged file could not be made of, and the first one's reason as the codec says it. */
export interface ThumbnailMissing {
  chunksRead: number;
  chunksTotal: number;
  reason: string;
}

/** The view an export is rendered through: the same parameters the GPU tone-map uses. */
export interface ViewTransform {
  exposureEv: number;
  offset: number;
  gamma: number;
  displayTransform: DisplayTransformName;
  /** Layer and channel selection. */
  layer: string;
  channelMode: ChannelMode;
  /** A .cube LUT the view applies (its text, as shaders/lut-cube.ts parses it) and where in the display path. */
  lut?: ViewLut;
  /** An OpenColorIO view instead of the tone-map: applied after exposure, before encoding. */
  ocio?: ViewOcio;
}

/** An OpenColorIO display/view processor the host builds: the config by `ocio://` URI or path, and the image's colour space. */
export interface ViewOcio {
  /**
   * An `ocio://` built-in; a config file's absolute path the host read (readColourConfig: a page may name no other);
   * with `files`, the name of the config picked in the page.
   */
  config: string;
  /** A config picked in the page (browser mode): its text and LUT files, sent with the request. */
  files?: ViewOcioFiles;
  /** The colour space of an image `inputSpaces` does not name. */
  inputSpace: string;
  /** Each exported image's own colour space, by file id (an export of many files from many sources). */
  inputSpaces?: Record<string, string>;
  display: string;
  view: string;
  /** Looks instead of the view's own ('' for none); absent: the view's own. */
  looks?: string;
}

/** A config the page read itself: the config's path among `files`, and the context variables it was read with. */
export interface ViewOcioFiles {
  configPath: string;
  files: ColourConfigFile[];
  env?: Record<string, string>;
}

export interface ViewLut {
  name: string;
  shaper: 'display' | 'log' | 'linear';
  cube: string;
}

export type DisplayTransformName = 'srgb' | 'rec709' | 'aces' | 'agx' | 'pbr-neutral' | 'reinhard' | 'linear';
/** `expr:TEXT`: a channel expression's result (shaders/expressions), checked against the part's channels. */
export type ChannelMode = 'rgb' | 'rgba' | 'r' | 'g' | 'b' | 'a' | 'luminance' | `channel:${string}` | `expr:${string}`;

export interface ExportRequest {
  fileIds: string[];
  /** 'matte': a Cryptomatte matte of picked names (EXR float or PNG), as `exrview matte` writes it. */
  kind: 'image' | 'thumbnail' | 'exr-layer' | 'matte';
  format: 'png' | 'jpg' | 'exr';
  /** Electron: a folder the user picked. Browser mode has no export folder: the result is downloaded instead. */
  outDir?: string;
  overwrite: boolean;
  view: ViewTransform;
  part?: number;
  longSidePx?: number;
  /** For kind 'matte': the Cryptomatte layer and the picked names (manifest names, or `<hex>` IDs). */
  matte?: { layer: string; names: string[] };
}

export interface ExportResult {
  /**
   * `damage`: written from the chunks of a damaged deep part that could be read ("written with damage: …").
   * `reduced`: an image too large to encode whole, written at a reduced size ("written at 1/2 size (…): why").
   */
  written: { fileId: string; path: string; bytes: number; damage?: string; reduced?: string }[];
  /** Browser mode (no export folder): the encoded files, for the page to offer as downloads. */
  downloads?: { fileId: string; name: string; mimeType: string; data: ArrayBuffer; damage?: string; reduced?: string }[];
  skipped: { fileId: string; reason: string }[];
  failed: { fileId: string; reason: string }[];
}

export interface HostInfo {
  mode: 'electron' | 'browser';
  version: string;
  platform: string;
  /** Folders open at start (the last one, the one on the command line, or the samples). */
  folders: FolderInfo[];
  decodeWorkers: number;
  ramCacheBudgetBytes: number;
  /** The environment's `$OCIO` (a config path or an `ocio://` URI) the viewer starts with; absent when unset. */
  ocio?: string;
  /** OCIO config files opened through readColourConfig before, most recent first (absolute paths). */
  recentColourConfigs?: string[];
  /** The decoders' kernel tier and why the one above it is off (null in the native tier), for the diagnostics panel. */
  decodeTier?: { tier: 'native' | 'wasm' | 'typescript'; whyNotAbove: string | null };
}

/** One file of an OCIO config as readColourConfig read it: its text and the path the config names it by. */
export interface ColourConfigFile {
  /**
   * Relative to the config's folder, as the config's search_path and FileTransform name it ('luts/tone.spi1d',
   * '../shared/grade.cube'); the config itself by its file name. Inside a `.ocioz`, the archive entry's path.
   */
  path: string;
  text: string;
}

/** An OCIO config and the LUT files it references, read from disk by the host. */
export interface ColourConfigFiles {
  /** The config's absolute path (an `.ocio`, or the `.ocioz` archive), for the recent list and Reload. */
  source: string;
  /** The path among `files` that is the config. */
  configPath: string;
  files: ColourConfigFile[];
  /**
   * The environment's values of the context variables the config names (`$SHOT` in a search path) and of OCIO's
   * OCIO_ACTIVE_DISPLAYS, OCIO_ACTIVE_VIEWS and OCIO_INACTIVE_COLORSPACES, where set: only those, never the rest.
   */
  env: Record<string, string>;
  /** LUT files the config names that were not read (not found, unresolved variables, too big): each with why. */
  missing: { path: string; reason: string }[];
  /** The recent list after this config joined it. */
  recentColourConfigs: string[];
}

export type HostEvent =
  | { type: 'files-added'; folderId: string; files: FileEntry[] }
  | { type: 'files-changed'; folderId: string; files: FileEntry[] }
  | { type: 'files-removed'; folderId: string; fileIds: string[] }
  | { type: 'folder-error'; folderId: string; message: string }
  /** The folder's sequences changed (a frame added, removed or changed): list them again. */
  | { type: 'sequences-changed'; folderId: string }
  | { type: 'thumbnail-progress'; done: number; total: number }
  /** An OCIO config the host read (its file or a LUT file of it) changed on disk: read it again (readColourConfig). */
  | { type: 'colour-config-changed'; path: string }
  /**
   * A live image (tev's protocol) changed in this region only: fetch that crop (DecodeRequest.region) rather than the
   * whole image. Updates that land together come as one event, their regions' bounding box.
   */
  | { type: 'live-region'; folderId: string; file: FileEntry; region: PixelRegion }
  /** A live image's vector graphics changed: `commands` is the whole list now (drawn over it, in image pixels). */
  | { type: 'live-vectors'; folderId: string; fileId: string; commands: VectorCommand[] }
  /** A tev client asked for this live image to be shown (grabFocus): select it. */
  | { type: 'live-focus'; folderId: string; fileId: string };

export interface HostApi {
  getInfo(): Promise<HostInfo>;
  /**
   * Electron: a path (or the folder picker when omitted). Browser mode: only the served folder or folders under it.
   * `progressive`: a big folder's call returns once its first files in name order are read; the rest arrive as
   * 'files-added' events (batched), then a 'sequences-changed'.
   */
  openFolder(path?: string, options?: { recursive?: boolean; progressive?: boolean }): Promise<FolderInfo | null>;
  closeFolder(folderId: string): Promise<void>;
  listFiles(folderId: string): Promise<FileEntry[]>;
  /** The frame sequences among the folder's files (their files are listed by listFiles too). */
  listSequences(folderId: string): Promise<SequenceInfo[]>;
  getHeader(fileId: string): Promise<FileHeader>;
  decodeImage(request: DecodeRequest): Promise<DecodedImage>;
  getThumbnail(request: ThumbnailRequest): Promise<Thumbnail>;
  /** Drops a pending decode or thumbnail; its promise rejects with a message saying it was cancelled. */
  cancel(requestId: string): void;
  /** Priority hint: these files' thumbnails are visible now; the last one is the image on screen. */
  setVisible(fileIds: string[], currentFileId: string | null): void;
  /** A sequence plays (or is scrubbed): decode these frames ahead; null when playback stops (the frame ring is let go). */
  setPlayback(plan: PlaybackPlan | null): void;
  exportImages(request: ExportRequest): Promise<ExportResult>;
  /**
   * Reads an OpenColorIO config (`.ocio`, `.yaml`, or a `.ocioz` archive) and the LUT files it references, and puts it
   * first in the recent list. Which paths a page may name is the transport's to check: `$OCIO`, a recent config, a
   * file in a folder the user opened (or served); in Electron, no path shows the file picker (null when cancelled).
   */
  readColourConfig(path?: string): Promise<ColourConfigFiles | null>;
  /** A deep part's samples: one pixel's (the list) or every pixel's (the depth-range composite). Rejects a flat part. */
  deepSamples(request: DeepSamplesRequest): Promise<DeepSampleSet>;
  /** Level 0's statistics (and histogram) measured chunk by chunk on the host: an image too large to measure whole. */
  levelStatistics(request: LevelStatisticsRequest): Promise<LevelStatistics>;
  onEvent(listener: (event: HostEvent) => void): () => void;
}

/**
 * What a Node-side transport may use besides HostApi: decodeImage whose planes it passes on without copying, and
 * releases once sent, so that their memory can be reused when the image leaves the RAM cache.
 */
export interface PixelLease {
  decodeImageLease(request: DecodeRequest): Promise<{ image: DecodedImage; release(): void }>;
}

/** The error message prefix a cancelled request rejects with. */
export const CANCELLED_MESSAGE = 'cancelled';
