import type { WorkoutDetail } from '@xoss/api-contract';
import { useLocale, useT } from '@xoss/i18n/react';
import { useUnits } from '../units.ts';
import { ColumnTable, type Column } from '../components/ColumnTable.tsx';
import { formatDuration } from '../components/common.tsx';

/** The rows a long table of the ride page shows before "Show all". */
export const LONG_LIST = 5;

/**
 * The laps the device recorded (lap button, auto-lap), with the device's own figures per
 * lap; nothing when the file had none. A table that stacks into cards on a phone.
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
    </section>
  );
}

type Lap = WorkoutDetail['laps'][number];

const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
