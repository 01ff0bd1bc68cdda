import { RANGE_MAX_S } from './bounds.ts';
import { z } from './zod.ts';
import { PASSWORD_MIN_LENGTH, settingBounds } from './bounds.ts';

// Request and reply bodies of the XOSS API (docs/api.md). Objects are strict: unknown members of
// a request are a validation error, so a PATCH cannot smuggle `owner_id` or `id`.

// Path and query values arrive as text. `Number()` (what `z.coerce` uses) also reads " 1",
// "1.0", "+1", "3e0" and "0x10", so one resource would have many URLs and a scanner could
// slip odd spellings past checks made on the text. These read one spelling only: plain
// decimal digits, no sign, space, exponent or leading zero. Anything else is a 10400.
const WHOLE = /^(?:0|[1-9]\d*)$/;
const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * A number written in a URL as `pattern` allows, then checked by `schema` (its bounds). A
 * number (a caller in the same process) goes to `schema` as it is.
 */
function numberInUrl<S extends z.ZodNumber>(pattern: RegExp, what: string, schema: S) {
  return z.preprocess((value, context) => {
    if (typeof value !== 'string') return value;
    if (pattern.test(value)) return Number(value);
    context.addIssue({ code: 'custom', input: value, message: `Expected ${what}` });
    return z.NEVER;
  }, schema);
}

/** A whole number in a path or query: decimal digits only (`12`, never `012`, `1e1`, `0xc`). */
const wholeInUrl = <S extends z.ZodNumber>(schema: S) =>
  numberInUrl(WHOLE, 'a whole number written in decimal digits (0-9)', schema);

/** A number with an optional decimal fraction (`12`, `12.5`), no sign or exponent. */
const decimalInUrl = <S extends z.ZodNumber>(schema: S) =>
  numberInUrl(DECIMAL, 'a number written in decimal digits (0-9, optionally a fraction)', schema);

/** A positive database id as it appears in a path (`/workouts/12/`). */
export const idParamSchema = z.object({
  id: wholeInUrl(z.number().int().positive().max(2_147_483_647)),
});

export const pageQuerySchema = z.strictObject({
  page: wholeInUrl(z.number().int().min(1).max(100_000)).default(1),
  page_size: wholeInUrl(z.number().int().min(1).max(100)).default(20),
});

/** A paginated list reply (`data` of the envelope). */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    count: z.number().int().min(0),
    next: z.string().nullable(),
    previous: z.string().nullable(),
    results: z.array(item),
  });
}

// --- Auth (spec 7) -------------------------------------------------------------------------

export const loginRequestSchema = z.strictObject({
  email: z.string().trim().min(3).max(254).email(),
  password: z.string().min(1).max(1024),
});
export const loginReplySchema = z.object({
  access: z.string(),
  refresh: z.string(),
  id: z.string(),
});
export const refreshRequestSchema = z.strictObject({ refresh: z.string().min(1).max(4096) });
export const refreshReplySchema = z.object({ access: z.string(), refresh: z.string() });

// --- Passwords and sessions --------------------------------------------------------------

/** A new password: at least `PASSWORD_MIN_LENGTH` characters once trimmed (the sign-up rule). */
export const newPasswordSchema = z
  .string()
  .max(1024)
  .refine((value) => value.trim().length >= PASSWORD_MIN_LENGTH, {
    message: `The password needs at least ${PASSWORD_MIN_LENGTH} characters (spaces around it do not count)`,
  });
// --- Export archives imported in one go ----------------------------------------------------

export const archiveIdParamSchema = z.object({ id: z.uuid() });
/** An activity of an archive that was not imported, and why. */
export const archiveFailureSchema = z.object({
  /** Its path in the archive (`activities/123.fit.gz`, or inside a nested zip). */
  name: z.string(),
  /** An error code (10415, 10413, ...) or a reason (`zipBomb`, `unsafePath`, `link`, `tooLarge`, `nestedTooDeep`, `csv`). */
  code: z.string(),
  message: z.string(),
});
export const archiveImportSchema = z.object({
  id: z.uuid(),
  status: z.enum(['queued', 'running', 'done', 'cancelled', 'failed']),
  /** Activities found in the archive; null until its walk has listed them. */
  total: z.number().int().nullable(),
  /** Activities settled: imported, duplicates and failures. */
  done: z.number().int(),
  imported: z.number().int(),
  duplicates: z.number().int(),
  failed: z.number().int(),
  failures: z.array(archiveFailureSchema),
  created_at: z.string(),
  finished_at: z.string().nullable(),
  /** Why the archive as a whole could not be read (status `failed`). */
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export const archiveCreatedSchema = z.object({ id: z.uuid() });
export type ArchiveImport = z.infer<typeof archiveImportSchema>;

/** Deleting the account asks for its password. */
export const accountDeleteRequestSchema = z.strictObject({
  password: z.string().min(1).max(1024),
});
export const passwordChangeRequestSchema = z.strictObject({
  current_password: z.string().min(1).max(1024),
  new_password: newPasswordSchema,
});
export const passwordResetRequestSchema = z.strictObject({
  email: z.string().trim().min(3).max(254).email(),
});
/** The token of a reset link: 32 random bytes in base64url. */
export const passwordResetConfirmSchema = z.strictObject({
  token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Not a password reset token'),
  password: newPasswordSchema,
});
/** A signed-in session (a refresh-token family) of the rider. */
export const accountSessionSchema = z.object({
  /** The session's id (for signing it out). */
  id: z.uuid(),
  /** Browser and system read from its User-Agent, e.g. "Firefox on Linux"; "Unknown" if none. */
  browser: z.string(),
  /** When it signed in, and when it last got new tokens (ISO 8601, UTC). */
  created_at: z.string(),
  last_used_at: z.string(),
  /** The address it last got new tokens from; null for sessions from before it was kept. */
  ip: z.string().nullable(),
  /** Whether this is the session of the token that asks. */
  current: z.boolean(),
});
export const sessionIdParamSchema = z.object({ id: z.uuid() });
export const signedOutReplySchema = z.object({ signed_out: z.number().int().min(0) });

// --- Athlete (spec 3, 7) -------------------------------------------------------------------

const bounded = (name: keyof typeof settingBounds) =>
  z.number().int().min(settingBounds[name].min).max(settingBounds[name].max);

export const athleteSettingsSchema = z.object({
  ftp: z.number().int().min(0).max(2000).nullable(),
  max_hr: z.number().int().min(0).max(260).nullable(),
  /** 0 kilometres, 1 miles (spec 3). */
  distance_unit: z.union([z.literal(0), z.literal(1)]),
  temperature_unit: z.enum(['c', 'f']),
  /** Metres of a shared ride's start and end that its map never shows (privacy). */
  privacy_trim_m: z.number().int().min(0).max(5000),
  /** Whether a newly shared ride shows heart rate and power (each ride can override). */
  share_heart_rate: z.boolean(),
  share_power: z.boolean(),
  /** Body weight in kg, for W/kg; null when not given. */
  weight_kg: z
    .number()
    .min(settingBounds.weight_kg.min)
    .max(settingBounds.weight_kg.max)
    .nullable(),
  /**
   * How the FTP estimate is read from the season's power curve: `hour` the best 60-minute
   * average power, `twenty` 95 % of the best 20-minute average.
   */
  ftp_rule: z.enum(['hour', 'twenty']),
});
export const athleteSchema = z.object({
  id: z.string(),
  uuid: z.string(),
  username: z.string(),
  email: z.string(),
  profile: z.object({ avatar_url: z.string().nullable() }),
  settings: athleteSettingsSchema,
});
export const athletePatchSchema = z.strictObject({
  username: z.string().trim().min(1).max(64).optional(),
  settings: athleteSettingsSchema
    .extend({
      ftp: bounded('ftp').nullable(),
      max_hr: bounded('max_hr').nullable(),
      privacy_trim_m: bounded('privacy_trim_m'),
    })
    .partial()
    .strict()
    .optional(),
  /**
   * The date (ISO) from which a new FTP or max heart rate applies; default today. Rides from
   * that date (until the next change) are recomputed with it.
   */
  thresholds_from: z.iso.date().optional(),
});

// --- Workouts --------------------------------------------------------------------------------

/** The spec's sport types 0-11. */
export const sportTypeSchema = z.number().int().min(0).max(11);

export const workoutSummarySchema = z.object({
  /** Null when nothing in the file measures distance (no distance, position or speed). */
  distance_m: z.number().nullable(),
  /** From the speed sensor; the distance when there is none; null when neither is known. */
  estimated_distance_m: z.number().nullable(),
  /** Elapsed time: from the first sample to the end of the last. */
  total_time_s: z.number(),
  /** The time the device's timer ran (its "Time"). */
  timer_time_s: z.number(),
  /** The part of the timer time spent moving. */
  moving_time_s: z.number(),
  /** Timer stopped (auto-pause, pause): elapsed minus timer time. */
  paused_time_s: z.number(),
  /** Timer running while standing still: timer minus moving time. */
  stopped_time_s: z.number(),
  speed_avg_ms: z.number().nullable(),
  speed_max_ms: z.number().nullable(),
  hr_avg: z.number().nullable(),
  hr_max: z.number().nullable(),
  power_avg: z.number().nullable(),
  power_max: z.number().nullable(),
  np: z.number().nullable(),
  if: z.number().nullable(),
  tss: z.number().nullable(),
  cadence_avg: z.number().nullable(),
  cadence_max: z.number().nullable(),
  calories_kcal: z.number().nullable(),
  /** Whose calories: the device's own total, or ours from work (power) or heart rate. */
  calories_source: z.enum(['device', 'power', 'heart_rate']).nullable(),
  elevation_gain_m: z.number().nullable(),
  elevation_loss_m: z.number().nullable(),
  /** Whose climbing: the device's own totals, or ours from the altitude (3 m filter). */
  elevation_source: z.enum(['device', 'computed']).nullable(),
  /** Whose NP, IF and TSS: the device's (with its FTP), or ours. */
  np_source: z.enum(['device', 'computed']).nullable(),
  grade_max: z.number().nullable(),
  grade_min: z.number().nullable(),
  lr_balance_left: z.number().nullable(),
  torque_effectiveness: z.number().nullable(),
  pedal_smoothness: z.number().nullable(),
});

export const zoneSchema = z.object({
  zone: z.number().int(),
  name: z.string(),
  low: z.number(),
  high: z.number().nullable(),
  seconds: z.number(),
});

export const workoutListItemSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  sport_type: sportTypeSchema,
  start_time: z.string(),
  indoor: z.boolean(),
  /** Null when nothing in the file measures distance (a trainer without a speed source). */
  distance_m: z.number().nullable(),
  moving_time_s: z.number(),
  timer_time_s: z.number(),
  total_time_s: z.number(),
  speed_avg_ms: z.number().nullable(),
  hr_avg: z.number().nullable(),
  power_avg: z.number().nullable(),
  elevation_gain_m: z.number().nullable(),
  tss: z.number().nullable(),
  shared: z.boolean(),
});

/** One session of a multisport file: our figures beside the device's. */
export const workoutSessionSchema = z.object({
  sport_type: sportTypeSchema,
  /** Seconds from the ride's start. */
  start_s: z.number(),
  end_s: z.number(),
  timer_time_s: z.number(),
  moving_time_s: z.number(),
  distance_m: z.number(),
  device_timer_time_s: z.number().nullable(),
  device_distance_m: z.number().nullable(),
});

export const workoutDetailSchema = workoutListItemSchema.extend({
  share_id: z.string().nullable(),
  /** The rider's notes ('' when none). */
  notes: z.string(),
  /** The laps the device recorded, with its own figures per lap (none for GPX). */
  laps: z.array(
    z.object({
      /** Seconds from the ride's start. */
      start_s: z.number(),
      timer_time_s: z.number().nullable(),
      elapsed_time_s: z.number().nullable(),
      distance_m: z.number().nullable(),
      speed_avg_ms: z.number().nullable(),
      speed_max_ms: z.number().nullable(),
      hr_avg: z.number().nullable(),
      hr_max: z.number().nullable(),
      power_avg: z.number().nullable(),
      power_max: z.number().nullable(),
      cadence_avg: z.number().nullable(),
      elevation_gain_m: z.number().nullable(),
    }),
  ),
  /** What the share link shows (the ride's choice, else the rider's default). */
  share_heart_rate: z.boolean(),
  share_power: z.boolean(),
  summary: workoutSummarySchema,
  /** The values the device itself stored in the FIT session message, as stored. */
  device_summary: z.record(z.string(), z.union([z.number(), z.string(), z.array(z.number())])),
  hr_zones: z.array(zoneSchema),
  power_zones: z.array(zoneSchema),
  /** The FTP the ride's IF, TSS and power zones use, and where it comes from. */
  ftp: z.number().nullable(),
  ftp_source: z.enum(['file', 'settings', 'estimate']).nullable(),
  /** The max heart rate of the ride's heart-rate zones, and where it comes from. */
  max_hr: z.number().nullable(),
  max_hr_source: z.enum(['file', 'settings', 'ride']).nullable(),
  sessions: z.array(workoutSessionSchema),
  /** Set when the file was damaged (cut short, bad CRC): what could be read. */
  damage: z
    .object({
      code: z.string(),
      message_id: z.string(),
      message: z.string(),
      /** Seconds of the ride that could be read. */
      read_time_s: z.number(),
    })
    .nullable(),
  /** The original file's format: `fit`, `tcx`, `gpx`, each possibly `.gz`. */
  file_format: z.enum(['fit', 'tcx', 'gpx', 'fit.gz', 'tcx.gz', 'gpx.gz']),
  bounds: z
    .object({
      min_lat: z.number(),
      min_lon: z.number(),
      max_lat: z.number(),
      max_lon: z.number(),
    })
    .nullable(),
});

/**
 * An import's reply: the ride, and how many more activities its file held (a chained FIT
 * file, a TCX file with several `<Activity>`): each is imported as a ride of its own, queued
 * after this one (they appear in the list as they land).
 */
export const workoutImportReplySchema = workoutDetailSchema.extend({
  other_activities: z.number().int().min(0),
});

/** Which workouts a list or a total covers. */
const workoutFilter = {
  sport_type: wholeInUrl(z.number().int().min(0).max(11)).optional(),
  /** `true`: only the rides shared by link. */
  shared: z.enum(['true', 'false']).optional(),
  /** ISO dates (inclusive from, exclusive to). */
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
};

/** A `from` after `to` covers nothing: a mistake to say, not an empty list to show. */
const orderedDates = (query: { from?: string | undefined; to?: string | undefined }) =>
  query.from === undefined || query.to === undefined || query.from <= query.to;
const datesMessage = { message: 'The From date is after the To date', path: ['from'] };

export const workoutListQuerySchema = pageQuerySchema
  .extend(workoutFilter)
  .refine(orderedDates, datesMessage);

export const workoutTotalsQuerySchema = z
  .strictObject(workoutFilter)
  .refine(orderedDates, datesMessage);

/** Sums over every workout the filter covers, however many. */
export const workoutTotalsSchema = z.object({
  count: z.number().int(),
  distance_m: z.number(),
  moving_time_s: z.number(),
  elevation_gain_m: z.number(),
});

/** A workout's name, as PATCH and the import's `name` field take it. */
const workoutNameSchema = z.string().trim().min(1).max(120);

export const workoutPatchSchema = z.strictObject({
  name: workoutNameSchema.optional(),
  sport_type: sportTypeSchema.optional(),
  /** The rider's own words about the ride (how it felt, the weather), up to 4,000 characters. */
  notes: z.string().max(4000).optional(),
  shared: z.boolean().optional(),
  /** What the share link shows of this ride; unset rides follow the rider's settings. */
  share_heart_rate: z.boolean().optional(),
  share_power: z.boolean().optional(),
});

/** A place inside which no shared ride shows its track (home, work). */
export const privacyZoneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  radius_m: z.number(),
});
export const privacyZoneCreateSchema = z.strictObject({
  name: z.string().trim().min(1).max(60),
  latitude: z.number().min(-90).max(90),
  longitude: z.number().min(-180).max(180),
  radius_m: z.number().int().min(100).max(5000),
});

/**
 * A shared ride as anyone with the link sees it: the rider's display name, date and sport,
 * no account data; positions inside privacy zones and the trimmed start and end removed on
 * the server; heart rate and power only when the rider shows them.
 */
export const sharedWorkoutSchema = z.object({
  name: z.string(),
  sport_type: sportTypeSchema,
  start_time: z.string(),
  indoor: z.boolean(),
  rider: z.object({ display_name: z.string() }),
  summary: workoutSummarySchema,
  hr_zones: z.array(zoneSchema),
  power_zones: z.array(zoneSchema),
  ftp: z.number().nullable(),
  max_hr: z.number().nullable(),
  /** Of the visible track only. */
  bounds: z
    .object({ min_lat: z.number(), min_lon: z.number(), max_lat: z.number(), max_lon: z.number() })
    .nullable(),
  shows: z.object({ heart_rate: z.boolean(), power: z.boolean() }),
  /** What the map leaves out: the figures are of the whole ride, the track is partial. */
  privacy: z.object({
    hidden_start_m: z.number(),
    hidden_end_m: z.number(),
    zones_applied: z.boolean(),
  }),
});
export const unshareAllReplySchema = z.object({ unshared: z.number().int() });

/** The text fields of a FIT import (multipart, beside the file). */
export const workoutImportFieldsSchema = z.strictObject({
  name: workoutNameSchema.optional(),
  /**
   * `keep`: import the file even though it starts when one of the rider's rides does (the
   * same ride cut short, or a second device's): without it such a file is refused with
   * 409 naming that ride (`workouts.overlap`), and the rider chooses.
   */
  overlap: z.enum(['keep']).optional(),
});

export const streamNames = [
  'time',
  'distance',
  'speed',
  'power',
  'heart_rate',
  'cadence',
  'altitude',
  'latitude',
  'longitude',
  'temperature',
  'grade',
  'lr_balance',
  'torque_effectiveness',
  'pedal_smoothness',
  // A muscle-oxygen sensor's: saturation (SmO2, %) and total haemoglobin (THb, g/dL).
  'smo2',
  'thb',
  // W' balance (J) after each sample: computed when sent, from the ride's power and the
  // CP and W' its analysis uses (`GET /api/v2/workouts/{id}/analysis/`), never stored.
  'w_bal',
] as const;
/**
 * Decimals each stream is sent with: a sensor's own resolution or finer (0.01 m, 1 mm/s,
 * 0.1 W, 1e-6 degree ~ 0.1 m of position), not the 17 digits of a computed double. The
 * statistics of a range are computed on the server from the full-resolution streams.
 */
export const STREAM_DECIMALS: Readonly<Record<(typeof streamNames)[number], number>> = {
  time: 3,
  distance: 2,
  speed: 3,
  power: 1,
  heart_rate: 1,
  cadence: 1,
  altitude: 2,
  latitude: 6,
  longitude: 6,
  temperature: 1,
  grade: 2,
  lr_balance: 1,
  torque_effectiveness: 1,
  pedal_smoothness: 1,
  // The FIT file stores SmO2 to 0.1 % and THb to 0.01 g/dL.
  smo2: 1,
  thb: 2,
  w_bal: 0,
};
/** Points per stream the streams endpoints send when not asked (the ride page asks this). */
export const STREAM_POINTS_DEFAULT = 4000;
/** Most points per stream they send: a reply never grows with the ride. */
export const STREAM_POINTS_MAX = 20_000;
export const streamsQuerySchema = z.strictObject({
  /**
   * Largest number of points per stream (default 4000, at most 20,000); the server
   * downsamples (min/max preserving).
   */
  points: wholeInUrl(z.number().int().min(10).max(STREAM_POINTS_MAX)).default(
    STREAM_POINTS_DEFAULT,
  ),
  streams: z
    .string()
    .transform((text, context) => {
      const names = text.split(',').filter((name) => name !== '');
      const unknown = names.filter((name) => !(streamNames as readonly string[]).includes(name));
      if (unknown.length > 0 || names.length === 0) {
        context.addIssue({
          code: 'custom',
          message: `streams: a comma-separated list of ${streamNames.join(', ')}${unknown.length > 0 ? `; unknown: ${unknown.join(', ')}` : ''}`,
        });
        return z.NEVER;
      }
      return names as (typeof streamNames)[number][];
    })
    .optional()
    .describe(
      'Comma-separated stream names to send (default: all the ride has): the ride page asks for the ones it draws',
    ),
});
export const streamsReplySchema = z.object({
  length: z.number().int(),
  /**
   * Seconds from the start; `null` stands for a missing sample (JSON has no NaN). Each
   * stream is rounded to its `STREAM_DECIMALS`.
   */
  streams: z
    .partialRecord(z.enum(streamNames), z.array(z.number().nullable()))
    .describe(
      'Columns by name, rounded: time 0.001 s, distance 0.01 m, speed 0.001 m/s, altitude and grade 0.01, latitude and longitude 1e-6 degree, thb (total haemoglobin) 0.01 g/dL, the rest 0.1 (smo2: muscle oxygen saturation in %)',
    ),
});

/** A range of a ride by time: seconds from its start, `to` exclusive. */
export const rangeQuerySchema = z
  .strictObject({
    from: decimalInUrl(z.number().min(0).max(RANGE_MAX_S)),
    to: decimalInUrl(z.number().min(0).max(RANGE_MAX_S)),
  })
  .refine((range) => range.to > range.from, {
    message: '"to" must be after "from"',
    path: ['to'],
  });
/** The statistics of a range, computed on the full-resolution streams (as the summary is). */
export const rangeReplySchema = z.object({
  from_s: z.number(),
  to_s: z.number(),
  samples: z.number().int(),
  summary: workoutSummarySchema,
});

export const comparisonSchema = z.union([
  z.literal('none'),
  z.literal('last6weeks'),
  z.literal('currentYear'),
  z.string().regex(/^year:\d{4}$/),
]);
/** Durations per curve the curve endpoint sends when not asked (a phone's chart is ~300 px). */
export const CURVE_POINTS_DEFAULT = 200;
/** Most durations per curve it sends. */
export const CURVE_POINTS_MAX = 2000;
/** Curves the curve endpoint adds when asked (`include`): not stored, computed from the streams. */
export const extraCurveNames = ['heart_rate', 'pace'] as const;
export const powerCurveQuerySchema = z.strictObject({
  compare: comparisonSchema.default('none'),
  points: wholeInUrl(z.number().int().min(2).max(CURVE_POINTS_MAX))
    .default(CURVE_POINTS_DEFAULT)
    .describe(
      'Durations per curve (default 200, at most 2000; all of a shorter curve): 1 s, the longest, and log-spaced between, every second while the steps would be shorter',
    ),
  at: wholeInUrl(z.number().int().min(1).max(RANGE_MAX_S))
    .optional()
    .describe(
      'One duration in seconds: every curve answers with that duration alone (the exact value the rider points at); none when the curve is shorter',
    ),
  include: z
    .string()
    .transform((text, context) => {
      const names = text.split(',').filter((name) => name !== '');
      const unknown = names.filter(
        (name) => !(extraCurveNames as readonly string[]).includes(name),
      );
      if (unknown.length > 0 || names.length === 0) {
        context.addIssue({
          code: 'custom',
          message: `include: a comma-separated list of ${extraCurveNames.join(', ')}`,
        });
        return z.NEVER;
      }
      return names as (typeof extraCurveNames)[number][];
    })
    .optional()
    .describe(
      'Comma-separated extra curves computed from the streams when asked: `heart_rate` (best mean bpm over each duration), `pace` (fastest s/km held over each duration)',
    ),
});
export const curveSchema = z.object({
  /**
   * Durations in seconds, ascending: log-spaced from 1 s to the curve's length (or the one
   * duration asked with `at`). Each value is the exact mean-max value at its duration.
   */
  durations: z
    .array(z.number().int())
    .describe('Seconds, ascending, log-spaced from 1 to the longest (or the one asked by `at`)'),
  values: z
    .array(z.number().nullable())
    .describe('The exact mean-max value at each duration (not interpolated)'),
});
export const powerCurveReplySchema = z.object({
  power: curveSchema.nullable(),
  speed: curveSchema.nullable(),
  compare: comparisonSchema,
  comparison: z
    .object({ power: curveSchema.nullable(), speed: curveSchema.nullable(), workouts: z.number() })
    .nullable(),
  ftp_estimate: z.number().nullable(),
  /** Asked with `include=heart_rate`: best mean heart rate (bpm); null without heart rate. */
  heart_rate: curveSchema.nullable().optional(),
  /** Asked with `include=pace`: fastest pace (s/km; null where never moving); null without speed. */
  pace: curveSchema.nullable().optional(),
  /** The past years (UTC) in which the rider rode, newest first: what `year:` can compare. */
  years_with_rides: z.array(z.number().int()),
});

// --- Training over time --------------------------------------------------------------------

/** A range of UTC days: `from` inclusive, `to` exclusive (ISO dates). */
const dayRange = {
  from: z.iso.date(),
  to: z.iso.date(),
};

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
});
export const workoutAnalysisSchema = z.object({
  model_source: modelSourceSchema.nullable(),
  /** The CP and W' the W' balance and matches use (null without power or thresholds). */
  cp_w: z.number().nullable(),
  w_prime_j: z.number().nullable(),
  /** The FTP intervals are found against (88 % of it). */
  ftp_w: z.number().nullable(),
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

// --- Devices and layouts --------------------------------------------------------------------

export const deviceModelSchema = z.enum(['NAV', 'NAV+', 'SPRINT', 'G2', 'G2+', 'G', 'G+']);
export const deviceSchema = z.object({
  id: z.number().int(),
  serial: z.string(),
  model: deviceModelSchema,
  firmware_version: z.string(),
  manufacture: z.string(),
  created_at: z.string(),
});
export const deviceBindSchema = z.strictObject({
  serial: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9-]{6,32}$/, 'A serial number is 6-32 letters, digits or dashes'),
  model: deviceModelSchema,
});
/** The layout document: the device's panels.json (validated against the model's profile). */
export const layoutDocumentSchema = z.record(z.string(), z.unknown());

// --- Routebooks -----------------------------------------------------------------------------

export const routebookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  distance_m: z.number(),
  elevation_gain_m: z.number(),
  elevation_loss_m: z.number(),
  points: z.number().int(),
  has_time: z.boolean(),
  bounds: z.object({
    min_lat: z.number(),
    min_lon: z.number(),
    max_lat: z.number(),
    max_lon: z.number(),
  }),
  /** The simplified line for previews, as [lat, lon] pairs. */
  preview: z.array(z.tuple([z.number(), z.number()])),
  created_at: z.string(),
  /**
   * The rider's devices it was sent to ("Send to device"): `synced_at` is null until the
   * phone app has copied it onto the device and acknowledged it.
   */
  devices: z.array(
    z.object({
      device_id: z.number().int(),
      marked_at: z.string(),
      synced_at: z.string().nullable(),
    }),
  ),
});
const routebookTitleSchema = z.string().trim().min(1, 'Please check required fields').max(120);
const routebookDescriptionSchema = z.string().trim().max(2000);
export const routebookFieldsSchema = z.strictObject({
  title: routebookTitleSchema,
  description: routebookDescriptionSchema.default(''),
});
/** Rename a routebook or change its description; at least one of the two. */
export const routebookPatchSchema = z
  .strictObject({
    title: routebookTitleSchema.optional(),
    description: routebookDescriptionSchema.optional(),
  })
  .refine((patch) => patch.title !== undefined || patch.description !== undefined, {
    message: 'Give a title or a description',
  });
/** "Send to device": the rider's device the routebook is to be copied onto at its next sync. */
export const routebookSendSchema = z.strictObject({
  device_id: z.number().int().positive().max(2_147_483_647),
});
/** A routebook waiting on a device, as the phone app lists it before a sync. */
export const deviceRoutebookSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  description: z.string(),
  distance_m: z.number(),
  elevation_gain_m: z.number(),
  points: z.number().int(),
  marked_at: z.string(),
  /** The GPX file (`GET`, the rider's bearer token): the routebook's own download. */
  download_url: z.string(),
});
/** What the phone app acknowledges after copying routebooks onto the device. */
export const deviceRoutebooksSyncedSchema = z.strictObject({
  routebook_ids: z.array(z.number().int().positive().max(2_147_483_647)).min(1).max(100),
});

// --- Maps -----------------------------------------------------------------------------------

export const mapRegionSchema = z.object({
  id: z.number().int(),
  model: deviceModelSchema,
  name: z.string(),
  /** Area as [min lon, min lat, max lon, max lat]. */
  bbox: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  size_bytes: z.number().int(),
  /** Estimated import time on the device, in seconds. */
  import_seconds: z.number().int(),
  download_url: z.string(),
});
export const mapRegionQuerySchema = z.strictObject({ model: deviceModelSchema.optional() });

// --- Articles -------------------------------------------------------------------------------

export const postSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  body: z.string(),
  language: z.string(),
  author: z.string(),
  likes: z.number().int(),
  liked: z.boolean(),
  comments: z.number().int(),
  created_at: z.string(),
});
export const postListQuerySchema = pageQuerySchema.extend({
  language: z
    .string()
    .regex(/^[a-zA-Z-]{2,10}$/)
    .optional(),
});
export const postCreateSchema = z.strictObject({
  title: z.string().trim().min(1).max(200),
  body: z.string().trim().min(1).max(20_000),
  language: z
    .string()
    .regex(/^[a-zA-Z-]{2,10}$/)
    .default('en'),
});
export const commentSchema = z.object({
  id: z.number().int(),
  author: z.string(),
  body: z.string(),
  created_at: z.string(),
});
export const commentCreateSchema = z.strictObject({ body: z.string().trim().min(1).max(2000) });
export const likeReplySchema = z.object({ likes: z.number().int(), liked: z.boolean() });

// --- Service --------------------------------------------------------------------------------

export const healthReplySchema = z.object({ status: z.literal('ok') });
export const readyReplySchema = z.object({ status: z.literal('ready'), database: z.literal('ok') });

export type LoginRequest = z.input<typeof loginRequestSchema>;
export type LoginReply = z.infer<typeof loginReplySchema>;
export type RefreshReply = z.infer<typeof refreshReplySchema>;
export type Athlete = z.infer<typeof athleteSchema>;
export type AthleteSettings = z.infer<typeof athleteSettingsSchema>;
export type AthletePatch = z.input<typeof athletePatchSchema>;
export type WorkoutListItem = z.infer<typeof workoutListItemSchema>;
export type WorkoutDetail = z.infer<typeof workoutDetailSchema>;
export type WorkoutImportReply = z.infer<typeof workoutImportReplySchema>;
export type WorkoutListQuery = z.input<typeof workoutListQuerySchema>;
export type WorkoutTotals = z.infer<typeof workoutTotalsSchema>;
export type WorkoutPatch = z.input<typeof workoutPatchSchema>;
export type StreamsReply = z.infer<typeof streamsReplySchema>;
export type RangeReply = z.infer<typeof rangeReplySchema>;
export type SharedWorkout = z.infer<typeof sharedWorkoutSchema>;
export type PrivacyZone = z.infer<typeof privacyZoneSchema>;
export type WorkoutSession = z.infer<typeof workoutSessionSchema>;
export type StreamName = (typeof streamNames)[number];
export type Comparison = z.infer<typeof comparisonSchema>;
export type PowerCurveReply = z.infer<typeof powerCurveReplySchema>;
export type FitnessReply = z.infer<typeof fitnessReplySchema>;
export type FitnessDay = z.infer<typeof fitnessDaySchema>;
export type PeriodTotals = z.infer<typeof periodTotalsSchema>;
export type TrainingLogReply = z.infer<typeof trainingLogReplySchema>;
export type TrainingTotalsReply = z.infer<typeof trainingTotalsReplySchema>;
export type Effort = z.infer<typeof effortSchema>;
export type PersonalBestsReply = z.infer<typeof personalBestsReplySchema>;
export type WorkoutBestsReply = z.infer<typeof workoutBestsReplySchema>;
export type FtpEstimateReply = z.infer<typeof ftpEstimateReplySchema>;
export type PowerModelReply = z.infer<typeof powerModelReplySchema>;
export type PowerModelHistoryReply = z.infer<typeof powerModelHistoryReplySchema>;
export type WorkoutAnalysis = z.infer<typeof workoutAnalysisSchema>;
export type Climb = z.infer<typeof climbSchema>;
export type EfficiencyReply = z.infer<typeof efficiencyReplySchema>;
export type BestClimbsReply = z.infer<typeof bestClimbsReplySchema>;
export type Device = z.infer<typeof deviceSchema>;
export type DeviceModel = z.infer<typeof deviceModelSchema>;
export type DeviceBind = z.input<typeof deviceBindSchema>;
export type Routebook = z.infer<typeof routebookSchema>;
export type RoutebookPatch = z.input<typeof routebookPatchSchema>;
export type DeviceRoutebook = z.infer<typeof deviceRoutebookSchema>;
export type MapRegion = z.infer<typeof mapRegionSchema>;
export type Post = z.infer<typeof postSchema>;
export type PostCreate = z.input<typeof postCreateSchema>;
export type Comment = z.infer<typeof commentSchema>;
export type Page<T> = { count: number; next: string | null; previous: string | null; results: T[] };
