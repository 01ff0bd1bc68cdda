import { useEffect } from 'react';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { ZoneBars } from '@xoss/ui-kit';
import { useParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { Loaded, formatDate, formatDuration, useSportName } from '../components/common.tsx';

/**
 * `/dashboard/workouts/indoor/model/{id}`: the workout's summary with heart-rate and power
 * zones. Spec 2: this page keeps its own title (the workout's name).
 */
export function IndoorSummary() {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const sport = useSportName();
  const id = Number(useParams().id);
  const query = api.useGetWorkoutQuery({ params: { id } });
  useEffect(() => {
    if (query.data) document.title = `${query.data.name} · XOSS`;
  }, [query.data]);
  return (
    <Loaded query={query}>
      {(workout) => {
        const s = workout.summary;
        const rows: [string, string][] = [
          [t('workouts.filter.sport'), sport(workout.sport_type)],
          [t('workouts.date'), formatDate(workout.start_time, locale)],
          [t('measure.distance'), units.distance(s.distance_m)],
          [t('measure.estimatedDistance'), units.distance(s.estimated_distance_m)],
          [t('measure.time'), formatDuration(s.total_time_s)],
          [t('measure.movingTime'), formatDuration(s.moving_time_s)],
          [t('measure.calories'), units.plain(s.calories_kcal, 'kcal')],
          [t('measure.speedAvg'), units.speed(s.speed_avg_ms)],
          [t('measure.speedMax'), units.speed(s.speed_max_ms)],
          [t('measure.hrAvg'), units.plain(s.hr_avg, 'bpm')],
          [t('measure.hrMax'), units.plain(s.hr_max, 'bpm')],
          [t('measure.powerAvg'), units.plain(s.power_avg, 'W')],
          [t('measure.powerMax'), units.plain(s.power_max, 'W')],
          [t('measure.np'), units.plain(s.np, 'W')],
          [t('measure.if'), units.plain(s.if, '', 2)],
          [t('measure.tss'), units.plain(s.tss, '')],
          [t('measure.cadenceAvg'), units.plain(s.cadence_avg, 'rpm')],
          [t('measure.cadenceMax'), units.plain(s.cadence_max, 'rpm')],
          [t('measure.lrBalance'), units.plain(s.lr_balance_left, '%')],
          [t('measure.torqueEffectiveness'), units.plain(s.torque_effectiveness, '%')],
          [t('measure.pedalSmoothness'), units.plain(s.pedal_smoothness, '%')],
          [t('measure.elevationGain'), units.elevation(s.elevation_gain_m)],
        ];
        return (
          <>
            <h1>{workout.name}</h1>
            {/* A label above its value on a phone: a long German label beside a date held on
                one line was wider than 360 px. */}
            <table className="xoss-table" data-stack>
              <caption>
                <Message id="workouts.summary" />
              </caption>
              <tbody>
                {rows.map(([label, value]) => (
                  <tr key={label}>
                    <th scope="row">{label}</th>
                    <td>{value}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {workout.hr_zones.length > 0 ? (
              <ZoneBars kind="hr" zones={workout.hr_zones} reference={workout.max_hr} />
            ) : null}
            {workout.power_zones.length > 0 ? (
              <ZoneBars kind="power" zones={workout.power_zones} reference={workout.ftp} />
            ) : null}
          </>
        );
      }}
    </Loaded>
  );
}
