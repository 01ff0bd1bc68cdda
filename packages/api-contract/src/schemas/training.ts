import { z } from '../zod.ts';
import { dayRange, wholeInUrl } from './query.ts';

// --- Training over time --------------------------------------------------------------------

/** The longest fitness chart a call may ask for, in days (20 years). */
export const FITNESS_MAX_DAYS = 7_320;

/** Fitness chart: omit `from` for all time (from the first ride), `to` for up to today. */
export const fitnessQuerySchema = z.strictObject({
  from: dayRange.from.optional(),
  to: dayRange.to.optional(),
});
export const fitnessDaySchema = z.object({
  day: z.string(),
  tss: z.number(),
  /** Chronic training load (fitness), 42-day exponentially weighted average of daily TSS. */
  ctl: z.number(),
  /** Acute training load (fatigue), 7-day. */
  atl: z.number(),
  /** ctl − atl. */
  form: z.number(),
  /** ctl − ctl of 7 days before. */
  ramp: z.number(),
});
export const fitnessReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** The first day with a ride, or null without rides. */
  first_day: z.string().nullable(),
  days: z.array(fitnessDaySchema),
});

/** Totals of a day, a week or a month. */
export const periodTotalsSchema = z.object({
  /** The first day of the period (a week starts on Monday). */
  start: z.string(),
  rides: z.number().int(),
  moving_time_s: z.number(),
  distance_m: z.number(),
  elevation_gain_m: z.number(),
  tss: z.number(),
});

/** The training log: days `[from, to)`, at most 62. */
export const trainingLogQuerySchema = z.strictObject(dayRange);
export const trainingLogRideSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sport_type: z.number().int(),
  start_time: z.string(),
  moving_time_s: z.number(),
  distance_m: z.number(),
  elevation_gain_m: z.number().nullable(),
  tss: z.number().nullable(),
});
export const trainingLogReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Every day of the range, with or without rides. */
  days: z.array(periodTotalsSchema.extend({ rides_list: z.array(trainingLogRideSchema) })),
  /** Weeks (Monday to Sunday) that overlap the range, totals of their days inside it. */
  weeks: z.array(periodTotalsSchema),
});

export const trainingTotalsQuerySchema = z.strictObject({
  year: wholeInUrl(z.number().int().min(1970).max(2100)),
  period: z.enum(['week', 'month']),
});
export const trainingTotalsReplySchema = z.object({
  year: z.number().int(),
  period: z.enum(['week', 'month']),
  /** Every week (Monday of weeks with a day in the year) or month of the year, also empty ones. */
  periods: z.array(periodTotalsSchema),
});

/** Effort names: `power_<seconds>s` (W, higher is better), `time_<metres>m` (s, lower). */
export const effortSchema = z.enum([
  'power_5s',
  'power_60s',
  'power_300s',
  'power_1200s',
  'power_3600s',
  'time_10000m',
  'time_20000m',
  'time_40000m',
  // A run's own (running power, running pace), never a ride's.
  'run_power_60s',
  'run_power_300s',
  'run_power_1200s',
  'run_time_1000m',
  'run_time_5000m',
  'run_time_10000m',
  'run_time_21098m',
  'run_time_42195m',
]);
export const bestEntrySchema = z.object({
  rank: z.number().int(),
  value: z.number(),
  workout_id: z.number().int(),
  name: z.string(),
  start_time: z.string(),
});
export const personalBestsQuerySchema = z.strictObject({
  /** A year, or all time when omitted. */
  year: wholeInUrl(z.number().int().min(1970).max(2100)).optional(),
  /** How many of each effort, best first (default 3). */
  limit: wholeInUrl(z.number().int().min(1).max(20)).default(3),
  /** Whose bests: cycling's (default), or running's (power and pace of runs only). */
  sport: z.enum(['ride', 'run']).default('ride'),
});
export const personalBestsReplySchema = z.object({
  year: z.number().int().nullable(),
  efforts: z.array(z.object({ effort: effortSchema, bests: z.array(bestEntrySchema) })),
});
/** One ride's efforts and where they rank in its year and of all time (1 = the best). */
export const workoutBestsReplySchema = z.object({
  year: z.number().int(),
  efforts: z.array(
    z.object({
      effort: effortSchema,
      value: z.number(),
      year_rank: z.number().int(),
      all_time_rank: z.number().int(),
    }),
  ),
  /** The FTP this ride suggests by the rider's rule, when it beats the FTP it was ridden at. */
  ftp_suggestion: z.number().nullable(),
});

export const ftpEstimateQuerySchema = z.strictObject({
  /** The season: the days up to today whose rides count (default 365). */
  days: wholeInUrl(z.number().int().min(7).max(3660)).default(365),
});
const seasonBestSchema = z
  .object({ value: z.number(), workout_id: z.number().int(), start_time: z.string() })
  .nullable();
export const ftpEstimateReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  rule: z.enum(['hour', 'twenty']),
  best_60min: seasonBestSchema,
  best_20min: seasonBestSchema,
  /** Best 60-minute average power (the spec's rule). */
  estimate_hour: z.number().nullable(),
  /** 95 % of the best 20-minute average power. */
  estimate_twenty: z.number().nullable(),
  /** The estimate by the rider's rule. */
  estimate: z.number().nullable(),
  /** The FTP in force today (the rider's setting). */
  ftp: z.number().nullable(),
  /** The estimate, when it is above the FTP in force; null otherwise. */
  suggestion: z.number().nullable(),
  weight_kg: z.number().nullable(),
  /** The FTP and max heart rate history every ride's figures use (oldest first). */
  history: z.array(
    z.object({ from: z.string(), ftp: z.number().nullable(), max_hr: z.number().nullable() }),
  ),
});

export type FitnessReply = z.infer<typeof fitnessReplySchema>;
export type FitnessDay = z.infer<typeof fitnessDaySchema>;
export type PeriodTotals = z.infer<typeof periodTotalsSchema>;
export type TrainingLogReply = z.infer<typeof trainingLogReplySchema>;
export type TrainingTotalsReply = z.infer<typeof trainingTotalsReplySchema>;
export type Effort = z.infer<typeof effortSchema>;
export type PersonalBestsReply = z.infer<typeof personalBestsReplySchema>;
export type WorkoutBestsReply = z.infer<typeof workoutBestsReplySchema>;
export type FtpEstimateReply = z.infer<typeof ftpEstimateReplySchema>;
