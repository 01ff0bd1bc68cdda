import type { MessageId } from '@xoss/i18n';
import { useLocale, useT } from '@xoss/i18n/react';
import { formatClock } from './format.ts';

/**
 * One bar: a zone as the API sends it (api-contract's `zoneSchema`; workout-stats'
 * `ZoneTime` is the same zone before it travels, with `Infinity` where this has `null`).
 */
export interface ZoneBar {
  /** 1-based zone number. */
  readonly zone: number;
  /** Lower bound in percent of max HR or FTP; upper bound, or null for the top zone. */
  readonly low: number;
  readonly high: number | null;
  readonly seconds: number;
}

export interface ZoneBarsProps {
  /** Heart-rate zones Z1-Z5 or power zones Z1-Z7 (spec 3). */
  readonly kind: 'hr' | 'power';
  readonly zones: readonly ZoneBar[];
  /** Max HR or FTP, to show each zone's range in bpm or W. */
  readonly reference?: number | null;
}

// The catalogue's zone names: 5 heart-rate and 7 power zones.
const ZONE_NAMES = {
  hr: ['zones.hr.1', 'zones.hr.2', 'zones.hr.3', 'zones.hr.4', 'zones.hr.5'],
  power: [
    'zones.power.1',
    'zones.power.2',
    'zones.power.3',
    'zones.power.4',
    'zones.power.5',
    'zones.power.6',
    'zones.power.7',
  ],
} as const satisfies Record<'hr' | 'power', readonly MessageId[]>;

/**
 * Time in zone as horizontal bars: zone number and name (spec 3's names, translated),
 * its range, the time and its share of the total. A real table underneath, so screen
 * readers get rows and columns.
 */
export function ZoneBars({ kind, zones, reference }: ZoneBarsProps) {
  const t = useT();
  const locale = useLocale();
  const total = zones.reduce((sum, zone) => sum + zone.seconds, 0) || 1;
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const unit = kind === 'hr' ? 'bpm' : 'W';
  const bound = (value: number) =>
    reference ? `${Math.round((value / 100) * reference)}` : `${value}%`;
  return (
    <table className="xoss-zones xoss-table xoss-root" data-stack>
      <caption>{t(kind === 'hr' ? 'workouts.hrZones' : 'workouts.powerZones')}</caption>
      <thead>
        <tr>
          <th scope="col">{t('workouts.zone')}</th>
          <th scope="col">{t('workouts.zoneRange')}</th>
          <th scope="col">{t('workouts.timeInZone')}</th>
        </tr>
      </thead>
      <tbody>
        {zones.map((zone) => {
          const share = zone.seconds / total;
          return (
            <tr key={zone.zone} data-zone={zone.zone}>
              <th scope="row">
                {t('zones.zone', { zone: zone.zone })}{' '}
                {t(ZONE_NAMES[kind][zone.zone - 1] ?? 'zones.zone', { zone: zone.zone })}
              </th>
              <td data-label={t('workouts.zoneRange')}>
                {zone.high === null
                  ? `> ${bound(zone.low)}`
                  : `${bound(zone.low)}–${bound(zone.high)}`}
                {reference ? ` ${unit}` : ''}
              </td>
              <td data-label={t('workouts.timeInZone')}>
                <span className="xoss-zones__bar" data-zone={zone.zone}>
                  <svg
                    width="100%"
                    height="10"
                    aria-hidden="true"
                    preserveAspectRatio="none"
                    viewBox="0 0 100 10"
                  >
                    <rect
                      width={Math.max(0.5, share * 100)}
                      height="10"
                      className={`xoss-zone-fill-${zone.zone}`}
                    />
                  </svg>
                </span>
                {formatClock(zone.seconds)} · {percent.format(share)}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
