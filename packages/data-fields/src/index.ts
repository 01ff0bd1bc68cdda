export {
  METRES_PER_MILE,
  distanceInUserUnit,
  temperatureInUserUnit,
  usesMiles,
  type DistanceUnitSetting,
  type TemperatureUnit,
} from './units.ts';
