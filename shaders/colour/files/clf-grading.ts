// CTF's Grading nodes (Primary, RGBCurve, Tone, HueCurve) → the fields of the config's Grading transforms (the YAML's keys).

/** A config transform as the YAML tree holds it (clf.ts's TransformNode, restated here so that the two modules form no cycle). */
interface TransformNode {
  $tag: string;
  $line: number;
  [key: string]: unknown;
}

type Fail = (reason: string) => never;

const children = (parent: Element): Element[] => {
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) if (n.nodeType === 1) out.push(n as Element);
  return out;
};

function numbers(text: string | null, what: string, fail: Fail): number[] {
  const values = (text ?? '').trim().split(/\s+/).filter(Boolean).map(Number);
  if (values.some((v) => !Number.isFinite(v))) fail(`${what} must be numbers`);
  return values;
}

/** CTF styles carry the direction: logRev, linearRev, videoRev. */
function styleAndDirection(el: Element): { style: string; direction: 'forward' | 'inverse' } {
  const style = el.getAttribute('style') ?? 'log';
  return style.endsWith('Rev') ? { style: style.slice(0, -3), direction: 'inverse' } : { style, direction: 'forward' };
}

const PRIMARY_RGBM: Record<string, string> = {
  Brightness: 'brightness',
  Contrast: 'contrast',
  Gamma: 'gamma',
  Offset: 'offset',
  Exposure: 'exposure',
  Lift: 'lift',
  Gain: 'gain',
};

function primaryFields(el: Element, fail: Fail): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const attr = (child: Element, name: string): number | undefined =>
    child.hasAttribute(name) ? numbers(child.getAttribute(name), `${child.tagName} ${name}`, fail)[0] : undefined;
  for (const child of children(el)) {
    const key = PRIMARY_RGBM[child.tagName];
    if (key) fields[key] = { rgb: numbers(child.getAttribute('rgb'), `${child.tagName} rgb`, fail), master: attr(child, 'master') };
    else if (child.tagName === 'Saturation') fields.saturation = attr(child, 'master');
    else if (child.tagName === 'Pivot')
      fields.pivot = { contrast: attr(child, 'contrast'), black: attr(child, 'black'), white: attr(child, 'white') };
    else if (child.tagName === 'Clamp') fields.clamp = { black: attr(child, 'black'), white: attr(child, 'white') };
    else if (child.tagName !== 'Description' && child.tagName !== 'DynamicParameter')
      fail(`<${child.tagName}> is not a GradingPrimary setting`);
  }
  return fields;
}

const RGB_CURVES: Record<string, string> = { Red: 'red', Green: 'green', Blue: 'blue', Master: 'master' };
const HUE_CURVES: Record<string, string> = {
  HueHue: 'hue_hue',
  HueSat: 'hue_sat',
  HueLum: 'hue_lum',
  LumSat: 'lum_sat',
  SatSat: 'sat_sat',
  LumLum: 'lum_lum',
  SatLum: 'sat_lum',
  HueFx: 'hue_fx',
};

/** The curves of a GradingRGBCurve or GradingHueCurve node: `names` maps each curve element to its YAML key. */
function curveFields(el: Element, names: Record<string, string>, fail: Fail): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const child of children(el)) {
    const key = names[child.tagName];
    if (!key) {
      if (child.tagName !== 'Description' && child.tagName !== 'DynamicParameter') fail(`<${child.tagName}> is not a ${el.tagName} curve`);
      continue;
    }
    const parts = children(child);
    const points = parts.find((p) => p.tagName === 'ControlPoints');
    const slopes = parts.find((p) => p.tagName === 'Slopes');
    if (!points) fail(`<${child.tagName}> needs <ControlPoints>`);
    fields[key] = {
      control_points: numbers(points!.textContent, `${child.tagName} control points`, fail),
      ...(slopes ? { slopes: numbers(slopes.textContent, `${child.tagName} slopes`, fail) } : {}),
    };
  }
  return fields;
}

const TONE_ZONES: Record<string, [key: string, start: string, width: string]> = {
  Blacks: ['blacks', 'start', 'width'],
  Shadows: ['shadows', 'start', 'pivot'],
  Midtones: ['midtones', 'center', 'width'],
  Highlights: ['highlights', 'start', 'pivot'],
  Whites: ['whites', 'start', 'width'],
};

function toneFields(el: Element, fail: Fail): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  const single = (child: Element, name: string): number => {
    if (!child.hasAttribute(name)) fail(`<${child.tagName}> needs a ${name} attribute`);
    const values = numbers(child.getAttribute(name), `${child.tagName} ${name}`, fail);
    return values.length === 1 ? values[0]! : fail(`<${child.tagName}> ${name} must be one number`);
  };
  for (const child of children(el)) {
    const zone = TONE_ZONES[child.tagName];
    if (zone) {
      const [key, start, width] = zone;
      const rgb = numbers(child.getAttribute('rgb'), `${child.tagName} rgb`, fail);
      if (rgb.length !== 3) fail(`<${child.tagName}> rgb must be 3 numbers`);
      fields[key] = { rgb, master: single(child, 'master'), [start]: single(child, start), [width]: single(child, width) };
    } else if (child.tagName === 'SContrast') fields.s_contrast = single(child, 'master');
    else if (child.tagName !== 'Description' && child.tagName !== 'DynamicParameter')
      fail(`<${child.tagName}> is not a GradingTone setting`);
  }
  return fields;
}

function nodeFields(el: Element, fail: Fail): Record<string, unknown> {
  switch (el.tagName) {
    case 'GradingPrimary':
      return primaryFields(el, fail);
    case 'GradingRGBCurve':
      return { lintolog_bypass: el.getAttribute('bypassLinToLog') === 'true', ...curveFields(el, RGB_CURVES, fail) };
    case 'GradingTone':
      return toneFields(el, fail);
    default: {
      const hsy = el.hasAttribute('hsyTransform') ? (el.getAttribute('hsyTransform') ?? '') : null;
      if (hsy !== null && hsy.toLowerCase() !== 'none') fail(`hsyTransform "${hsy}" is not "none"`);
      return { ...(hsy !== null ? { hsy_transform: 'none' } : {}), ...curveFields(el, HUE_CURVES, fail) };
    }
  }
}

/** The transform a Grading node asks the config path for, marked as from a CTF file (`$ctf`). */
export function gradingTransformNode(el: Element, line: number, fail: Fail): TransformNode {
  if (!el.hasAttribute('style') && el.tagName !== 'GradingPrimary' && el.tagName !== 'GradingRGBCurve')
    fail(`<${el.tagName}> needs a style attribute (log, linear or video, with Rev for the inverse)`);
  return { $tag: `${el.tagName}Transform`, $line: line, $ctf: true, ...styleAndDirection(el), ...nodeFields(el, fail) };
}
