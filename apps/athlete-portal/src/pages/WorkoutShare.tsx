import { useEffect, useMemo, useState } from 'react';
import type { StreamsReply, WorkoutDetail } from '@xoss/api-contract';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  RouteMap,
  StreamCharts,
  type IndexRange,
  type LonLat,
  type StreamSeries,
} from '@xoss/ui-kit';
import { Link, useParams, useSearchParams } from 'react-router';
import { api } from '../client.ts';
import { TILE_URL } from '../config.ts';
import { useUnits } from '../units.ts';
import { ownRide, sharedRide } from './rideQueries.ts';
import { Loaded, formatDuration, useToast } from './common.tsx';

type Streams = StreamsReply['streams'];
const values = (streams: Streams, name: keyof Streams) => streams[name] ?? [];

/** Statistics of a range of the (downsampled) streams: what the zoomed charts show. */
export function rangeStats(streams: Streams, range: IndexRange | null) {
  const time = values(streams, 'time');
  const last = Math.max(0, time.length - 1);
  const [from, to] = range ?? [0, last];
  const mean = (name: keyof Streams) => {
    let sum = 0;
    let count = 0;
    for (let i = from; i <= to; i++) {
      const value = values(streams, name)[i];
      if (value !== null && value !== undefined && Number.isFinite(value)) {
        sum += value;
        count += 1;
      }
    }
    return count > 0 ? sum / count : null;
  };
  const max = (name: keyof Streams) => {
    let best: number | null = null;
    for (let i = from; i <= to; i++) {
      const value = values(streams, name)[i];
      if (value !== null && value !== undefined && (best === null || value > best)) best = value;
    }
    return best;
  };
  const distance = values(streams, 'distance');
  const altitude = values(streams, 'altitude');
  let climb = 0;
  for (let i = from + 1; i <= to; i++) {
    const a = altitude[i - 1];
    const b = altitude[i];
    if (a !== null && a !== undefined && b !== null && b !== undefined && b > a) climb += b - a;
  }
  const seconds = (time[to] ?? 0) - (time[from] ?? 0);
  const metres = (distance[to] ?? 0) - (distance[from] ?? 0);
  return {
    seconds,
    metres: distance.length > 0 ? metres : null,
    speedAvg: distance.length > 0 && seconds > 0 ? metres / seconds : mean('speed'),
    speedMax: max('speed'),
    hrAvg: mean('heart_rate'),
    powerAvg: mean('power'),
    powerMax: max('power'),
    cadenceAvg: mean('cadence'),
    climb: altitude.length > 0 ? climb : null,
  };
}

function Stats({ streams, range }: { streams: Streams; range: IndexRange | null }) {
  const locale = useLocale();
  const units = useUnits(locale);
  const stats = useMemo(() => rangeStats(streams, range), [streams, range]);
  return (
    <section className="portal__card" aria-live="polite" aria-labelledby="range-stats">
      <h2 id="range-stats">
        {range ? <Message id="workouts.rangeStats" /> : <Message id="workouts.wholeRide" />}
      </h2>
      <dl className="portal__figures">
        <div>
          <dt>
            <Message id="measure.time" />
          </dt>
          <dd>{formatDuration(stats.seconds)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.distance" />
          </dt>
          <dd>{units.distance(stats.metres)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.speedAvg" />
          </dt>
          <dd>{units.speed(stats.speedAvg)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.speedMax" />
          </dt>
          <dd>{units.speed(stats.speedMax)}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.hrAvg" />
          </dt>
          <dd>{units.plain(stats.hrAvg, 'bpm')}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.powerAvg" />
          </dt>
          <dd>{units.plain(stats.powerAvg, 'W')}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.cadenceAvg" />
          </dt>
          <dd>{units.plain(stats.cadenceAvg, 'rpm')}</dd>
        </div>
        <div>
          <dt>
            <Message id="measure.elevationGain" />
          </dt>
          <dd>{units.elevation(stats.climb)}</dd>
        </div>
      </dl>
    </section>
  );
}

function Ride({
  workout,
  streams,
  visitor,
}: {
  workout: WorkoutDetail;
  streams: Streams;
  /** Opened through a share link: the ride to look at, without the owner's controls. */
  visitor: boolean;
}) {
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const toast = useToast();
  const [hover, setHover] = useState<number | null>(null);
  const [range, setRange] = useState<IndexRange | null>(null);
  // The map is built in a task of its own after the charts have painted: no single long
  // task for both (issue 12's 200 ms budget).
  const [mapReady, setMapReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setMapReady(true), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  const [patch, patching] = api.usePatchWorkoutMutation();
  const share = async (shared: boolean) => {
    const result = await patch({ params: { id: workout.id }, body: { shared } });
    if (!('error' in result)) toast(t(shared ? 'workouts.share.on' : 'workouts.share.off'));
  };
  const lat = values(streams, 'latitude');
  const lon = values(streams, 'longitude');
  // The map's track keeps the chart's indices: points without a fix repeat the last one.
  const track = useMemo(() => {
    const points: LonLat[] = [];
    let lastPoint: LonLat | undefined;
    for (let i = 0; i < lat.length; i++) {
      const a = lat[i];
      const b = lon[i];
      if (a !== null && a !== undefined && b !== null && b !== undefined) lastPoint = [b, a];
      if (lastPoint) points.push(lastPoint);
    }
    return points;
  }, [lat, lon]);
  const series: StreamSeries[] = [
    {
      id: 'speed',
      label: t('measure.speed'),
      unit: units.speedUnit,
      digits: 1,
      values: values(streams, 'speed').map((v) => (v === null ? null : v * units.speedFactor)),
    },
    {
      id: 'altitude',
      label: t('measure.elevation'),
      unit: units.elevationUnit,
      kind: 'area' as const,
      color: '#2e9a58',
      values: values(streams, 'altitude').map((v) =>
        v === null ? null : v * units.elevationFactor,
      ),
    },
    {
      id: 'heart_rate',
      label: t('measure.heartRate'),
      unit: 'bpm',
      color: '#d0342c',
      values: values(streams, 'heart_rate'),
    },
    {
      id: 'cadence',
      label: t('measure.cadence'),
      unit: 'rpm',
      color: '#2f80c2',
      values: values(streams, 'cadence'),
    },
    {
      id: 'power',
      label: t('measure.power'),
      unit: 'W',
      kind: 'area' as const,
      color: '#8e2a8c',
      values: values(streams, 'power'),
    },
  ].filter((stream) => stream.values.some((value) => value !== null));
  const time = values(streams, 'time').map((value) => value ?? 0);
  return (
    <>
      {visitor ? null : (
        <div className="portal__actions">
          <label className="xoss-choice">
            <input
              type="checkbox"
              checked={workout.shared}
              disabled={patching.isLoading}
              onChange={(event) => void share(event.target.checked)}
            />
            <Message id="workouts.share.on" />
          </label>
          <Link className="xoss-button" to={`/dashboard/workouts/powerCurve/${workout.id}`}>
            <Message id="workouts.powerCurve" />
          </Link>
          <Link className="xoss-button" to={`/dashboard/workouts/indoor/model/${workout.id}`}>
            <Message id="workouts.summary" />
          </Link>
        </div>
      )}
      {!visitor && workout.shared && workout.share_id ? (
        <ShareLink id={workout.id} shareId={workout.share_id} />
      ) : null}
      {track.length > 1 ? (
        mapReady ? (
          <RouteMap track={track} marker={hover} tileUrl={TILE_URL} />
        ) : (
          // Holds the map's place while the charts paint first.
          <div className="xoss-map__canvas" aria-hidden="true" />
        )
      ) : null}
      <Stats streams={streams} range={range} />
      <StreamCharts
        x={time}
        xKind="time"
        series={series}
        hoverIndex={hover}
        onHover={setHover}
        onRangeChange={setRange}
      />
    </>
  );
}

/** The address anyone can open while sharing is on, with a button to copy it. */
function ShareLink({ id, shareId }: { id: number; shareId: string }) {
  const t = useT();
  const toast = useToast();
  const href = `${window.location.origin}/dashboard/workouts/share/${id}?share=${shareId}`;
  return (
    <p className="portal__share">
      <label>
        <Message id="workouts.share.link" />
        <input
          className="xoss-select"
          readOnly
          value={href}
          onFocus={(event) => event.target.select()}
        />
      </label>
      <button
        type="button"
        className="xoss-button"
        onClick={() =>
          void navigator.clipboard.writeText(href).then(
            () => toast(t('workouts.share.copied')),
            () => undefined,
          )
        }
      >
        <Message id="workouts.share.copy" />
      </button>
    </p>
  );
}

/**
 * `/dashboard/workouts/share/{id}`: map, stream charts with zoom, range statistics, sharing.
 * With `?share=<share id>` (the share link) it reads the public copy, for any visitor.
 */
export function WorkoutShare() {
  const id = Number(useParams().id);
  const shareId = useSearchParams()[0].get('share');
  return shareId ? <SharedRide shareId={shareId} /> : <OwnRide id={id} />;
}

function OwnRide({ id }: { id: number }) {
  const args = ownRide(id);
  const workout = api.useGetWorkoutQuery(args.workout);
  const streams = api.useWorkoutStreamsQuery(args.streams);
  return (
    <Loaded query={workout}>
      {(detail) => (
        <>
          <h1>{detail.name}</h1>
          <Loaded query={streams}>
            {(data) => <Ride workout={detail} streams={data.streams} visitor={false} />}
          </Loaded>
        </>
      )}
    </Loaded>
  );
}

function SharedRide({ shareId }: { shareId: string }) {
  const args = sharedRide(shareId);
  const workout = api.useSharedWorkoutQuery(args.workout);
  const streams = api.useSharedWorkoutStreamsQuery(args.streams);
  return (
    <Loaded query={workout}>
      {(detail) => (
        <>
          <h1>{detail.name}</h1>
          <Loaded query={streams}>
            {(data) => <Ride workout={detail} streams={data.streams} visitor />}
          </Loaded>
        </>
      )}
    </Loaded>
  );
}
