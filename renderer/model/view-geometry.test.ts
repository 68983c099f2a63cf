// Pan/zoom math: fit, zoom about a point, canvas ↔ image mapping and the packed shader geometry.
import { describe, expect, it } from 'vitest';
import { canvasToImage, emptyGeometry, fitArea, fitView, panBy, previewGeometry, zoomAt } from './view-geometry.js';

describe('view geometry', () => {
  it('fits the display window and maps the canvas centre to its centre', () => {
    const v = fitView([0, 0, 1919, 1079], [0, 0, 1919, 1079], 960, 540);
    expect(v.zoom).toBeCloseTo(0.5);
    expect(canvasToImage(v, 480, 270, 960, 540)).toEqual([960, 540]);
  });

  it('keeps the point under the cursor when zooming, and pans in canvas px', () => {
    const v = { zoom: 1, centerX: 100, centerY: 100 };
    const z = zoomAt(v, 4, 10, 20, 200, 200);
    expect(canvasToImage(z, 10, 20, 200, 200)).toEqual(canvasToImage(v, 10, 20, 200, 200));
    expect(panBy(v, 10, -20)).toEqual({ zoom: 1, centerX: 90, centerY: 120 });
  });

  it('packs the data window origin, texel scale and display window for the shader', () => {
    const g = emptyGeometry();
    previewGeometry(g, { zoom: 2, centerX: 50, centerY: 50 }, [10, 20, 109, 79], [0, 0, 99, 99], 7, 400, 300, 0.1);
    expect([g.originXPx, g.originYPx, g.texelsPerPx, g.widthPx, g.heightPx]).toEqual([200 - 80, 150 - 60, 0.5, 100, 60]);
    expect([g.displayMinX, g.displayMinY, g.displayMaxX, g.displayMaxY]).toEqual([-10, -20, 90, 80]);
  });

  it('side by side fits each image whole into its half', () => {
    const area = fitArea(1000, 400, true);
    expect(area).toEqual({ widthPx: 500, heightPx: 400 });
    const v = fitView([0, 0, 999, 399], [0, 0, 999, 399], area.widthPx, area.heightPx);
    // A's left and right edges land inside the left half (A is drawn centred in its half)
    const left = 250 + (0 - v.centerX) * v.zoom,
      right = 250 + (1000 - v.centerX) * v.zoom;
    expect([left, right]).toEqual([0, 500]);
    expect(fitArea(1000, 400, false)).toEqual({ widthPx: 1000, heightPx: 400 });
  });
});
