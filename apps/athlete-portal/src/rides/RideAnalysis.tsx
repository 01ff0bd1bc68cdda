import type { Climb, WorkoutAnalysis } from '@xoss/api-contract';
import { useLocale, useT } from '@xoss/i18n/react';
import { useUnits } from '../units.ts';
import { ColumnTable, type Column } from '../components/ColumnTable.tsx';
import { LONG_LIST } from './RideLaps.tsx';
import { formatDuration } from '../components/common.tsx';

type Interval = WorkoutAnalysis['intervals'][number];

/** An FTP the API estimated (no setting, none in the file): the page says so and from what. */
const estimatedFtp = (analysis: WorkoutAnalysis) =>
  analysis.ftp_w !== null &&
  (analysis.threshold_source === 'model' ||
    analysis.threshold_source === 'history' ||
    analysis.threshold_source === 'ride');

/**
 * The efforts the analysis found (above 88 % of FTP), with the figures intervals.icu and
 * GoldenCheetah riders read; choosing one zooms the charts and the range figures to it.
 * Nothing for a ride without power (no intervals).
 */
export function RideIntervals({
  analysis,
  onPick,
}: {
  analysis: WorkoutAnalysis;
  onPick: (start: number, end: number) => void;
}) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  if (analysis.intervals.length === 0) return null;
  const kilo = new Intl.NumberFormat(locale, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  const columns: Column<Interval>[] = [
    { label: t('workouts.analysis.start'), cell: (row: Interval) => formatDuration(row.start_s) },
    {
      label: t('workouts.analysis.duration'),
      cell: (row: Interval) => formatDuration(row.duration_s),
    },
    { label: t('measure.powerAvg'), cell: (row: Interval) => units.plain(row.avg_power_w, 'W') },
    { label: t('workouts.analysis.np'), cell: (row: Interval) => units.plain(row.np_w, 'W') },
    { label: t('measure.hrAvg'), cell: (row: Interval) => units.plain(row.avg_hr, 'bpm') },
    {
      label: t('measure.cadenceAvg'),
      cell: (row: Interval) => units.plain(row.avg_cadence, 'rpm'),
    },
    {
      label: t('workouts.analysis.wBalEnd'),
      cell: (row: Interval) =>
        row.w_bal_end_j === null ? '—' : `${kilo.format(row.w_bal_end_j / 1000)}\u00a0kJ`,
    },
  ];
  return (
    <section className="portal__card" aria-labelledby="ride-intervals">
      <ColumnTable
        caption={t('workouts.analysis.intervals', { count: analysis.intervals.length })}
        captionId="ride-intervals"
        rowHeading={t('workouts.analysis.interval')}
        rows={analysis.intervals}
        rowKey={(row) => row.start_s}
        rowData={(_, index) => ({ 'data-interval': index + 1 })}
        rowHead={(row, index) => (
          <button
            type="button"
            className="xoss-button"
            aria-label={t('workouts.analysis.zoomToInterval', { number: index + 1 })}
            onClick={() => onPick(row.start_s, row.end_s)}
          >
            {index + 1}
          </button>
        )}
        columns={columns}
        collapseAfter={LONG_LIST}
      />
      {analysis.ftp_w !== null ? (
        <p className="portal__note">
          {t('workouts.analysis.intervalsNote', { ftp: Math.round(analysis.ftp_w) })}
        </p>
      ) : null}
      {estimatedFtp(analysis) ? (
        <p className="portal__note" data-estimated-ftp={analysis.threshold_source}>
          {t('workouts.analysis.estimatedFtp', {
            ftp: Math.round(analysis.ftp_w!),
            source: analysis.threshold_source!,
          })}
        </p>
      ) : null}
    </section>
  );
}

/**
 * The climbs of a ride (length, gain, grade, VAM, time, power, category), each shaded on the
 * elevation chart and the map; choosing one zooms to it and marks it. Nothing for a ride
 * without elevation (no climbs).
 */
export function RideClimbs({
  climbs,
  active,
  onPick,
}: {
  climbs: readonly Climb[];
  active: number | null;
  onPick: (index: number) => void;
}) {
  const t = useT();
  const columns = useClimbColumns();
  if (climbs.length === 0) return null;
  return (
    <section className="portal__card" aria-labelledby="ride-climbs">
      <ColumnTable
        caption={t('workouts.analysis.climbs', { count: climbs.length })}
        captionId="ride-climbs"
        rowHeading={t('workouts.analysis.climb')}
        rows={climbs}
        rowKey={(climb) => `${climb.start_s}-${climb.end_s}`}
        rowData={(_, index) => ({ 'data-active': active === index })}
        rowHead={(climb, index) => (
          <>
            <button
              type="button"
              className="xoss-button"
              aria-pressed={active === index}
              aria-label={t('workouts.analysis.zoomToClimb', { number: index + 1 })}
              onClick={() => onPick(index)}
            >
              {index + 1}
            </button>
            {climb.parent !== null && climb.parent !== undefined ? (
              <span className="portal__source">
                {' '}
                {t('workouts.analysis.nestedClimb', { number: climb.parent + 1 })}
              </span>
            ) : null}
          </>
        )}
        columns={columns}
        collapseAfter={LONG_LIST}
        revealIndex={active}
      />
    </section>
  );
}

/** A climb's columns, shared by a ride's climbs and the rider's best climbs. */
export function useClimbColumns(): Column<Climb>[] {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  return [
    {
      label: t('workouts.analysis.length'),
      cell: (climb: Climb) => units.distance(climb.length_m),
    },
    { label: t('workouts.analysis.gain'), cell: (climb: Climb) => units.elevation(climb.gain_m) },
    {
      label: t('workouts.analysis.grade'),
      cell: (climb: Climb) => `${number(1).format(climb.avg_grade_pct)}\u00a0%`,
    },
    {
      label: t('workouts.analysis.vam'),
      cell: (climb: Climb) => `${number(0).format(climb.vam_m_h)}\u00a0m/h`,
    },
    { label: t('measure.time'), cell: (climb: Climb) => formatDuration(climb.duration_s) },
    { label: t('measure.powerAvg'), cell: (climb: Climb) => units.plain(climb.avg_power_w, 'W') },
    { label: t('workouts.analysis.category'), cell: (climb: Climb) => climb.category ?? '—' },
  ];
}
