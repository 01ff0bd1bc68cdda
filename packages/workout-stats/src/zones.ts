/** One training zone: its number, name, bounds in percent (low inclusive, high exclusive) and time in it. */
export interface ZoneTime {
  readonly zone: number;
  readonly name: string;
  /** Lower bound, % of max HR or FTP, inclusive. */
  readonly lowPercent: number;
  /** Upper bound, exclusive; `Infinity` for the top zone. */
  readonly highPercent: number;
  readonly seconds: number;
}

/** Time in zones, and what was counted. */
export interface ZoneDistribution {
  readonly zones: readonly ZoneTime[];
  /** Seconds below the first zone (heart rate under 50% of max). */
  readonly belowSeconds: number;
  /** Seconds with a value: the zones plus `belowSeconds`. */
  readonly countedSeconds: number;
}

/** Heart-rate zones by % of max heart rate (spec 3). */
export const heartRateZones = [
  { zone: 1, name: 'Warmup/Recovery', lowPercent: 50, highPercent: 60 },
  { zone: 2, name: 'Aerobic Base', lowPercent: 60, highPercent: 70 },
  { zone: 3, name: 'Aerobic Endurance', lowPercent: 70, highPercent: 80 },
  { zone: 4, name: 'Threshold', lowPercent: 80, highPercent: 90 },
  { zone: 5, name: 'Anaerobic', lowPercent: 90, highPercent: Infinity },
] as const;

/** Power zones by % of FTP (spec 3). */
export const powerZones = [
  { zone: 1, name: 'Active Recovery', lowPercent: 0, highPercent: 55 },
  { zone: 2, name: 'Endurance', lowPercent: 55, highPercent: 75 },
  { zone: 3, name: 'Tempo', lowPercent: 75, highPercent: 88 },
  { zone: 4, name: 'Sweet Spot', lowPercent: 88, highPercent: 95 },
  { zone: 5, name: 'Threshold', lowPercent: 95, highPercent: 105 },
  { zone: 6, name: 'VO2 Max', lowPercent: 105, highPercent: 120 },
  { zone: 7, name: 'Anaerobic Capacity', lowPercent: 120, highPercent: Infinity },
] as const;

type ZoneSpec = {
  readonly zone: number;
  readonly name: string;
  readonly lowPercent: number;
  readonly highPercent: number;
};

function distribute(
  values: ArrayLike<number>,
  reference: number,
  specs: readonly ZoneSpec[],
  weights?: ArrayLike<number>,
): ZoneDistribution {
  if (!(reference > 0)) throw new RangeError('the zone reference (max HR or FTP) must be positive');
  const seconds = specs.map(() => 0);
  let below = 0;
  let counted = 0;
  for (let i = 0; i < values.length; i++) {
    const value = values[i]!;
    if (!Number.isFinite(value)) continue;
    const weight = weights ? weights[i]! : 1;
    counted += weight;
    const percent = (value / reference) * 100;
    const index = specs.findIndex(
      (spec) => percent >= spec.lowPercent && percent < spec.highPercent,
    );
    if (index < 0) below += weight;
    else seconds[index]! += weight;
  }
  return {
    zones: specs.map((spec, index) => ({ ...spec, seconds: seconds[index]! })),
    belowSeconds: below,
    countedSeconds: counted,
  };
}

/**
 * Time in the five heart-rate zones of a 1 Hz heart-rate series (bpm; NaN or 0 = no reading).
 * Intervals are half-open (low <= x < high); Z5 has no upper bound, so readings above the
 * max count in Z5. Readings under 50% count as `belowSeconds`. `weights` (seconds per
 * sample) serve irregular series.
 */
export function heartRateZoneTimes(
  bpm: ArrayLike<number>,
  maxHeartRate: number,
  weights?: ArrayLike<number>,
): ZoneDistribution {
  const readings = Array.from({ length: bpm.length }, (_, i) =>
    bpm[i]! > 0 ? bpm[i]! : Number.NaN,
  );
  return distribute(readings, maxHeartRate, heartRateZones, weights);
}

/**
 * Time in the seven power zones of a 1 Hz power series (W; NaN = no reading). Zero watts
 * (coasting) counts in Z1. Half-open intervals; Z7 has no upper bound.
 */
export function powerZoneTimes(
  watts: ArrayLike<number>,
  ftpWatts: number,
  weights?: ArrayLike<number>,
): ZoneDistribution {
  return distribute(watts, ftpWatts, powerZones, weights);
}
