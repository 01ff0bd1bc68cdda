import type { Climb, StreamsReply, WorkoutAnalysis } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { useLocale, useT } from '@xoss/i18n/react';
import { chartColors, indexAtX, type IndexRange, type StreamSeries } from '@xoss/ui-kit';
import { useUnits } from '../units.ts';
import { ColumnTable, type Column } from '../components/ColumnTable.tsx';
import { LONG_LIST } from './RideLaps.tsx';
import { formatDuration } from '../components/common.tsx';

type Streams = StreamsReply['streams'];
type Interval = WorkoutAnalysis['intervals'][number];

/**
 * The chart indices a span of seconds (`end` exclusive, as the analysis sends them) covers in
 * the drawn streams: the first sample at or after `start`, the last before `end`. The
 * streams are thinned for drawing, so the indices are the nearest drawn samples; the range
 * statistics still use the exact seconds.
 */
export function indicesOf(time: readonly number[], start: number, end: number): IndexRange {
  const last = Math.max(0, time.length - 1);
  let from = indexAtX(time, start);
  if ((time[from] ?? 0) < start && from < last) from += 1;
  let to = indexAtX(time, Math.max(start, end - 0.001));
  if (to <= from) to = Math.min(last, from + 1);
  if (to <= from) from = Math.max(0, to - 1);
  return [from, to];
}

/** Where the W' balance's CP and W' come from, as its title says it. */
const wBalSource = (analysis: WorkoutAnalysis) =>
  analysis.model_source === 'estimate' && analysis.threshold_source === 'history'
    ? 'history'
    : (analysis.model_source ?? 'estimate');

/** An FTP the API estimated (no setting, none in the file): the page says so and from what. */
const estimatedFtp = (analysis: WorkoutAnalysis) =>
  analysis.ftp_w !== null &&
  (analysis.threshold_source === 'model' ||
    analysis.threshold_source === 'history' ||
    analysis.threshold_source === 'ride');

/**
 * The W' balance panel (kJ), drawn after power: the CP and W' it is computed with and where
 * they come from in its title, its lowest point called out. None without power.
 */
export function wBalSeries(
  streams: Streams,
  analysis: WorkoutAnalysis | undefined,
  t: ReturnType<typeof useT>,
  locale: string,
): StreamSeries | null {
  const joules = streams.w_bal ?? [];
  if (!joules.some((value) => value !== null)) return null;
  const kilo = new Intl.NumberFormat(locale, {
    maximumFractionDigits: 1,
    minimumFractionDigits: 1,
  });
  let lowest = -1;
  for (let i = 0; i < joules.length; i++) {
    const value = joules[i];
    if (value !== null && value !== undefined && (lowest < 0 || value < joules[lowest]!))
      lowest = i;
  }
  const model =
    analysis && analysis.cp_w !== null && analysis.w_prime_j !== null
      ? ` · ${t('workouts.analysis.wBalModel', {
          cp: Math.round(analysis.cp_w),
          wPrime: kilo.format(analysis.w_prime_j / 1000),
          source: wBalSource(analysis),
        })}`
      : '';
  return {
    id: 'w_bal',
    label: `${t('workouts.analysis.wBal')}${model}`,
    unit: 'kJ',
    digits: 1,
    color: chartColors.form,
    values: joules.map((value) => (value === null ? null : value / 1000)),
    markers:
      lowest >= 0
        ? [
            {
              index: lowest,
              label: t('workouts.analysis.wBalLowest', {
                value: kilo.format(joules[lowest]! / 1000),
              }),
            },
          ]
        : [],
  };
}

/** The whole ride's analysis figures beside its summary: matches, decoupling and EF. */
export function useAnalysisFigures(analysis: WorkoutAnalysis | undefined): [MessageId, string][] {
  const locale = useLocale();
  if (!analysis) return [];
  const number = (digits: number) =>
    new Intl.NumberFormat(locale, { maximumFractionDigits: digits, minimumFractionDigits: digits });
  const figures: [MessageId, string][] = [];
  if (analysis.model_source !== null)
    figures.push(['workouts.analysis.matches', String(analysis.matches.length)]);
  if (analysis.decoupling_pct !== null)
    figures.push([
      'workouts.analysis.decoupling',
      `${number(1).format(analysis.decoupling_pct)} %`,
    ]);
  if (analysis.efficiency_factor !== null)
    figures.push(['workouts.analysis.ef', number(2).format(analysis.efficiency_factor)]);
  return figures;
}

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
        row.w_bal_end_j === null ? '—' : `${kilo.format(row.w_bal_end_j / 1000)} kJ`,
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
        rowKey={(climb) => climb.start_s}
        rowData={(_, index) => ({ 'data-active': active === index })}
        rowHead={(_, index) => (
          <button
            type="button"
            className="xoss-button"
            aria-pressed={active === index}
            aria-label={t('workouts.analysis.zoomToClimb', { number: index + 1 })}
            onClick={() => onPick(index)}
          >
            {index + 1}
          </button>
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
      cell: (climb: Climb) => `${number(1).format(climb.avg_grade_pct)} %`,
    },
    {
      label: t('workouts.analysis.vam'),
      cell: (climb: Climb) => `${number(0).format(climb.vam_m_h)} m/h`,
    },
    { label: t('measure.time'), cell: (climb: Climb) => formatDuration(climb.duration_s) },
    { label: t('measure.powerAvg'), cell: (climb: Climb) => units.plain(climb.avg_power_w, 'W') },
    { label: t('workouts.analysis.category'), cell: (climb: Climb) => climb.category ?? '—' },
  ];
}
