export { DAY_MS, addDays, dayOf, daysBetween, mondayOf, startOfDay } from './days.ts';
export { rollingAverage } from './rollingAverage.ts';
export {
  NP_WINDOW_SECONDS,
  intensityFactor,
  normalizedPower,
  trainingStressScore,
  tssSeconds,
} from './normalizedPower.ts';
export {
  estimateFtp,
  meanMaxCurve,
  meanMaxCurveRange,
  meanMaxCurveReference,
  mergeCurves,
  powerCurveEnvelope,
  type MeanMaxCurve,
} from './meanMax.ts';
export {
  heartRateZoneTimes,
  heartRateZones,
  powerZoneTimes,
  powerZones,
  type ZoneDistribution,
  type ZoneTime,
} from './zones.ts';
export {
  ELEVATION_HYSTERESIS_M,
  GRADE_DISTANCE_M,
  elevationGainLoss,
  gradeSeries,
} from './elevation.ts';
export { downsampleMinMax } from './downsample.ts';
export {
  GROSS_EFFICIENCY,
  summarizeRange,
  summarizeSessions,
  summarizeWorkout,
  withFtp,
  type RiderSettings,
  type SessionWindow,
  type SummaryOptions,
  type WorkoutSummary,
} from './summary.ts';
export {
  MAX_HOLD_S,
  MAX_SERIES_S,
  MOVING_SPEED_MS,
  PAUSE_GAP_S,
  clipTimer,
  haversineMetres,
  normalizeTimer,
  oneHertzSeries,
  sampleIndexAt,
  timeline,
  timerFromSamples,
  type Timeline,
  type TimerIntervals,
} from './timeline.ts';
export { seededRandom, simulateRide, type SimulationOptions } from './simulate.ts';
export type { RideStreams } from './streams.ts';
export {
  ATL_DAYS,
  BEST_DISTANCES_M,
  BEST_DISTANCE_MIN_S_PER_KM,
  BEST_POWER_MAX_W,
  BEST_POWER_DURATIONS_S,
  CTL_DAYS,
  RAMP_DAYS,
  bestPowers,
  decayLoad,
  fastestDistances,
  fitnessSeries,
  loadGain,
  nextLoad,
  type FitnessDay,
  type LoadState,
} from './training.ts';
export {
  EFTP_SHARE_OF_20_MIN,
  PMAX_MAX_SHARE_OF_1S,
  POWER_MODEL_FROM_S,
  POWER_MODEL_TO_S,
  WORK_MODEL_FROM_S,
  WORK_MODEL_TO_S,
  W_PRIME_MAX_J,
  W_PRIME_MIN_J,
  checkPowerModel,
  fitPowerModel,
  fitRiderPowerModel,
  fitTwoParameterModel,
  powerModelAt,
  type PowerModel,
  type PowerModelBounds,
  type PowerModelCheck,
  type PowerModelOptions,
  type PowerModelReason,
  type RiderPowerModel,
  type TwoParameterModel,
} from './powerModel.ts';
export {
  MATCH_MIN_J,
  MATCH_SMOOTH_S,
  matchesBurnt,
  wPrimeBalance,
  type Match,
  type MatchOptions,
  type WPrimeBalanceOptions,
} from './wbal.ts';
export {
  INTERVAL_EDGE_SHARE,
  INTERVAL_LAP_SNAP_S,
  INTERVAL_WORK_LAP_HELD,
  INTERVAL_WORK_LAP_RATIO,
  INTERVAL_MERGE_GAP_S,
  INTERVAL_MERGE_MAX_S,
  INTERVAL_MERGE_SHARE,
  INTERVAL_MIN_S,
  INTERVAL_SHORT_MIN_S,
  INTERVAL_SHORT_SHARE,
  INTERVAL_SMOOTH_S,
  INTERVAL_STANDOUT_RATIO,
  INTERVAL_SURROUNDINGS_S,
  INTERVAL_THRESHOLD_SHARE,
  describeInterval,
  findIntervals,
  type IntervalOptions,
  type IntervalStreams,
  type WorkoutInterval,
} from './intervals.ts';
export {
  DECOUPLING_MIN_S,
  DECOUPLING_WARMUP_S,
  decoupling,
  efficiencyFactor,
  type DecouplingOptions,
} from './decoupling.ts';
export {
  CLIMB_DIP_M,
  CLIMB_MAX_VAM_MH,
  CLIMB_MIN_GRADE_PCT,
  CLIMB_MIN_LENGTH_M,
  CLIMB_MIN_SCORE,
  CLIMB_NESTED_MAX_SHARE,
  CLIMB_NESTED_STEP_PCT,
  CLIMB_SMOOTH_M,
  CLIMB_TRIM_M,
  findClimbs,
  type Climb,
  type ClimbCategory,
  type ClimbOptions,
} from './climbs.ts';
export { heartRateCurve, paceCurve } from './curves.ts';
export {
  ALTITUDE_MAX_RATE,
  CADENCE_CEILING_RPM,
  HEART_RATE_MAX_RATE,
  HEART_RATE_RANGE_BPM,
  NEIGHBOUR_SAMPLES,
  POWER_CEILING_W,
  POWER_SPIKE_FLOOR_W,
  POWER_SPIKE_MAX_SAMPLES,
  POWER_SPIKE_RATIO,
  RIDE_MAX_GAP_S,
  cleanStreams,
  sportTopSpeedMs,
  type CleanOptions,
  type CleaningCounts,
} from './clean.ts';
export { clockSeries, SMART_RECORDING_GAP_S } from './efforts.ts';
export {
  HR_REST_DEFAULT_BPM,
  HR_THRESHOLD_OF_MAX,
  heartRateSecondsByBpm,
  heartRateStressScore,
} from './heartRateStress.ts';
export { normalizedGradedSpeed, paceStressScore, runningCost } from './paceStress.ts';
