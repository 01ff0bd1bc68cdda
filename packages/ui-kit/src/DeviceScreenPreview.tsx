import { useLayoutEffect, useRef, useState } from 'react';
import {
  fieldById,
  formatFieldValue,
  layoutTemplate,
  type DeviceProfile,
  type FieldKey,
  type LayoutPage,
  type UnitSettings,
} from '@xoss/data-fields';
import { useLocale, useT } from '@xoss/i18n/react';

/** Values a preview shows when the app passes none: a plausible moment of a ride. */
export const sampleValues: Readonly<Partial<Record<FieldKey, number>>> = {
  Speed: 8.9,
  MaxSpeed: 15.2,
  AvgMovingSpeed: 7.6,
  AvgSpeed: 7.1,
  MovingTime: 5025,
  TotalTime: 5460,
  PausedTime: 435,
  LapTime: 812,
  CurrentTime: 36_900,
  SunriseTime: 23_400,
  SunsetTime: 66_600,
  Distance: 38_420,
  LapDistance: 5_120,
  Odometer: 4_812_000,
  Elevation: 412,
  MaxElevation: 655,
  MinElevation: 88,
  Grade: 4.5,
  MaxGrade: 11.2,
  MinGrade: -9.8,
  ElevationGain: 742,
  ElevationLoss: 518,
  Heartrate: 148,
  MaxHR: 176,
  AvgHR: 139,
  MAX_HR: 80,
  LTHR: 91,
  Cadence: 88,
  MaxCadence: 121,
  AvgCadence: 84,
  Power: 231,
  MaxPower: 812,
  AvgPower: 196,
  AvgPower_3s: 238,
  AvgPower_10s: 226,
  AvgPower_30s: 214,
  FTP: 92,
  NP: 212,
  TSS: 96,
  IF: 0.85,
  Calories: 1130,
  Battery: 76,
  Temperature: 21,
};

export interface DeviceScreenPreviewProps {
  readonly profile: DeviceProfile;
  readonly page: LayoutPage;
  readonly settings: UnitSettings;
  readonly values?: Readonly<Partial<Record<FieldKey, number>>>;
  /** Width in CSS pixels; the height follows the device's screen proportions. */
  readonly width?: number;
  /** The slot to highlight (the one being edited). */
  readonly selectedSlot?: number;
  /** Makes slots clickable (layout editing: click a slot to change its field). */
  readonly onSlotClick?: (slot: number) => void;
}

const chartPath = (width: number, height: number) => {
  const points = Array.from({ length: 24 }, (_, index) => {
    const x = (index / 23) * width;
    const y = height * (0.55 - 0.3 * Math.sin(index / 3.2) - 0.1 * Math.cos(index / 1.3));
    return `${x.toFixed(1)},${y.toFixed(1)}`;
  });
  return `M${points.join(' L')}`;
};

/**
 * About how wide a string is in ems, in the preview's bold sans-serif: digits and most
 * letters up to 0.7 em (DejaVu Sans Bold, the widest usual fallback), separators (`:`, `.`,
 * `,`, space) 0.4 em, wide letters (m, w, %) 1 em. The first guess of a value's size; the
 * drawn text is then measured (TileValue).
 */
function textEms(text: string): number {
  let ems = 0;
  for (const char of text) {
    if (":.,;' !|".includes(char)) ems += 0.4;
    else if ('mwMW%'.includes(char)) ems += 1;
    else if (/[\p{Script=Han}\p{Script=Hangul}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(char))
      ems += 1.05;
    else ems += 0.7;
  }
  return ems;
}

/**
 * The value's font size in a tile `width` × `height` px: as big as the tile's height allows,
 * and no bigger than lets the value and its unit (drawn at 0.4 of it) fit its width
 * between the 6 px margins, so "1:23:45" stays inside a small tile of six.
 */
function valueFontSize(width: number, height: number, text: string, unit: string): number {
  const ems = textEms(text) + (unit ? 0.4 * textEms(` ${unit}`) : 0);
  const room = Math.max(1, width - 12);
  return Math.min(height * 0.42, width * 0.22, room / Math.max(ems, 1));
}

/**
 * How much to shrink an SVG text so it fits `room` px: where the browser measures text, the
 * drawn text is measured once laid out and shrunk until it fits, whatever the font.
 */
function useShrinkToFit(room: number) {
  const ref = useRef<SVGTextElement>(null);
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element || typeof element.getComputedTextLength !== 'function') return;
    const length = element.getComputedTextLength();
    // 2 % under the room: the next measure is then within it, and the effect stops.
    if (length > room + 0.5) setScale((current) => (current * room * 0.98) / length);
  }, [room, scale]);
  return [ref, scale] as const;
}

/**
 * A tile's name at its top left, at `size` or smaller where it would leave the tile ("Tiempo
 * en movimiento" in a G's half-width tile), as a device writes a long name smaller.
 */
function TileName({
  x,
  y,
  room,
  size,
  text,
}: {
  x: number;
  y: number;
  room: number;
  size: number;
  text: string;
}) {
  const [ref, scale] = useShrinkToFit(room);
  return (
    <text ref={ref} x={x} y={y} fontSize={size * scale} fill="var(--xoss-color-ink-muted)">
      {text}
    </text>
  );
}

/**
 * A tile's value, right-aligned at (`right`, `baseline`), its unit after it at 0.4 of its
 * size. Sized first by `valueFontSize`; where the browser measures text, the drawn value is
 * measured once laid out and shrunk until it fits `room` px, whatever the font.
 */
function TileValue({
  right,
  baseline,
  room,
  size,
  text,
  unit,
}: {
  right: number;
  baseline: number;
  room: number;
  size: number;
  text: string;
  unit: string;
}) {
  const [ref, scale] = useShrinkToFit(room);
  const fontSize = size * scale;
  return (
    <text
      ref={ref}
      x={right}
      y={baseline}
      fontSize={fontSize}
      fontWeight={700}
      textAnchor="end"
      fill="var(--xoss-device-ink)"
    >
      {text}
      <tspan fontSize={fontSize * 0.4} fontWeight={400}>
        {unit ? ` ${unit}` : ''}
      </tspan>
    </text>
  );
}

/**
 * One data page as the device draws it, at the device's screen proportions: every slot
 * of the page's layout with its field's name and a sample value in the rider's units.
 */
export function DeviceScreenPreview({
  profile,
  page,
  settings,
  values = sampleValues,
  width = 220,
  selectedSlot,
  onSlotClick,
}: DeviceScreenPreviewProps) {
  const t = useT();
  const locale = useLocale();
  const template = layoutTemplate(page.pid);
  const height = Math.round((width * profile.screen.height) / profile.screen.width);
  const label = t('layout.previewOf', { model: profile.name, page: page.index + 1 });
  return (
    <figure className="xoss-device xoss-root">
      <svg
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role={onSlotClick ? 'group' : 'img'}
        aria-label={label}
      >
        <rect width={width} height={height} fill="var(--xoss-device-paper)" />
        {template?.slots.map((slot, index) => {
          const field = fieldById(page.items[index] ?? -1);
          const x = slot.x * width;
          const y = slot.y * height;
          const w = slot.width * width;
          const h = slot.height * height;
          const name = field ? t(field.messageIds.name) : '—';
          const value =
            field && field.display === 'value'
              ? formatFieldValue(field, values[field.key] ?? Number.NaN, settings, locale)
              : undefined;
          const selected = index === selectedSlot;
          const big = value
            ? valueFontSize(w, h, value.text, value.unit)
            : Math.min(h * 0.42, w * 0.22);
          const content = (
            <>
              <rect
                x={x + 1}
                y={y + 1}
                width={w - 2}
                height={h - 2}
                fill={selected ? 'var(--xoss-device-tile-selected)' : 'var(--xoss-color-surface)'}
                stroke={selected ? 'var(--xoss-color-brand)' : 'var(--xoss-device-tile-line)'}
                strokeWidth={selected ? 2 : 1}
              />
              <TileName
                // A new name or tile is measured afresh.
                key={`${name} ${w} ${h}`}
                x={x + 6}
                y={y + 14}
                room={w - 12}
                size={Math.min(11, h * 0.22)}
                text={name}
              />
              {value ? (
                <TileValue
                  // A new value or tile is measured afresh.
                  key={`${value.text} ${value.unit} ${w} ${h}`}
                  right={x + w - 6}
                  baseline={y + h - 8}
                  room={w - 12}
                  size={big}
                  text={value.text}
                  unit={value.unit}
                />
              ) : field ? (
                <path
                  d={chartPath(w - 12, h - 24)}
                  transform={`translate(${x + 6} ${y + 20})`}
                  fill="none"
                  stroke="var(--xoss-color-brand)"
                  strokeWidth={2}
                />
              ) : null}
            </>
          );
          return onSlotClick ? (
            <g
              key={index}
              role="button"
              tabIndex={0}
              aria-label={`${index + 1}: ${name}`}
              aria-pressed={selected}
              onClick={() => onSlotClick(index)}
              onKeyDown={(event) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  onSlotClick(index);
                }
              }}
            >
              {content}
            </g>
          ) : (
            <g key={index}>{content}</g>
          );
        })}
      </svg>
    </figure>
  );
}
