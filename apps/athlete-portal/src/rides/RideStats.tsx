// The statistics card of a ride page: the whole ride's figures, a cropped ride's (with the
// part of the recording they are of) or a selected range's.
import type { WorkoutDetail } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { useUnits } from '../units.ts';
import { formatDuration } from '../components/common.tsx';
import { DeviceMark, tssText } from './figureMarks.tsx';

type Summary = WorkoutDetail['summary'];

/** A ride's figures, each with its source where it is the device's. */
export function RideStats({
  summary,
  zoomed,
  loading,
  crop = null,
  extra = [],
}: {
  summary: Summary;
  zoomed: boolean;
  loading: boolean;
  /** The owner's crop (seconds of the recording): the heading says the ride is cropped. */
  crop?: WorkoutDetail['crop'];
  /** The whole ride's analysis figures (matches, decoupling, EF): not shown for a range. */
  extra?: readonly [MessageId, string][];
}) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const figures: [MessageId, string, boolean?][] = [
    ['measure.time', formatDuration(summary.timer_time_s)],
    ['measure.movingTime', formatDuration(summary.moving_time_s)],
    ['measure.elapsedTime', formatDuration(summary.total_time_s)],
    ['measure.distance', units.distance(summary.distance_m), summary.distance_source === 'device'],
    ['measure.speedAvg', units.speed(summary.speed_avg_ms)],
    ['measure.speedMax', units.speed(summary.speed_max_ms)],
    ['measure.hrAvg', units.plain(summary.hr_avg, 'bpm')],
    ['measure.powerAvg', units.plain(summary.power_avg, 'W')],
    ['measure.np', units.plain(summary.np, 'W'), summary.np_source === 'device'],
    // IF = NP / FTP: how hard the ride was for this rider, beside the NP and TSS it links.
    ['measure.if', units.plain(summary.if, '', 2), summary.np_source === 'device'],
    [
      'measure.tss',
      tssText(summary, units.plain(summary.tss, '', 1), t),
      summary.np_source === 'device',
    ],
    ['measure.cadenceAvg', units.plain(summary.cadence_avg, 'rpm')],
    [
      'measure.elevationGain',
      units.elevation(summary.elevation_gain_m),
      summary.elevation_source === 'device',
    ],
    [
      'measure.calories',
      units.plain(summary.calories_kcal, 'kcal'),
      summary.calories_source === 'device',
    ],
    ...(zoomed ? [] : extra),
  ];
  return (
    <section
      className="portal__card"
      aria-live="polite"
      aria-busy={loading}
      aria-labelledby="range-stats"
    >
      <h2 id="range-stats">
        {zoomed ? (
          <Message id="workouts.rangeStats" />
        ) : crop ? (
          <Message
            id="workouts.croppedRide"
            values={{ from: formatDuration(crop.start_s), to: formatDuration(crop.end_s) }}
          />
        ) : (
          <Message id="workouts.wholeRide" />
        )}
      </h2>
      <dl className="portal__figures">
        {figures.map(([id, value, device]) => (
          <div key={id}>
            <dt>{t(id)}</dt>
            <dd>
              {value}
              <DeviceMark show={device === true} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
