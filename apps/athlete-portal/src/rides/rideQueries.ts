import type { StreamName } from '@xoss/api-contract';

/**
 * The ride page's calls, shared by the page and its route's loader: the loader starts them
 * with the navigation, while the page's chunk is still loading, and the page's hooks find
 * them in the cache (same arguments, same cache entry).
 */

/**
 * Points per stream the charts ask for: four per CSS pixel of the window's width on a wide
 * screen (each bucket keeps its minimum and its maximum, and a zoom to a quarter still has
 * one per pixel), three on a phone (a zoom to a third; 6 kB less on mobile data), from 1,000
 * on a phone's width to 4,000 on a wide screen.
 */
const ridePoints = (width: number) =>
  Math.min(4000, Math.max(1000, Math.round((width * (width < 600 ? 3 : 4)) / 100) * 100));

/** Fixed once per page load, so the loader's prefetch and the page's hooks share an entry. */
const RIDE_POINTS = ridePoints(typeof window === 'undefined' ? 1280 : window.innerWidth);

/**
 * The streams the ride page draws (the charts, muscle oxygen among them, and the map's
 * track): the ride's others (distance, grade, temperature, pedalling dynamics) stay on the
 * server.
 */
const RIDE_STREAMS: StreamName[] = [
  'time',
  'speed',
  'altitude',
  'heart_rate',
  'cadence',
  'power',
  'latitude',
  'longitude',
  'smo2',
  'thb',
];

export const ownRide = (id: number) => ({
  workout: { params: { id } },
  streams: { params: { id }, query: { points: RIDE_POINTS, streams: RIDE_STREAMS } },
});

/**
 * The owner's page also draws the W' balance (computed by the API from the ride's power),
 * asked for with the analysis once the page is scrolled below the first charts: the same
 * points as the other streams, and their times to lay it on the same axis.
 */
export const ownRideWBal = (id: number) => ({
  params: { id },
  query: { points: RIDE_POINTS, streams: ['time', 'w_bal'] satisfies StreamName[] },
});

export const sharedRide = (shareId: string) => ({
  workout: { params: { share_id: shareId } },
  streams: { params: { share_id: shareId }, query: { points: RIDE_POINTS, streams: RIDE_STREAMS } },
});

/** The power-curve page's first call (compared with the last 6 weeks, as the page opens). */
export const curvesOf = (id: number) => ({
  params: { id },
  query: { compare: 'last6weeks' as const },
});

/**
 * A ride page opened through its share link (`share/ride?share=<share id>`; older links name
 * the ride's id instead of `ride`).
 */
export const isSharedRideLink = (url: URL) =>
  /^\/dashboard\/workouts\/share\/(\d+|ride)\/?$/.test(url.pathname) &&
  /^[A-Za-z0-9_-]{16,64}$/.test(url.searchParams.get('share') ?? '');
