import type { WorkoutDetail } from '@xoss/api-contract';
import { useLocale, useT } from '@xoss/i18n/react';
import { useUnits } from '../units.ts';
import { ColumnTable, type Column } from '../components/ColumnTable.tsx';
import { formatDuration } from '../components/common.tsx';

/** The rows a long table of the ride page shows before "Show all". */
export const LONG_LIST = 5;

/**
 * The laps the device recorded (lap button, auto-lap), with the device's own figures per
 * lap; nothing when the file had none. A table that stacks into cards on a phone. When the
 * laps taken together read differently from the ride's figures (a one-lap ride's 174 W
 * beside the summary's 171 W: the device averages its own way, the summary is ours over
 * the cleaned samples and the timer time), a line under the table says why.
 */
export function RideLaps({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  if (workout.laps.length === 0) return null;
  const columns: Column<Lap>[] = [
    { label: t('measure.time'), cell: (lap: Lap) => duration(lap.timer_time_s) },
    { label: t('measure.distance'), cell: (lap: Lap) => units.distance(lap.distance_m) },
    { label: t('measure.speedAvg'), cell: (lap: Lap) => units.speed(lap.speed_avg_ms) },
    { label: t('measure.hrAvg'), cell: (lap: Lap) => units.plain(lap.hr_avg, 'bpm') },
    { label: t('measure.powerAvg'), cell: (lap: Lap) => units.plain(lap.power_avg, 'W') },
    { label: t('measure.cadenceAvg'), cell: (lap: Lap) => units.plain(lap.cadence_avg, 'rpm') },
    {
      label: t('measure.elevationGain'),
      cell: (lap: Lap) => units.elevation(lap.elevation_gain_m),
    },
  ];
  const differs = lapsDiffer(workout, units);
  return (
    <section className="portal__card" aria-labelledby="ride-laps">
      <ColumnTable
        caption={t('workouts.laps', { count: workout.laps.length })}
        captionId="ride-laps"
        rowHeading={t('workouts.lap')}
        rows={workout.laps}
        rowKey={(lap) => lap.start_s}
        rowHead={(_, index) => index + 1}
        columns={columns}
        collapseAfter={LONG_LIST}
      />
      {differs ? <p className="portal__note">{t('workouts.lapsDevice')}</p> : null}
    </section>
  );
}

type Lap = WorkoutDetail['laps'][number];
type Units = ReturnType<typeof useUnits>;

/**
 * Whether the laps, taken together, show a figure other than the ride's summary does, as
 * both are written: time and distance summed, the averages weighted by each lap's timer
 * time (one lap is itself). A figure a lap lacks is not compared.
 */
function lapsDiffer(workout: WorkoutDetail, units: Units): boolean {
  const { laps, summary } = workout;
  const sum = (value: (lap: Lap) => number | null) => {
    let total = 0;
    for (const lap of laps) {
      const v = value(lap);
      if (v === null) return null;
      total += v;
    }
    return total;
  };
  const time = sum((lap) => lap.timer_time_s);
  const mean = (value: (lap: Lap) => number | null) => {
    const weighted = sum((lap) => {
      const v = value(lap);
      return v === null || lap.timer_time_s === null ? null : v * lap.timer_time_s;
    });
    return weighted === null || !time ? null : weighted / time;
  };
  const pairs: [string | null, string][] = [
    [time === null ? null : duration(time), duration(summary.timer_time_s)],
    [
      shown(
        sum((lap) => lap.distance_m),
        units.distance,
      ),
      units.distance(summary.distance_m),
    ],
    [
      shown(
        mean((lap) => lap.speed_avg_ms),
        units.speed,
      ),
      units.speed(summary.speed_avg_ms),
    ],
    [
      shown(
        mean((lap) => lap.hr_avg),
        (v) => units.plain(v, 'bpm'),
      ),
      units.plain(summary.hr_avg, 'bpm'),
    ],
    [
      shown(
        mean((lap) => lap.power_avg),
        (v) => units.plain(v, 'W'),
      ),
      units.plain(summary.power_avg, 'W'),
    ],
    [
      shown(
        mean((lap) => lap.cadence_avg),
        (v) => units.plain(v, 'rpm'),
      ),
      units.plain(summary.cadence_avg, 'rpm'),
    ],
    [
      shown(
        sum((lap) => lap.elevation_gain_m),
        units.elevation,
      ),
      units.elevation(summary.elevation_gain_m),
    ],
  ];
  return pairs.some(([lapsShow, rideShows]) => lapsShow !== null && lapsShow !== rideShows);
}

const shown = (value: number | null, format: (value: number) => string) =>
  value === null ? null : format(value);

const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
