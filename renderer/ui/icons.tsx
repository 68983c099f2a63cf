// The toolbar's icons: small stroked SVG drawings (no icon font, no emoji: they render the same on every system).
import type { ReactElement } from 'react';

const PATHS = {
  folder: 'M1.5 4.5v8h13v-6.5h-6.5l-1.5-1.5z',
  target: 'M8 2.5a5.5 5.5 0 1 0 0 11a5.5 5.5 0 1 0 0-11zM8 6a2 2 0 1 0 0 4a2 2 0 1 0 0-4z',
  layers: 'M2 2.5h5v5h-5zM9 2.5h5v5h-5zM2 9.5h5v5h-5zM9 9.5h5v5h-5z',
  histogram: 'M2 14h12M3 13v-3M5.5 13v-6M8 13v-9M10.5 13v-5M13 13v-2',
  values: 'M2 3h12v10h-12zM2 8h12M8 3v10',
  export: 'M8 10v-8M5 5l3-3l3 3M3 9v5h10v-5',
  pulse: 'M1.5 8.5h3l1.5-4l3 8l1.5-4h4',
  help: 'M5.5 6a2.5 2.5 0 1 1 3.5 2.3c-.7.3-1 .8-1 1.5v.7M8 12.5v.5',
  sun: 'M8 5a3 3 0 1 0 0 6a3 3 0 1 0 0-6zM8 1v2M8 13v2M1 8h2M13 8h2M3 3l1.4 1.4M11.6 11.6l1.4 1.4M3 13l1.4-1.4M11.6 4.4l1.4-1.4',
  fit: 'M2 6v-4h4M10 2h4v4M14 10v4h-4M6 14h-4v-4',
  actual: 'M2 2.5h12v11h-12zM5 6h6v4h-6z',
  wipe: 'M2 2.5h12v11h-12zM8 1v14',
  flip: 'M2 5h10l-2.5-2.5M14 11h-10l2.5 2.5',
  search: 'M7 2.5a4.5 4.5 0 1 0 0 9a4.5 4.5 0 1 0 0-9zM10.3 10.3l3.7 3.7',
  warning: 'M8 1.8l6.5 11.7h-13zM8 6v3.6M8 11.6v.4',
  fullscreen: 'M1.5 5.5v-4h4M10.5 1.5h4v4M14.5 10.5v4h-4M5.5 14.5h-4v-4M5 5l-3-3M11 5l3-3M11 11l3 3M5 11l-3 3',
  panels: 'M1.5 2.5h13v11h-13zM5 2.5v11M11 2.5v11',
  hourglass: 'M4 1.5h8M4 14.5h8M5 1.5c0 4 6 4 6 6.5s-6 2.5-6 6.5M11 1.5c0 4-6 4-6 6.5s6 2.5 6 6.5',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, sizePx = 14 }: { name: IconName; sizePx?: number }): ReactElement {
  return (
    <svg className="icon" width={sizePx} height={sizePx} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
