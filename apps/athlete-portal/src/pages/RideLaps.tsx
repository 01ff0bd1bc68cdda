import type { WorkoutDetail } from '@xoss/api-contract';
import { useLocale, useT } from '@xoss/i18n/react';
import { useUnits } from '../units.ts';
import { formatDuration } from './common.tsx';

/**
 * The laps the device recorded (lap button, auto-lap), with the device's own figures per
 * lap; nothing when the file had none. A table that stacks into cards on a phone.
 */
export function RideLaps({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  if (workout.laps.length === 0) return null;
  const columns = [
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
      <table className="xoss-table" data-stack>
        <caption id="ride-laps">{t('workouts.laps', { count: workout.laps.length })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('workouts.lap')}</th>
            {columns.map((column) => (
              <th key={column.label} scope="col">
                {column.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {workout.laps.map((lap, index) => (
            <tr key={lap.start_s}>
              <th scope="row">{index + 1}</th>
              {columns.map((column) => (
                <td key={column.label} data-label={column.label}>
                  {column.cell(lap)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type Lap = WorkoutDetail['laps'][number];

const duration = (seconds: number | null) => (seconds === null ? '—' : formatDuration(seconds));
