import { z } from '../zod.ts';
import { dayRange, wholeInUrl } from './query.ts';

// --- Ride and training analysis ------------------------------------------------------------

/** Which rides' best curves the power model is fitted to. */
export const powerModelWindowSchema = z.enum(['42d', 'season', 'all']);
export const powerModelQuerySchema = z.strictObject({
  window: powerModelWindowSchema
    .default('42d')
    .describe(
      '`42d`: the rides of the last 42 days (default); `season`: of this calendar year (UTC); `all`: of all time',
    ),
});
/** Why a model has no values: no power, too few efforts to fit, or a fit outside physiology. */
export const powerModelReasonSchema = z.enum(['no_power', 'too_little_data', 'implausible']);
/**
 * Morton's 3-parameter critical power model fitted to the envelope of the best curves; every
 * figure null (with `reason`) when there is too little data or the fit is implausible.
 */
export const powerModelSchema = z.object({
  cp_w: z.number().nullable(),
  w_prime_j: z.number().nullable(),
  pmax_w: z.number().nullable(),
  /** 95 % of the model's 20-minute power. */
  eftp_w: z.number().nullable(),
  /** Shortest and longest durations (seconds) of the curve the fit used. */
  fitted_from: z.number().nullable(),
  fitted_to: z.number().nullable(),
  points_used: z.number().int().nullable(),
  reason: powerModelReasonSchema.nullable(),
});
export const powerModelReplySchema = powerModelSchema.extend({
  window: powerModelWindowSchema,
  /** The days whose rides count, `[from, to)` (ISO dates). */
  from: z.string(),
  to: z.string(),
  /** Rides in the window. */
  workouts: z.number().int(),
});
export const POWER_MODEL_HISTORY_MONTHS_MAX = 24;
export const powerModelHistoryQuerySchema = z.strictObject({
  months: wholeInUrl(z.number().int().min(1).max(POWER_MODEL_HISTORY_MONTHS_MAX))
    .default(12)
    .describe('How many months back (default 12, at most 24)'),
});
export const powerModelHistoryReplySchema = z.object({
  /** Oldest first: the 42-day model on the last day of each month (the current month: today). */
  points: z.array(powerModelSchema.extend({ date: z.string() })),
});

/** Where the CP and W' of a ride's W' balance come from. */
export const modelSourceSchema = z.enum(['model', 'ftp', 'estimate']);
/**
 * Where the FTP of a ride's intervals comes from: the rider's setting, the file (the device's
 * setting), the eFTP of the power model of the 42 days before the ride, or an estimate from
 * the best efforts of those 42 days' rides (`history`) or of the ride itself (`ride`).
 */
export const thresholdSourceSchema = z.enum(['settings', 'file', 'model', 'history', 'ride']);
/** A climb: times in seconds from the ride's start (as the streams' `time`). */
export const climbSchema = z.object({
  start_s: z.number(),
  end_s: z.number(),
  start_distance_m: z.number(),
  end_distance_m: z.number(),
  length_m: z.number(),
  gain_m: z.number(),
  avg_grade_pct: z.number(),
  /** Metres climbed per hour. */
  vam_m_h: z.number(),
  duration_s: z.number(),
  avg_power_w: z.number().nullable(),
  /** Length (m) × grade (%): 8000 and above is category 4. */
  score: z.number(),
  category: z.enum(['HC', '1', '2', '3', '4']).nullable(),
  /**
   * A climb's steeper part (2 points steeper, at most half as long) is a climb of its own,
   * nested: the index in the same list of the climb it lies in (which comes right before
   * it); null for a climb that lies in none.
   */
  parent: z.number().int().nullable(),
});
export const workoutAnalysisSchema = z.object({
  model_source: modelSourceSchema.nullable(),
  /** The CP and W' the W' balance and matches use (null without power or thresholds). */
  cp_w: z.number().nullable(),
  w_prime_j: z.number().nullable(),
  /** The FTP intervals are found against (88 % of it). */
  ftp_w: z.number().nullable(),
  /** Where `ftp_w` comes from (null without power). */
  threshold_source: thresholdSourceSchema.nullable(),
  intervals: z.array(
    z.object({
      start_s: z.number(),
      end_s: z.number(),
      duration_s: z.number(),
      avg_power_w: z.number(),
      np_w: z.number().nullable(),
      avg_hr: z.number().nullable(),
      avg_cadence: z.number().nullable(),
      w_bal_end_j: z.number().nullable(),
    }),
  ),
  climbs: z.array(climbSchema),
  matches: z.array(
    z.object({
      start_s: z.number(),
      end_s: z.number(),
      /** W' spent, J. */
      joules: z.number(),
      /** Lowest balance of the match, J. */
      min_j: z.number(),
    }),
  ),
  w_bal_min_j: z.number().nullable(),
  decoupling_pct: z.number().nullable(),
  efficiency_factor: z.number().nullable(),
});

export const efficiencyQuerySchema = z.strictObject({
  from: dayRange.from.optional(),
  to: dayRange.to.optional(),
});
export const efficiencyReplySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Rides of the range, oldest first, with EF or decoupling (rides without both are left out). */
  points: z.array(
    z.object({
      workout_id: z.number().int(),
      date: z.string(),
      efficiency_factor: z.number().nullable(),
      decoupling_pct: z.number().nullable(),
    }),
  ),
  /** Older rides of the range still to be analysed: asking again brings them. */
  pending: z.number().int(),
});
export const bestClimbsQuerySchema = z.strictObject({
  limit: wholeInUrl(z.number().int().min(1).max(100)).default(10),
  /** A year, or all time when omitted. */
  year: wholeInUrl(z.number().int().min(1970).max(2100)).optional(),
});
export const bestClimbsReplySchema = z.object({
  /** Hardest first (by score). */
  climbs: z.array(
    climbSchema.extend({
      workout_id: z.number().int(),
      name: z.string(),
      start_time: z.string(),
    }),
  ),
  pending: z.number().int(),
});

export type PowerModelReply = z.infer<typeof powerModelReplySchema>;
export type PowerModelHistoryReply = z.infer<typeof powerModelHistoryReplySchema>;
export type WorkoutAnalysis = z.infer<typeof workoutAnalysisSchema>;
export type Climb = z.infer<typeof climbSchema>;
export type EfficiencyReply = z.infer<typeof efficiencyReplySchema>;
export type BestClimbsReply = z.infer<typeof bestClimbsReplySchema>;
