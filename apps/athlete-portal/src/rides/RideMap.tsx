import { RouteMap, type LonLat, type TrackSegment } from '@xoss/ui-kit';
import { TILE_URL } from '../config.ts';

/**
 * The ride page's map in a chunk of its own: OpenLayers (the portal's largest library) and
 * the tiles load only when the map's place comes into view, never before the charts. The
 * ride's climbs are picked out along the track (`segments`).
 */
export function RideMap({
  track,
  marker,
  segments,
}: {
  track: LonLat[];
  marker: number | null;
  segments?: readonly TrackSegment[];
}) {
  return (
    <RouteMap
      track={track}
      marker={marker}
      tileUrl={TILE_URL}
      {...(segments ? { segments } : {})}
    />
  );
}
