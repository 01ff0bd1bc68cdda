import { RouteMap, type LonLat } from '@xoss/ui-kit';
import { TILE_URL } from '../config.ts';

/**
 * The ride page's map in a chunk of its own: OpenLayers (the portal's largest library) and
 * the tiles load only when the map's place comes into view, never before the charts.
 */
export function RideMap({ track, marker }: { track: LonLat[]; marker: number | null }) {
  return <RouteMap track={track} marker={marker} tileUrl={TILE_URL} />;
}
