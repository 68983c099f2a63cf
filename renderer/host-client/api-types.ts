// The HostApi contract's types, re-exported for the renderer (type-only: nothing of the Node side reaches the bundle).
export type {
  HostApi,
  HostEvent,
  BoxTuple,
  DecodedImage,
  MissingRegions,
  DecodeRequest,
  DecodedPlane,
  Thumbnail,
  ThumbnailMissing,
  FileEntry,
  FileHeader,
  FolderInfo,
  HostInfo,
  LayerSummary,
  PartSummary,
  StageTimingsMs,
  ExportRequest,
  ExportResult,
  ViewTransform,
  SequenceInfo,
  SequenceFrame,
  PlaybackPlan,
} from '../../contract/host-api.js';
/** The message prefix of a cancelled request (a value in the contract; its type pins the literal). */
export type CancelledMessage = (typeof import('../../contract/host-api.js'))['CANCELLED_MESSAGE'];
