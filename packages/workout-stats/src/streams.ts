/** Streams of a ride at 1 Hz, in base units; `undefined` channels were not recorded. */
export interface RideStreams {
  /** Seconds since the start. */
  readonly time: Float64Array;
  /** Watts. */
  readonly power?: Float64Array;
  /** Beats per minute. */
  readonly heartRate?: Float64Array;
  /** Revolutions per minute. */
  readonly cadence?: Float64Array;
  /** Metres per second. */
  readonly speed?: Float64Array;
  /** Metres since the start. */
  readonly distance?: Float64Array;
  /** Metres above sea level. */
  readonly altitude?: Float64Array;
  /** Degrees. */
  readonly latitude?: Float64Array;
  readonly longitude?: Float64Array;
  /** Degrees Celsius. */
  readonly temperature?: Float64Array;
  /** Percent of power from the left leg. */
  readonly leftRightBalance?: Float64Array;
  /** Percent. */
  readonly torqueEffectiveness?: Float64Array;
  /** Percent. */
  readonly pedalSmoothness?: Float64Array;
}
