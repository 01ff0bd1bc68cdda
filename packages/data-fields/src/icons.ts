import type { Category } from './categories.ts';

/** Which of a field's two icons: normal, or the light one drawn on a selected tile. */
export type IconVariant = 'normal' | 'selected';

/** The viewBox of every field icon (spec 9: 36 by 36). */
export const ICON_VIEWBOX = '0 0 36 36';

const INK: Readonly<Record<IconVariant, string>> = { normal: '#1d2730', selected: '#ffffff' };

// One glyph per category, drawn as strokes on a 36 x 36 grid.
const categoryGlyphs: Readonly<Record<Category, string>> = {
  Speed: '<path d="M7 25a11 11 0 1 1 22 0"/><path d="M18 25l6-7"/>',
  Chart: '<path d="M6 29h24"/><path d="M7 25l6-7 5 4 6-9 5 5"/>',
  Time: '<circle cx="18" cy="19" r="11"/><path d="M18 12v7l5 3"/>',
  General: '<circle cx="18" cy="18" r="11"/><path d="M18 16v8M18 12v.5"/>',
  Distance:
    '<path d="M18 31s-8-8-8-14a8 8 0 0 1 16 0c0 6-8 14-8 14z"/><circle cx="18" cy="17" r="3"/>',
  Elevation: '<path d="M4 29l10-14 6 8 4-5 8 11z"/>',
  HeartRate: '<path d="M18 29s-11-7-11-14a6 6 0 0 1 11-3 6 6 0 0 1 11 3c0 7-11 14-11 14z"/>',
  Cadence: '<circle cx="18" cy="18" r="10"/><circle cx="18" cy="18" r="2"/><path d="M18 18l7 7"/>',
  Power: '<path d="M20 5L9 20h8l-2 11 11-15h-8z"/>',
  Weather: '<path d="M15 22V8a3 3 0 0 1 6 0v14a5 5 0 1 1-6 0z"/><path d="M18 14v10"/>',
};

// Fields whose meaning a category glyph would hide get their own.
const fieldGlyphs: Readonly<Record<string, string>> = {
  Calories:
    '<path d="M18 31c-6 0-9-4-9-8 0-6 6-8 6-14 4 2 7 6 7 10 1-1 2-3 2-5 3 3 4 6 4 9 0 4-4 8-10 8z"/>',
  NavigationInstruction: '<path d="M11 29V17a4 4 0 0 1 4-4h11"/><path d="M21 8l5 5-5 5"/>',
  Battery:
    '<rect x="6" y="12" width="22" height="13" rx="2"/><path d="M30 16v5"/><path d="M10 16v5M14 16v5"/>',
  SunriseTime:
    '<path d="M6 27h24"/><path d="M10 27a8 8 0 0 1 16 0"/><path d="M18 6v6M15 9l3-3 3 3"/>',
  SunsetTime:
    '<path d="M6 27h24"/><path d="M10 27a8 8 0 0 1 16 0"/><path d="M18 6v6M15 9l3 3 3-3"/>',
  Grade: '<path d="M5 29h26L31 13z"/>',
  Odometer:
    '<rect x="5" y="11" width="26" height="14" rx="2"/><path d="M12 11v14M19 11v14M26 11v14"/>',
};

// A small badge tells variants of one glyph apart (MAX speed, AVG power, 3 s power, ...).
const badges: Readonly<Record<string, string>> = {
  MaxSpeed: 'MAX',
  AvgMovingSpeed: 'AVG',
  AvgSpeed: 'AVG',
  MaxElevation: 'MAX',
  MinElevation: 'MIN',
  ElevationGain: '+',
  ElevationLoss: '−',
  MaxGrade: 'MAX',
  MinGrade: 'MIN',
  MaxHR: 'MAX',
  AvgHR: 'AVG',
  MAX_HR: '%',
  LTHR: 'LT',
  MaxCadence: 'MAX',
  AvgCadence: 'AVG',
  MaxPower: 'MAX',
  AvgPower: 'AVG',
  AvgPower_3s: '3s',
  AvgPower_10s: '10s',
  AvgPower_30s: '30s',
  FTP: '%',
  NP: 'NP',
  TSS: 'TSS',
  IF: 'IF',
  LapTime: 'LAP',
  LapDistance: 'LAP',
  PausedTime: 'II',
  TotalTime: 'Σ',
  SpeedLineChart: 'km/h',
  ElevationLineChart: 'm',
  HeartrateLineChart: '♥',
  PowerLineChart: 'W',
};

/**
 * The SVG icon of a field: a stroked glyph (the field's own, else its category's) and an
 * optional badge, dark for normal tiles and light for selected ones.
 */
export function fieldIcon(key: string, category: Category, variant: IconVariant): string {
  const ink = INK[variant];
  const glyph = fieldGlyphs[key] ?? categoryGlyphs[category];
  const badge = badges[key];
  const badgeSvg =
    badge === undefined
      ? ''
      : `<text x="35" y="8" fill="${ink}" stroke="none" font-family="sans-serif" font-size="7" font-weight="700" text-anchor="end">${badge}</text>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${ICON_VIEWBOX}" width="36" height="36" role="img">` +
    `<g fill="none" stroke="${ink}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${glyph}${badgeSvg}</g></svg>`
  );
}
