// The shapes `parseGpx` takes and gives: its limits and the route with its point columns.

/** Limits of `parseGpx`; each is checked while reading, so no input can exhaust them. */
export interface GpxLimits {
  /** Largest input in bytes (UTF-8), checked before parsing. Default 64 MiB. */
  readonly maxBytes?: number;
  /** Deepest element nesting. Default 32. */
  readonly maxDepth?: number;
  readonly maxAttributes?: number;
  readonly maxAttributeLength?: number;
  /** Longest text of one element (name, description), in characters. Default 1 Mi. */
  readonly maxTextLength?: number;
  readonly maxPoints?: number;
  /**
   * Time budget in milliseconds: the reading's own CPU time in Node 23.9 and later (load on the
   * machine does not count against a file), wall time in a browser or an older Node. Default
   * 2000.
   */
  readonly timeBudgetMs?: number;
  /** Tolerance of the preview line, in metres. Default 10. */
  readonly simplifyToleranceM?: number;
}

/** Track or route points as columns (NaN = absent): degrees, metres, Unix seconds, bpm, rpm, W, °C. */
export interface GpxPoints {
  readonly length: number;
  readonly latitude: Float64Array;
  readonly longitude: Float64Array;
  readonly elevation: Float64Array;
  readonly time: Float64Array;
  readonly heartRate: Float64Array;
  readonly cadence: Float64Array;
  readonly power: Float64Array;
  readonly temperature: Float64Array;
}

/** A track segment or a route: a named range of `points`. */
export interface GpxPart {
  readonly kind: 'track' | 'route';
  readonly name?: string;
  readonly start: number;
  readonly end: number;
}

export interface GpxWaypoint {
  readonly latitude: number;
  readonly longitude: number;
  readonly elevation?: number;
  readonly name?: string;
}

/** A parsed GPX file with what a route preview and an upload need. */
export interface GpxRoute {
  /** The file's (or first track's or route's) name and description, as plain text. */
  readonly name?: string;
  readonly description?: string;
  readonly points: GpxPoints;
  readonly parts: readonly GpxPart[];
  readonly waypoints: readonly GpxWaypoint[];
  /** Metres along the points, within each part. */
  readonly distanceM: number;
  readonly elevationGainM: number;
  readonly elevationLossM: number;
  readonly bounds: {
    readonly minLatitude: number;
    readonly minLongitude: number;
    readonly maxLatitude: number;
    readonly maxLongitude: number;
  };
  /** Whether points carry times (recorded tracks do; planned routes do not). */
  readonly hasTime: boolean;
  /** Indices into `points` of a simplified line for previews. */
  readonly preview: Uint32Array;
}
