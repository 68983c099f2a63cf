// The Environment view: three.js (WebGPURenderer on the app's own GPUDevice, loaded on first use) showing an
// environment map as a panorama from inside, or lighting look-dev balls (chrome, grey diffuse, a shadow plane) through
// its prefiltered environment (PMREM), in the view's exposure and tone-map. Imperative, outside React.
import type { DisplayParams, DisplayTransform } from '../../shaders/display-params.js';
import type { EnvKind } from './env-kind.js';
import { makeLatLongTexture } from './env-texture.js';

type Three = typeof import('three/webgpu');
export type EnvMode = 'panorama' | 'balls';

/** Look direction and lens, changed per pointer move: kept here, never in React state. */
export interface EnvCamera {
  yawDeg: number;
  pitchDeg: number;
  fovDeg: number;
}

export interface EnvFrameStats {
  frames: number;
  lastFrameMs: number;
  medianFrameMs: number;
}

const MIN_FOV_DEG = 10;
const MAX_FOV_DEG = 120;

export class EnvView {
  private readonly scene: InstanceType<Three['Scene']>;
  private readonly balls: InstanceType<Three['Group']>;
  private readonly shadowPlane: InstanceType<Three['Mesh']>;
  private readonly camera: InstanceType<Three['PerspectiveCamera']>;
  private envTexture: InstanceType<Three['ExternalTexture']> | null = null;
  private envGpu: GPUTexture | null = null;
  private sourceKey = '';
  private mode: EnvMode = 'panorama';
  private exposureScale = 1;
  private view: EnvCamera = { yawDeg: 0, pitchDeg: 0, fovDeg: 75 };
  private pending = false;
  private disposed = false;
  private readonly frameMs: number[] = [];
  onFrame: (() => void) | null = null;

  private constructor(
    private readonly three: Three,
    private readonly renderer: InstanceType<Three['WebGPURenderer']>,
    private readonly device: GPUDevice,
  ) {
    const T = three;
    this.scene = new T.Scene();
    this.camera = new T.PerspectiveCamera(75, 1, 0.05, 100);
    // the studio: a chrome ball and an 18 % grey diffuse ball side by side, a plane under them that only takes shadows
    this.balls = new T.Group();
    const sphere = new T.SphereGeometry(0.5, 96, 48);
    const chrome = new T.Mesh(sphere, new T.MeshStandardNodeMaterial({ color: 0xffffff, metalness: 1, roughness: 0 }));
    chrome.position.set(-0.6, 0, 0);
    const grey = new T.Mesh(
      sphere,
      new T.MeshStandardNodeMaterial({ color: new T.Color().setRGB(0.18, 0.18, 0.18, T.LinearSRGBColorSpace), metalness: 0, roughness: 1 }),
    );
    grey.position.set(0.6, 0, 0);
    chrome.castShadow = grey.castShadow = true;
    this.shadowPlane = new T.Mesh(new T.PlaneGeometry(4, 4), new T.ShadowNodeMaterial({ opacity: 0.5 }));
    this.shadowPlane.rotation.x = -Math.PI / 2;
    this.shadowPlane.position.y = -0.5;
    this.shadowPlane.receiveShadow = true;
    // environment light casts no shadows: a key light from above gives the plane its contact shadow
    const key = new T.DirectionalLight(0xffffff, 0);
    key.position.set(0.5, 3, 1);
    key.castShadow = true;
    key.shadow.mapSize.set(1024, 1024);
    this.balls.add(chrome, grey, this.shadowPlane, key);
    this.scene.add(this.balls);
  }

  /** Loads three.js (a separate chunk: the 2D viewer never loads it) and starts its renderer on `device`. */
  static async create(device: GPUDevice, canvas: HTMLCanvasElement): Promise<EnvView> {
    const three = await import('three/webgpu');
    const renderer = new three.WebGPURenderer({ canvas, device, antialias: false, alpha: false } as ConstructorParameters<
      Three['WebGPURenderer']
    >[0]);
    await renderer.init();
    renderer.shadowMap.enabled = true;
    renderer.outputColorSpace = three.SRGBColorSpace;
    return new EnvView(three, renderer, device);
  }

  /** The environment from the engine's cached layer `texture` (converted on the GPU when its key changes). */
  setSource(key: string, texture: GPUTexture, kind: EnvKind, widthPx: number, heightPx: number): void {
    if (key === this.sourceKey) return;
    this.sourceKey = key;
    const gpu = makeLatLongTexture(this.device, texture, kind, widthPx, heightPx);
    const T = this.three;
    const tex = new T.ExternalTexture(gpu);
    // PMREM sizes itself from image.width and waits for image.height > 0: an external texture has no image of its own
    (tex as unknown as { image: { width: number; height: number } }).image = { width: gpu.width, height: gpu.height };
    tex.mapping = T.EquirectangularReflectionMapping;
    tex.colorSpace = T.LinearSRGBColorSpace;
    tex.type = T.HalfFloatType;
    tex.format = T.RGBAFormat;
    tex.generateMipmaps = false;
    tex.minFilter = T.LinearFilter;
    tex.magFilter = T.LinearFilter;
    this.envTexture?.dispose();
    this.envGpu?.destroy();
    this.envTexture = tex;
    this.envGpu = gpu;
    this.applyMode();
    this.requestRender();
  }

  setMode(mode: EnvMode, shadowPlane: boolean): void {
    this.mode = mode;
    this.shadowPlane.visible = shadowPlane;
    this.applyMode();
    this.requestRender();
  }

  /** Exposure and tone-map shared with the 2D view (three's nearest operator for each of the viewer's transforms). */
  setDisplay(p: DisplayParams): void {
    const T = this.three;
    const ops: Record<DisplayTransform, number> = {
      linear: T.NoToneMapping,
      srgb: T.NoToneMapping,
      rec709: T.NoToneMapping,
      aces: T.ACESFilmicToneMapping,
      agx: T.AgXToneMapping,
      'pbr-neutral': T.NeutralToneMapping,
      reinhard: T.ReinhardToneMapping,
    };
    this.renderer.toneMapping = ops[p.transform] as typeof this.renderer.toneMapping;
    // three applies toneMappingExposure only inside a tone-map operator; the 2D view exposes before any transform, so
    // exposure scales every light in the scene instead (environment, background, studio backdrop, key light)
    this.exposureScale = Math.pow(2, p.exposureEv);
    this.applyMode();
    this.requestRender();
  }

  get camera3(): Readonly<EnvCamera> {
    return this.view;
  }

  /** Drag: degrees of yaw and pitch (pitch held short of the poles). */
  look(dYawDeg: number, dPitchDeg: number): void {
    this.view = {
      ...this.view,
      yawDeg: (this.view.yawDeg + dYawDeg) % 360,
      pitchDeg: Math.max(-89, Math.min(89, this.view.pitchDeg + dPitchDeg)),
    };
    this.requestRender();
  }

  /** Wheel: field of view, clamped. */
  zoom(factor: number): void {
    this.view = { ...this.view, fovDeg: Math.max(MIN_FOV_DEG, Math.min(MAX_FOV_DEG, this.view.fovDeg * factor)) };
    this.requestRender();
  }

  setSize(widthPx: number, heightPx: number): void {
    this.renderer.setSize(widthPx, heightPx, false);
    this.camera.aspect = widthPx / Math.max(1, heightPx);
    this.requestRender();
  }

  stats(): EnvFrameStats {
    const s = [...this.frameMs].sort((a, b) => a - b);
    return { frames: this.frameMs.length, lastFrameMs: this.frameMs.at(-1) ?? NaN, medianFrameMs: s[Math.floor(s.length / 2)] ?? NaN };
  }

  /** Renders now and resolves when the GPU finished: the frame time the stats keep (wall, submit to done). */
  async renderNow(): Promise<number> {
    const t0 = performance.now();
    this.placeCamera();
    await this.renderer.renderAsync(this.scene, this.camera);
    await this.device.queue.onSubmittedWorkDone();
    const ms = performance.now() - t0;
    this.frameMs.push(ms);
    if (this.frameMs.length > 240) this.frameMs.shift();
    this.onFrame?.();
    return ms;
  }

  private requestRender(): void {
    if (this.pending || this.disposed) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      if (!this.disposed && this.envTexture) void this.renderNow();
    });
  }

  private applyMode(): void {
    const T = this.three;
    const s = this.exposureScale;
    this.scene.environmentIntensity = s;
    this.scene.backgroundIntensity = s;
    (this.balls.children[3] as InstanceType<Three['DirectionalLight']>).intensity = this.shadowPlane.visible ? 0.6 * s : 0;
    if (this.mode === 'panorama') {
      this.scene.background = this.envTexture;
      this.scene.environment = null;
      this.balls.visible = false;
    } else {
      // a neutral studio: mid-grey backdrop, the image only as light
      this.scene.background = new T.Color().setRGB(0.18 * s, 0.18 * s, 0.18 * s, T.LinearSRGBColorSpace);
      this.scene.environment = this.envTexture;
      this.balls.visible = true;
    }
  }

  private placeCamera(): void {
    const yaw = (this.view.yawDeg * Math.PI) / 180,
      pitch = (this.view.pitchDeg * Math.PI) / 180;
    this.camera.fov = this.view.fovDeg;
    if (this.mode === 'panorama') {
      // yaw 0 faces the middle column of the map (three's equirect puts it at +X; -Z is a quarter of the way across)
      const y = yaw + Math.PI / 2;
      this.camera.position.set(0, 0, 0);
      this.camera.lookAt(Math.sin(y) * Math.cos(pitch), Math.sin(pitch), -Math.cos(y) * Math.cos(pitch));
    } else {
      // orbit the balls at a fixed distance; dragging turns the studio around them
      const r = 3.2;
      this.camera.position.set(Math.sin(yaw) * Math.cos(pitch) * r, 0.35 + Math.sin(pitch) * r, Math.cos(yaw) * Math.cos(pitch) * r);
      this.camera.lookAt(0, 0, 0);
    }
    this.camera.updateProjectionMatrix();
  }

  dispose(): void {
    this.disposed = true;
    this.envTexture?.dispose();
    this.envGpu?.destroy();
    // three's renderer frees its own pipelines, buffers and textures; given the device, it leaves the device (the
    // app's) alone, and an ExternalTexture's GPU texture is ours (destroyed above)
    void this.renderer.dispose();
  }
}
