/** The ten categories data fields are grouped in (spec 3), in the order pickers show them. */
export const categories = [
  'Speed',
  'Chart',
  'Time',
  'General',
  'Distance',
  'Elevation',
  'HeartRate',
  'Cadence',
  'Power',
  'Weather',
] as const;

/** One of the ten data-field categories. */
export type Category = (typeof categories)[number];
