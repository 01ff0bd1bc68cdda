/** The ride page's map in a chunk of its own: OpenLayers, fetched after what the charts need. */
export const loadRideMap = () => import('./RideMap.tsx');
