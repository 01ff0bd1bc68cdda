import { Suspense, lazy, useEffect, useMemo, useState } from 'react';
import type {
  SharedWorkout,
  StreamsReply,
  WorkoutAnalysis,
  WorkoutDetail,
} from '@xoss/api-contract';
import { RANGE_MAX_S } from '@xoss/api-contract/routes';
import { skipToken } from '@reduxjs/toolkit/query';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import {
  StreamCharts,
  useInView,
  type IndexRange,
  type LonLat,
  type TrackSegment,
} from '@xoss/ui-kit';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { api } from '../client.ts';
import { useUnits } from '../units.ts';
import { isSharedRideLink, ownRide, ownRideWBal, sharedRide } from './rideQueries.ts';
import { loadRideMap } from './loadRideMap.ts';
import { Loaded, formatDuration, useToast } from '../components/common.tsx';
import { indicesOf, useAnalysisFigures, wBalSeries } from './analysisFigures.ts';
import { rideSeries } from './rideSeries.ts';
import { RideManagement, RideNotesText } from './RideManagement.tsx';
import { RideCorrections } from './RideCorrections.tsx';
import { RideStats as Stats } from './RideStats.tsx';
import { SharedHeader, ShareChoices, ShareLink, ShareUnavailable } from '../share/ShareParts.tsx';

const RideBelow = lazy(() =>
  import('./RideBelow.tsx').then((module) => ({ default: module.RideBelow })),
);

type RideMapComponent = Awaited<ReturnType<typeof loadRideMap>>['RideMap'];

/** Holds the map's place; the map's chunk (OpenLayers) and tiles load when it comes into view. */
function MapWhenSeen({
  track,
  marker,
  segments,
}: {
  track: LonLat[];
  marker: number | null;
  segments: readonly TrackSegment[];
}) {
  const [ref, seen] = useInView<HTMLDivElement>();
  // Its chunk is fetched once its place is in view (a first load's entry has started it).
  const [RideMap, setRideMap] = useState<RideMapComponent | null>(null);
  useEffect(() => {
    if (!seen) return;
    let live = true;
    void loadRideMap().then(
      (module) => live && setRideMap(() => module.RideMap),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [seen]);
  // The map itself is built by an effect, after the page has painted: a task of its own.
  if (!seen || !RideMap) return <div ref={ref} className="xoss-map__canvas" aria-hidden="true" />;
  return <RideMap track={track} marker={marker} segments={segments} />;
}

type Streams = StreamsReply['streams'];
const values = (streams: Streams, name: keyof Streams) => streams[name] ?? [];

/** Where the ride's range statistics come from: the owner's ride or a share link. */
type RideSource = { readonly id: number } | { readonly shareId: string };

/**
 * The seconds (from the start, `to` exclusive) a zoomed index range of the charts covers:
 * the range's statistics are computed by the API on the full-resolution streams, with the
 * same rule as the ride's summary.
 */
function rangeSeconds(time: readonly number[], range: IndexRange): { from: number; to: number } {
  const last = time.length - 1;
  const from = time[Math.max(0, Math.min(range[0], last))] ?? 0;
  const end = Math.min(range[1], last);
  // The last point of the range stands up to the next one (or to the end of the ride).
  const to = end < last ? (time[end + 1] ?? from + 1) : RANGE_MAX_S;
  return { from, to: Math.max(to, from + 0.001) };
}

function useRangeSummary(source: RideSource, seconds: { from: number; to: number } | null) {
  const query = seconds ? { from: seconds.from, to: seconds.to } : undefined;
  const own = api.useWorkoutRangeQuery(
    'id' in source && query ? { params: { id: source.id }, query } : skipToken,
  );
  const shared = api.useSharedWorkoutRangeQuery(
    'shareId' in source && query ? { params: { share_id: source.shareId }, query } : skipToken,
  );
  return 'id' in source ? own : shared;
}

/** What the figures of a ride rest on: a damaged file, the FTP and max HR it was measured with. */
function RideNotes({ workout }: { workout: WorkoutDetail }) {
  const t = useT();
  const readable = workout.damage ? formatDuration(workout.damage.read_time_s) : null;
  return (
    <>
      {workout.damage ? (
        <p className="xoss-alert" role="status">
          {t(
            workout.damage.code === 'crc'
              ? 'workouts.damage.damaged'
              : 'workouts.damage.endedEarly',
            { duration: readable ?? '' },
          )}
        </p>
      ) : null}
      {workout.ftp !== null || workout.max_hr !== null ? (
        <p className="portal__note">
          {t('workouts.thresholds', {
            ftp: workout.ftp ?? '—',
            ftpSource: workout.ftp_source ?? 'none',
            maxHr: workout.max_hr ?? '—',
            maxHrSource: workout.max_hr_source ?? 'none',
          })}
        </p>
      ) : null}
    </>
  );
}

function Ride({
  workout,
  streams,
  source,
}: {
  /** The owner's ride (with their controls), or what a share link shows. */
  workout: WorkoutDetail | SharedWorkout;
  streams: Streams;
  source: RideSource;
}) {
  const owner = 'id' in workout ? workout : undefined;
  const t = useT();
  const locale = useLocale();
  const units = useUnits(locale);
  const toast = useToast();
  const [hover, setHover] = useState<number | null>(null);
  const [range, setRange] = useState<IndexRange | null>(null);
  // An interval or climb picked in its table: the charts zoom to it (`zoom`), and its range
  // figures are of its exact seconds rather than of the nearest drawn samples.
  const [zoom, setZoom] = useState<{ range: IndexRange } | null>(null);
  const [exact, setExact] = useState<{ from: number; to: number } | null>(null);
  const [activeClimb, setActiveClimb] = useState<number | null>(null);
  // What lies below the first charts loads once the page is scrolled there: the analysis
  // (its panels, the W' balance, the figures it adds beside the summary), the laps and the
  // bests, so a phone on mobile data draws the ride's first screen without them.
  const [belowRef, reached] = useInView<HTMLDivElement>();
  const analysis = useAnalysis(reached ? owner?.id : undefined);
  const wBalReply = api.useWorkoutStreamsQuery(
    reached && owner ? ownRideWBal(owner.id) : skipToken,
  );
  const extra = useAnalysisFigures(analysis);
  const [patch, patching] = api.usePatchWorkoutMutation();
  const share = async (id: number, shared: boolean) => {
    const result = await patch({ params: { id }, body: { shared } });
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
  const wBal = wBalSeries(withWBal(streams, wBalReply.data?.streams), analysis, t, locale);
  const series = [...rideSeries(streams, t, units), ...(wBal ? [wBal] : [])];
  const time = values(streams, 'time').map((value) => value ?? 0);
  const seconds = exact ?? (range ? rangeSeconds(time, range) : null);
  const zoomTo = (start: number, end: number) => {
    const picked = indicesOf(time, start, end);
    setRange(picked);
    setZoom({ range: picked });
    setExact({ from: start, to: end });
  };
  const climbs = analysis?.climbs ?? [];
  // The map's track starts at the first fix: its indices are the chart's less the samples
  // before it.
  const firstFix = lat.findIndex((value, i) => value !== null && lon[i] !== null);
  const segments = climbs.map((climb, index) => {
    const [from, to] = indicesOf(time, climb.start_s, climb.end_s);
    return { from: from - firstFix, to: to - firstFix, active: index === activeClimb };
  });
  const bands = climbs.map((climb, index) => ({
    series: 'altitude',
    from: climb.start_s,
    to: climb.end_s,
    active: index === activeClimb,
  }));
  const ranged = useRangeSummary(source, seconds);
  const summary = range ? (ranged.data?.summary ?? null) : workout.summary;
  // The page opens with what a rider came for: the ride's figures, its map and its charts.
  // Best efforts and laps follow; the owner's controls (sharing, other views) come last.
  return (
    <>
      {owner ? null : <SharedHeader shared={workout as SharedWorkout} />}
      {owner ? <RideNotes workout={owner} /> : null}
      {summary ? (
        <Stats
          summary={summary}
          zoomed={range !== null}
          loading={ranged.isFetching}
          crop={owner?.crop ?? null}
          extra={extra}
        />
      ) : (
        <Stats summary={workout.summary} zoomed={false} loading crop={owner?.crop ?? null} />
      )}
      {track.length > 1 ? <MapWhenSeen track={track} marker={hover} segments={segments} /> : null}
      <StreamCharts
        x={time}
        xKind="time"
        series={series}
        hoverIndex={hover}
        onHover={setHover}
        onRangeChange={(next) => {
          setRange(next);
          setExact(null);
          if (next === null) setActiveClimb(null);
        }}
        zoom={zoom}
        bands={bands}
      />
      <div ref={belowRef} />
      {owner && reached ? (
        <Suspense fallback={null}>
          <RideBelow
            workout={owner}
            analysis={analysis}
            climbs={climbs}
            activeClimb={activeClimb}
            onPickInterval={zoomTo}
            onPickClimb={(index) => {
              const climb = climbs[index]!;
              setActiveClimb(index);
              zoomTo(climb.start_s, climb.end_s);
            }}
          />
        </Suspense>
      ) : null}
      {owner ? (
        <div className="portal__actions">
          <label className="xoss-choice">
            <input
              type="checkbox"
              checked={owner.shared}
              disabled={patching.isLoading}
              onChange={(event) => void share(owner.id, event.target.checked)}
            />
            <Message id="workouts.share.on" />
          </label>
          <Link className="xoss-button" to={`/dashboard/workouts/powerCurve/${owner.id}`}>
            <Message id="workouts.powerCurve" />
          </Link>
          <Link className="xoss-button" to={`/dashboard/workouts/indoor/model/${owner.id}`}>
            <Message id="workouts.summary" />
          </Link>
        </div>
      ) : null}
      {owner && reached ? <CompareWith id={owner.id} /> : null}
      {owner?.shared && owner.share_id ? (
        <>
          <ShareLink shareId={owner.share_id} />
          <ShareChoices workout={owner} />
        </>
      ) : null}
    </>
  );
}

/**
 * The W' balance, asked for apart from the other streams, on their time axis: the same
 * points give the same times; should they differ, each drawn sample takes the W' balance
 * of the nearest time.
 */
function withWBal(streams: Streams, extra: Streams | undefined): Streams {
  const joules = extra?.w_bal;
  const times = extra?.time;
  if (!joules || !times) return streams;
  const time = streams.time ?? [];
  if (time.length === times.length && time.every((value, i) => value === times[i]))
    return { ...streams, w_bal: joules };
  const nearest = (at: number) => {
    let low = 0;
    let high = times.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((times[middle] ?? 0) < at) low = middle + 1;
      else high = middle;
    }
    const before = Math.max(0, low - 1);
    return Math.abs((times[before] ?? 0) - at) < Math.abs((times[low] ?? 0) - at) ? before : low;
  };
  return {
    ...streams,
    w_bal: time.map((at) => (at === null ? null : (joules[nearest(at)] ?? null))),
  };
}

/** The owner's analysis of the ride (intervals, climbs, W' balance); none on a shared page. */
function useAnalysis(id: number | undefined): WorkoutAnalysis | undefined {
  return api.useWorkoutAnalysisQuery(id === undefined ? skipToken : { params: { id } }).data;
}

/**
 * "Compare with…": one of the rider's recent rides to open beside this one on the compare
 * page (the ride list can pick any two).
 */
function CompareWith({ id }: { id: number }) {
  const t = useT();
  const list = api.useListWorkoutsQuery({ query: { page: 1, page_size: 20 } });
  const others = (list.data?.results ?? []).filter((ride) => ride.id !== id);
  const [other, setOther] = useState<number | null>(null);
  const chosen = other ?? others[0]?.id;
  if (chosen === undefined) return null;
  return (
    <p className="portal__actions">
      <label className="portal__inline">
        <Message id="workouts.compareRides.with" />
        <select
          className="xoss-select"
          value={chosen}
          onChange={(event) => setOther(Number(event.target.value))}
        >
          {others.map((ride) => (
            <option key={ride.id} value={ride.id}>
              {ride.name}
            </option>
          ))}
        </select>
      </label>
      <Link className="xoss-button" to={`/dashboard/workouts/compare?a=${id}&b=${chosen}`}>
        {t('workouts.compareRides.open')}
      </Link>
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
  const { pathname, search } = useLocation();
  if (shareId === null) return <OwnRide id={id} />;
  // A link cut short or mistyped can name no ride: said at once, without asking the API.
  return isSharedRideLink(new URL(`${pathname}${search}`, 'http://portal')) ? (
    <SharedRide shareId={shareId} />
  ) : (
    <ShareUnavailable />
  );
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
          <RideNotesText notes={detail.notes} gear={detail.gear} />
          <RideCorrections workout={detail} />
          <Loaded query={streams}>
            {(data) => <Ride workout={detail} streams={data.streams} source={{ id }} />}
          </Loaded>
          <RideManagement workout={detail} />
        </>
      )}
    </Loaded>
  );
}

function SharedRide({ shareId }: { shareId: string }) {
  const args = sharedRide(shareId);
  const workout = api.useSharedWorkoutQuery(args.workout);
  const streams = api.useSharedWorkoutStreamsQuery(args.streams);
  const failed = workout.error ?? streams.error;
  if (failed !== undefined)
    return (
      <ShareUnavailable
        error={failed}
        onRetry={() => {
          void workout.refetch();
          void streams.refetch();
        }}
      />
    );
  return (
    <Loaded query={workout}>
      {(detail) => (
        <>
          <h1>{detail.name}</h1>
          <Loaded query={streams}>
            {(data) => <Ride workout={detail} streams={data.streams} source={{ shareId }} />}
          </Loaded>
        </>
      )}
    </Loaded>
  );
}
