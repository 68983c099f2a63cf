// The engine's textures under one VRAM budget: planes and layers' MIP chains, one LRU entry each (`image#p:name`,
// `image#l:layer`). It says which planes a layer lacks, uploads those it is handed, and builds the layer from them;
// what is on screen (the shown layer, the reference, the planes being built from) is never evicted. Room is made before
// anything is allocated: what cannot fit the budget or the device's texture limit is refused with the reason, and a
// refusal of the GPU itself (out of memory, a limit) is caught by error scopes and said the same way.
import type { DecodedImage, DecodedPlane } from '../host-client/api-types.js';
import { mipChainBytes } from '../../shaders/tonemap-cpu.js';
import { GpuRefusedError, guardAllocation, megabytes } from './gpu-guard.js';
import { layerKey, planesOf, type LayerChoice } from '../model/layer-choice.js';
import { CachedTexture, GpuImage } from './gpu-image.js';
import { ByteLru, type CacheCounters } from './lru.js';
import type { GpuSession } from './gpu-session.js';
import { planeFormat, type UploadedPlane } from './plane-uploader.js';
import {
  imageKeyString,
  PlanesLackingError,
  type CompareCounters,
  type ImageKey,
  type OnScreen,
  type Shown,
  type ShowReport,
  type UploadFigures,
} from './engine-types.js';

export class TextureCache {
  private readonly lru: ByteLru<CachedTexture>;
  private readonly images = new Map<string, GpuImage>();
  /**
   * Layers on screen of a file written again: out of the cache (a show builds the new version) but still drawn until
   * the screen moves off them, so a refresh never blanks the preview; destroyed then (settleRetired).
   */
  private retired: GPUTexture[] = [];
  lastUpload: UploadFigures = { path: '', bytes: 0, callMs: NaN, cpuCopyMs: NaN, waitMs: NaN, wallMs: NaN, GBps: NaN, submits: 0 };
  imageUploads = 0;
  imageUploadBytes = 0;
  /** Images handed over with planes the GPU lacked. */
  sourceLoads = 0;

  constructor(
    budgetBytes: number,
    private readonly screen: OnScreen,
    private readonly counters: CompareCounters,
  ) {
    this.lru = new ByteLru<CachedTexture>(budgetBytes);
  }

  /** The planes of `choice` the GPU would need handed over to show it: none while its layer is cached. */
  lacks(key: ImageKey, choice: LayerChoice): string[] {
    const keyString = imageKeyString(key);
    const image = this.images.get(keyString);
    if (image?.layers.has(layerKey(choice)) && this.lru.peek(`${keyString}#l:${layerKey(choice)}`)) return [];
    return image ? image.missing(planesOf(choice)) : planesOf(choice);
  }

  /**
   * The layer from the cache, else built from the planes held and those in `fetched` (uploaded first). Throws
   * PlanesLackingError when a plane is neither, GpuRefusedError when the GPU cannot hold it (saying why); null when
   * the session's device was lost under the upload. `replacesCurrent`: the layer on screen may be evicted to make room.
   */
  async obtain(
    session: GpuSession,
    key: ImageKey,
    choice: LayerChoice,
    fetched: DecodedImage | null,
    report: ShowReport,
    replacesCurrent = false,
  ): Promise<Shown | null> {
    const keyString = imageKeyString(key);
    const layerEntry = `${keyString}#l:${layerKey(choice)}`;
    const needed = planesOf(choice);
    let image = this.images.get(keyString);
    // planes of another size (a level reduced otherwise: the finer level refining a small first one) cannot be
    // assembled with these: the image starts again, its layer on screen drawn until the new one replaces it
    if (image && fetched && (fetched.widthPx !== image.widthPx || fetched.heightPx !== image.heightPx)) {
      this.retireOnScreen((s) => s.keyString === keyString);
      this.forgetImage(keyString);
      image = undefined;
    }
    const cached = image && this.lru.get(layerEntry) ? image.layers.get(layerKey(choice)) : undefined;
    if (cached) return { key, keyString, choice, image: image!, layer: cached };
    const missing = image ? image.missing(needed) : needed;
    const planes = fetched?.planes.filter((p) => missing.includes(p.name)) ?? [];
    if (planes.length < missing.length) throw new PlanesLackingError(missing.filter((n) => !planes.some((p) => p.name === n)));
    this.makeRoom(session, image ?? fetched!, planes, keyString, layerEntry, needed, replacesCurrent);
    if (missing.length > 0) {
      const uploaded = await this.upload(session, keyString, layerEntry, needed, fetched!, planes, report);
      if (!uploaded) return null;
      image = uploaded;
    }
    // the planes this layer reads are in use again
    for (const name of needed) this.lru.get(`${keyString}#p:${name}`);
    const built = image!;
    const layer = await guardAllocation(
      session.device,
      `the ${built.widthPx}×${built.heightPx} px layer (${megabytes(mipChainBytes(built.widthPx, built.heightPx))})`,
      () => built.buildLayer(session.kit, session.dummies, choice, session.mipTimer),
      (made) => {
        made.texture.destroy();
        built.layers.delete(layerKey(choice));
      },
    );
    const forget = () =>
      this.forgetTexture(keyString, (img) => {
        img.layers.delete(layerKey(choice));
        // never drawn from a destroyed texture: the screen shows nothing until the next show
        if (this.screen.current?.layer === layer) this.screen.current = null;
      });
    this.lru.set(layerEntry, new CachedTexture(layer.texture, layer.bytes, forget), this.onScreen(keyString, layerEntry, needed));
    report.layerBuilt = true;
    return { key, keyString, choice, image: image!, layer };
  }

  private async upload(
    session: GpuSession,
    keyString: string,
    layerEntry: string,
    needed: readonly string[],
    fetched: DecodedImage,
    planes: DecodedPlane[],
    report: ShowReport,
  ): Promise<GpuImage | null> {
    this.sourceLoads++;
    this.counters.loaded();
    const tUp = performance.now();
    const bytes = planes.reduce((sum, p) => sum + planeBytes(p), 0);
    const up = await guardAllocation(
      session.device,
      `${planes.length} plane${planes.length === 1 ? '' : 's'} of ${fetched.widthPx}×${fetched.heightPx} px (${megabytes(bytes)})`,
      () => session.uploader.uploadImage(planes),
      (made) => made.planes.forEach((p) => p.texture.destroy()),
    );
    if (session.lost) {
      for (const p of up.planes) p.texture.destroy();
      return null;
    }
    const image = this.images.get(keyString) ?? new GpuImage(fetched);
    this.images.set(keyString, image);
    // the planes this layer is about to be built from stay, whatever the budget
    const keep = this.onScreen(keyString, layerEntry, needed);
    for (const p of up.planes) this.cachePlane(keyString, image, p, keep);
    this.imageUploads += up.planes.length;
    this.imageUploadBytes += up.bytes;
    this.counters.loaded();
    const path = session.uploader.path;
    Object.assign(report, {
      source: 'uploaded',
      planesUploaded: up.planes.map((p) => p.name),
      uploadBytes: up.bytes,
      uploadPath: path,
      uploadCallMs: up.callMs,
      uploadCpuCopyMs: up.cpuCopyMs,
      uploadWaitMs: up.waitMs,
    });
    const figures: UploadFigures = {
      path,
      bytes: up.bytes,
      callMs: up.callMs,
      cpuCopyMs: up.cpuCopyMs,
      waitMs: up.waitMs,
      wallMs: NaN,
      GBps: NaN,
      submits: up.submits,
    };
    this.lastUpload = figures;
    // asked before the layer build is submitted: resolves when the copies (and earlier work) are done, not the build
    void session.device.queue.onSubmittedWorkDone().then(() => {
      report.uploadWallMs = figures.wallMs = performance.now() - tUp;
      report.uploadGBps = figures.GBps = up.bytes / 1e9 / (figures.wallMs / 1e3);
    });
    return image;
  }

  private cachePlane(keyString: string, image: GpuImage, plane: UploadedPlane, keep: ReadonlySet<string>): void {
    image.planes.set(plane.name, plane);
    const forget = () => this.forgetTexture(keyString, (img) => img.planes.delete(plane.name));
    this.lru.set(`${keyString}#p:${plane.name}`, new CachedTexture(plane.texture, plane.bytes, forget), keep);
  }

  /**
   * Evicts what is not on screen until the planes and the layer `image` needs fit the budget; refuses, saying why,
   * what is over the device's texture limit or cannot fit even then.
   */
  private makeRoom(
    session: GpuSession,
    image: { widthPx: number; heightPx: number },
    planes: readonly DecodedPlane[],
    keyString: string,
    layerEntry: string,
    needed: readonly string[],
    replacesCurrent: boolean,
  ): void {
    const { widthPx, heightPx } = image;
    const limitPx = session.device.limits.maxTextureDimension2D;
    const size = `${widthPx}×${heightPx} px`;
    if (widthPx > limitPx || heightPx > limitPx)
      throw new GpuRefusedError(`${size} is over this GPU's largest texture (${limitPx} px a side), and no reduced level was asked for`);
    const bytes = mipChainBytes(widthPx, heightPx) + planes.reduce((sum, p) => sum + planeBytes(p), 0);
    const keep = this.onScreen(keyString, layerEntry, needed);
    const current = this.screen.current;
    if (replacesCurrent && current && current.keyString !== this.screen.reference?.keyString)
      keep.delete(`${current.keyString}#l:${layerKey(current.choice)}`);
    if (this.lru.makeRoom(bytes, keep)) return;
    const held = this.lru.bytesOf(keep);
    throw new GpuRefusedError(
      `${size} needs ${megabytes(bytes)} of GPU memory, over the GPU cache's budget of ${megabytes(this.lru.budgetBytes)}` +
        (held > 0 ? ` (${megabytes(held)} of it holds what is on screen and the compare reference)` : ''),
    );
  }

  /** Every texture of one image goes (its planes are to be replaced by planes of another size). */
  private forgetImage(keyString: string): void {
    for (const k of this.lru.keys()) if (k.startsWith(`${keyString}#`)) this.lru.delete(k);
    this.images.delete(keyString);
  }

  /** An evicted texture leaves its image; an image with no textures left is forgotten. */
  private forgetTexture(keyString: string, remove: (image: GpuImage) => void): void {
    const image = this.images.get(keyString);
    if (!image) return;
    remove(image);
    if (image.empty && !this.isOnScreen(keyString)) this.images.delete(keyString);
  }

  private isOnScreen(keyString: string): boolean {
    return this.screen.current?.keyString === keyString || this.screen.reference?.keyString === keyString;
  }

  /** Cache entries the screen uses now, and the reference's layer: never evicted. */
  private onScreen(keyString: string, layerEntry: string, planes: readonly string[]): Set<string> {
    const keep = new Set([layerEntry, ...planes.map((n) => `${keyString}#p:${n}`)]);
    for (const s of [this.screen.current, this.screen.reference]) if (s) keep.add(`${s.keyString}#l:${layerKey(s.choice)}`);
    return keep;
  }

  /** Whether the image has a layer on the GPU (no counting, no reordering). */
  isCached(key: ImageKey): boolean {
    const image = this.images.get(imageKeyString(key));
    return !!image && image.layers.size > 0;
  }

  /** Whether a layer's MIP chain is in the cache now (no counting). */
  holds(s: Shown): boolean {
    return !!this.lru.peek(`${s.keyString}#l:${layerKey(s.choice)}`);
  }

  /**
   * A crop of an image's planes rewritten in place and its layer assembled again (a live image's updated tiles: see
   * GpuImage.patchLayer). False when the layer or a plane it reads is not cached: the caller shows the image again.
   */
  patch(session: GpuSession, key: ImageKey, choice: LayerChoice, patch: DecodedImage): boolean {
    const keyString = imageKeyString(key);
    const image = this.images.get(keyString);
    if (!image || session.lost || !this.lru.peek(`${keyString}#l:${layerKey(choice)}`)) return false;
    return image.patchLayer(session.kit, session.dummies, choice, patch);
  }

  /** The file changed on disk: its textures go (a show uploads it again; the layers on screen stay drawn until then). */
  forgetFile(fileId: string): void {
    this.retireOnScreen((s) => s.key.fileId === fileId);
    for (const k of this.lru.keys()) if (k.startsWith(`${fileId}#`)) this.lru.delete(k);
    for (const k of [...this.images.keys()]) if (k.startsWith(`${fileId}#`) && !this.isOnScreen(k)) this.images.delete(k);
  }

  /** The layers on screen that `which` names leave the cache, still drawn until the screen changes (settleRetired). */
  private retireOnScreen(which: (s: Shown) => boolean): void {
    for (const s of [this.screen.current, this.screen.reference])
      if (s && which(s) && this.lru.take(`${s.keyString}#l:${layerKey(s.choice)}`)) {
        s.image.layers.delete(layerKey(s.choice));
        this.retired.push(s.layer.texture);
      }
  }

  get budgetBytes(): number {
    return this.lru.budgetBytes;
  }

  setBudget(bytes: number): void {
    this.lru.budgetBytes = bytes;
    const cur = this.screen.current;
    this.lru.trim(cur ? this.onScreen(cur.keyString, `${cur.keyString}#l:${layerKey(cur.choice)}`, planesOf(cur.choice)) : undefined);
  }

  counts(): { cache: CacheCounters; cachedPlanes: number; cachedLayers: number } {
    const keys = this.lru.keys();
    return {
      cache: this.lru.counters(),
      cachedPlanes: keys.filter((k) => k.includes('#p:')).length,
      cachedLayers: keys.filter((k) => k.includes('#l:')).length,
    };
  }

  /** Every texture died with the device: forget them without destroying. */
  /** The screen changed: the retired layers it no longer shows are destroyed. */
  settleRetired(): void {
    const drawn = [this.screen.current?.layer.texture, this.screen.reference?.layer.texture];
    for (const t of this.retired) if (!drawn.includes(t)) t.destroy();
    this.retired = this.retired.filter((t) => drawn.includes(t));
  }

  forgetAll(): void {
    this.lru.forgetAll();
    this.images.clear();
    this.retired = [];
  }

  clear(): void {
    this.lru.clear();
    this.images.clear();
    for (const t of this.retired) t.destroy();
    this.retired = [];
  }
}

const planeBytes = (p: DecodedPlane): number => p.widthSamples * p.heightSamples * planeFormat(p.pixelType).bytes;
