import type { StreamName, StreamsReply, WorkoutDetail } from '@xoss/api-contract';
import type { MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  chartColors,
  CurveChart,
  EmptyState,
  indexAtX,
  Loading,
  StreamCharts,
  type StreamSeries,
} from '@xoss/ui-kit';
import { Link, useSearchParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { formatDuration, useFailureText } from '../components/common.tsx';

/** The streams the compare page overlays. */
const COMPARE_STREAMS: StreamName[] = ['time', 'power', 'heart_rate', 'speed'];
/** Points of the common time axis: enough for a wide screen, few enough to stay quick. */
const COMMON_POINTS = 1500;

type Streams = StreamsReply['streams'];

/**
 * Both rides on one time axis (seconds from each ride's start): every step of the common
 * axis takes each ride's sample at or before it, and nothing after a ride has ended.
 */
function commonTimeAxis(
  first: Streams,
  second: Streams,
  points = COMMON_POINTS,
): { x: number[]; at: (streams: Streams, name: StreamName) => (number | null)[] } {
  const timeOf = (streams: Streams) => (streams.time ?? []).map((value) => value ?? 0);
  const times = [timeOf(first), timeOf(second)] as const;
  const end = Math.max(times[0].at(-1) ?? 0, times[1].at(-1) ?? 0);
  const count = Math.max(2, points);
  const x = Array.from({ length: count }, (_, i) => (end * i) / (count - 1));
  const at = (streams: Streams, name: StreamName) => {
    const time = streams === first ? times[0] : times[1];
    const values = streams[name] ?? [];
    const last = time.at(-1) ?? -1;
    return x.map((seconds) =>
      time.length === 0 || seconds > last || seconds < (time[0] ?? 0)
        ? null
        : (values[indexAtX(time, seconds)] ?? null),
    );
  };
  return { x, at };
}

/** A positive whole number from the address, or null. */
const idFrom = (text: string | null) => (text && /^\d{1,12}$/.test(text) ? Number(text) : null);

/**
 * `/dashboard/workouts/compare?a=ID&b=ID`: two of the rider's rides side by side: their power,
 * heart rate and speed overlaid on a common time axis (the first solid, the second dashed),
 * both power curves, and their key figures in two columns.
 */
export function CompareRidesPage() {
  const t = useT();
  const [params] = useSearchParams();
  const a = idFrom(params.get('a'));
  const b = idFrom(params.get('b'));
  return (
    <>
      <h1>{t('workouts.compareRides.title')}</h1>
      {a === null || b === null ? (
        <EmptyState title={t('workouts.compareRides.title')}>
          <Message id="workouts.compareRides.needTwo" />{' '}
          <Link to="/dashboard/workouts/list">{t('workouts.all')}</Link>
        </EmptyState>
      ) : (
        <Comparison a={a} b={b} />
      )}
    </>
  );
}

function Comparison({ a, b }: { a: number; b: number }) {
  const t = useT();
  const failureText = useFailureText();
  const rideA = api.useGetWorkoutQuery({ params: { id: a } });
  const rideB = api.useGetWorkoutQuery({ params: { id: b } });
  const query = { points: COMMON_POINTS, streams: COMPARE_STREAMS };
  const streamsA = api.useWorkoutStreamsQuery({ params: { id: a }, query });
  const streamsB = api.useWorkoutStreamsQuery({ params: { id: b }, query });
  const curveA = api.usePowerCurveQuery({ params: { id: a }, query: { compare: 'none' } });
  const curveB = api.usePowerCurveQuery({ params: { id: b }, query: { compare: 'none' } });
  const failed = rideA.error ?? rideB.error ?? streamsA.error ?? streamsB.error;
  if (failed !== undefined) return <EmptyState title={failureText(failed)}>{null}</EmptyState>;
  if (!rideA.data || !rideB.data || !streamsA.data || !streamsB.data) return <Loading />;
  const first = rideA.data;
  const second = rideB.data;
  const powerA = curveA.data?.power;
  const powerB = curveB.data?.power;
  return (
    <>
      <ul className="portal__list" data-testid="compare-legend">
        <li>
          <Link to={`/dashboard/workouts/share/${first.id}`}>
            {t('workouts.compareRides.solid', { name: first.name })}
          </Link>
        </li>
        <li>
          <Link to={`/dashboard/workouts/share/${second.id}`}>
            {t('workouts.compareRides.dashed', { name: second.name })}
          </Link>
        </li>
      </ul>
      <Figures first={first} second={second} />
      <Overlay first={streamsA.data.streams} second={streamsB.data.streams} />
      {powerA || powerB ? (
        <CurveChart
          title={t('workouts.compareRides.curves')}
          unit="W"
          series={[
            ...(powerA
              ? [{ id: 'a', label: first.name, durations: powerA.durations, values: powerA.values }]
              : []),
            ...(powerB
              ? [
                  {
                    id: 'b',
                    label: second.name,
                    durations: powerB.durations,
                    values: powerB.values,
                    dashed: true,
                    color: chartColors.comparison,
                  },
                ]
              : []),
          ]}
        />
      ) : null}
    </>
  );
}

/** Power, heart rate and speed of both rides, one panel each, on a common time axis. */
function Overlay({ first, second }: { first: Streams; second: Streams }) {
  const t = useT();
  const units = useUnits(useLocale());
  const { x, at } = commonTimeAxis(first, second);
  const speed = (values: (number | null)[]) =>
    values.map((value) => (value === null ? null : value * units.speedFactor));
  const series: StreamSeries[] = [
    {
      id: 'power',
      label: t('measure.power'),
      unit: 'W',
      color: chartColors.power,
      values: at(first, 'power'),
      overlay: at(second, 'power'),
    },
    {
      id: 'heart_rate',
      label: t('measure.heartRate'),
      unit: 'bpm',
      color: chartColors.heartRate,
      values: at(first, 'heart_rate'),
      overlay: at(second, 'heart_rate'),
    },
    {
      id: 'speed',
      label: t('measure.speed'),
      unit: units.speedUnit,
      digits: 1,
      color: chartColors.speed,
      values: speed(at(first, 'speed')),
      overlay: speed(at(second, 'speed')),
    },
  ].filter((stream) =>
    [...stream.values, ...stream.overlay].some((value) => value !== null && value !== undefined),
  );
  return <StreamCharts x={x} xKind="time" series={series} />;
}

/** The two rides' key figures, one column each. */
function Figures({ first, second }: { first: WorkoutDetail; second: WorkoutDetail }) {
  const t = useT();
  const units = useUnits(useLocale());
  const rows: [MessageId, (ride: WorkoutDetail) => string][] = [
    ['measure.time', (ride) => formatDuration(ride.summary.timer_time_s)],
    ['measure.distance', (ride) => units.distance(ride.summary.distance_m)],
    ['measure.speedAvg', (ride) => units.speed(ride.summary.speed_avg_ms)],
    ['measure.hrAvg', (ride) => units.plain(ride.summary.hr_avg, 'bpm')],
    ['measure.powerAvg', (ride) => units.plain(ride.summary.power_avg, 'W')],
    ['measure.np', (ride) => units.plain(ride.summary.np, 'W')],
    ['measure.tss', (ride) => units.plain(ride.summary.tss, '', 1)],
    ['measure.elevationGain', (ride) => units.elevation(ride.summary.elevation_gain_m)],
  ];
  return (
    <section className="portal__card" aria-labelledby="compare-figures">
      <table className="xoss-table" data-stack>
        <caption id="compare-figures">{t('workouts.compareRides.figures')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('workouts.compareRides.figure')}</th>
            <th scope="col">{first.name}</th>
            <th scope="col">{second.name}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([id, value]) => (
            <tr key={id}>
              <th scope="row">{t(id)}</th>
              <td data-label={first.name}>{value(first)}</td>
              <td data-label={second.name}>{value(second)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
