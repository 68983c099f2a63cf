// CTF's GradingPrimary and GradingRGBCurve nodes → the fields of the config's Grading transforms (the same keys as the YAML).

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

function curveFields(el: Element, fail: Fail): Record<string, unknown> {
  const fields: Record<string, unknown> = { lintolog_bypass: el.getAttribute('bypassLinToLog') === 'true' };
  for (const child of children(el)) {
    const key = { Red: 'red', Green: 'green', Blue: 'blue', Master: 'master' }[child.tagName];
    if (!key) {
      if (child.tagName !== 'Description' && child.tagName !== 'DynamicParameter')
        fail(`<${child.tagName}> is not a GradingRGBCurve curve`);
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

/** The transform a Grading node asks the config path for; GradingTone and GradingHueCurve pass on their tag alone. */
export function gradingTransformNode(el: Element, line: number, fail: Fail): TransformNode {
  const $tag = `${el.tagName}Transform`;
  if (el.tagName !== 'GradingPrimary' && el.tagName !== 'GradingRGBCurve') return { $tag, $line: line };
  const fields = el.tagName === 'GradingPrimary' ? primaryFields(el, fail) : curveFields(el, fail);
  return { $tag, $line: line, ...styleAndDirection(el), ...fields };
}
