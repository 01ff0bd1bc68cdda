import { z } from '../zod.ts';
import { pageQuerySchema } from './common.ts';
import { wholeInUrl } from './query.ts';

// --- Workouts --------------------------------------------------------------------------------

/** The spec's sport types 0-11. */
export const sportTypeSchema = z.number().int().min(0).max(11);

export const workoutSummarySchema = z.object({
  /**
   * The device's own total where it recorded one for the whole ride (`distance_source`), else
   * ours from the cleaned streams. Null when nothing in the file measures distance (no
   * distance, position or speed).
   */
  distance_m: z.number().nullable(),
  /** Whose distance: the device's own total, or ours from the streams. */
  distance_source: z.enum(['device', 'computed']).nullable(),
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
  /**
   * What the TSS measures: power against FTP, or, for a ride without power (or FTP), heart
   * rate against the max heart rate (HRSS: an hour at threshold heart rate = 100); for a run
   * with the rider's threshold pace, its normalized graded pace against it (rTSS).
   */
  tss_method: z.enum(['power', 'heart_rate', 'pace']).nullable(),
  grade_max: z.number().nullable(),
  grade_min: z.number().nullable(),
  lr_balance_left: z.number().nullable(),
  torque_effectiveness: z.number().nullable(),
  pedal_smoothness: z.number().nullable(),
  /**
   * What the import took out of the file's streams before computing any figure (samples no
   * rider produced: power spikes, heart rate outside 25-250 bpm, impossible speeds, points
   * whose time or position left the ride), by channel; the file itself is kept as it was.
   * Null for a range, and for rides imported before the cleaning.
   */
  removed_samples: z
    .object({
      points: z.number().int(),
      power: z.number().int(),
      heart_rate: z.number().int(),
      cadence: z.number().int(),
      speed: z.number().int(),
      distance: z.number().int(),
    })
    .nullable(),
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
  /** The bike (or shoes) the ride was done with, in the rider's words; null when not said. */
  gear: z.string().nullable(),
  /**
   * Left out of the rider's bests, best curves, power model and training load (the rider's
   * choice); the ride itself stays, with its figures.
   */
  exclude_from_bests: z.boolean(),
  /**
   * What the rider kept of the recording: seconds from its first sample; null when whole.
   * The original file stays as it was, so a crop can be undone.
   */
  crop: z.object({ start_s: z.number(), end_s: z.number() }).nullable(),
  /**
   * Where the ride as shown (its streams' time 0) begins in the recording: seconds from the
   * recording's first sample. Later than `crop.start_s` when the cleaning left out the first
   * samples or the crop began in a pause; what a crop typed against the ride as shown adds
   * (`crop` counts from the recording). Null for a ride analysed before it was kept.
   */
  recording_offset_s: z.number().nullable(),
  /** The rider kept the samples the cleaning would take out (`summary.removed_samples`). */
  keep_removed: z.boolean(),
  /**
   * Why the ride's date is doubtful (dated more than a day ahead, or before 1990: a device
   * whose clock was never set): such a ride counts in no total, best or training load until
   * its date is fixed (PATCH `start_time`).
   */
  date_warning: z.enum(['future', 'before_1990']).nullable(),
  /** Seconds the rider moved the ride's clock by (0 when as recorded). */
  time_shift_s: z.number(),
  /** The FTP the file itself stores (the device's setting), which the rider may choose. */
  file_ftp: z.number().nullable(),
  /** `file`: the rider chose the file's FTP for this ride over their own (PATCH `ftp_choice`). */
  ftp_choice: z.enum(['file', 'settings']),
  /**
   * The legs of the multisport file this ride is one of (a triathlon's swim, T1, bike, T2
   * and run), in order, this one included; empty for a file of one sport.
   */
  legs: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      sport_type: sportTypeSchema,
      start_time: z.string(),
    }),
  ),
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

/**
 * The furthest a crop may reach, in seconds (31 days): past any recording an import takes
 * (14 days by default). The server also refuses a crop past the ride's own recording.
 */
export const MAX_RECORDING_S = 31 * 86_400;
/** The earliest start of a ride: 1990-01-01 (FIT's clock counts from the last day of 1989). */
export const EARLIEST_RIDE_MS = Date.UTC(1990, 0, 1);

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
  gear: z.string().trim().max(120).nullable().optional(),
  /** Leave the ride out of bests, best curves, the power model and training load (or not). */
  exclude_from_bests: z.boolean().optional(),
  /**
   * Keep only `start_s` to `end_s`, seconds from the recording's first sample (as the
   * detail's `crop`: a client adds the current crop's `start_s` to seconds of the ride as
   * shown), so the same request sent twice crops once; null puts the whole recording back.
   * The figures follow; the file stays as it was.
   */
  crop: z
    .object({
      start_s: z.number().min(0).max(MAX_RECORDING_S),
      end_s: z.number().positive().max(MAX_RECORDING_S),
    })
    .refine((crop) => crop.end_s > crop.start_s, {
      message: 'The end is before the start',
      path: ['end_s'],
    })
    .nullable()
    .optional(),
  /** Keep the samples the cleaning took out (true), or take them out again (false). */
  keep_removed: z.boolean().optional(),
  /**
   * When the ride really started (ISO time): its clock is moved, figures and days follow.
   * From 1990 (the FIT clock's first year) until the server's tomorrow (checked there).
   */
  start_time: z.iso
    .datetime({ offset: true })
    .refine((value) => Date.parse(value) >= EARLIEST_RIDE_MS, {
      message: 'A ride can start in 1990 or later',
    })
    .optional(),
  /** `file`: measure this ride against the FTP its file stores; `settings`: the rider's. */
  ftp_choice: z.enum(['file', 'settings']).optional(),
});

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

export type WorkoutListItem = z.infer<typeof workoutListItemSchema>;
export type WorkoutDetail = z.infer<typeof workoutDetailSchema>;
export type WorkoutImportReply = z.infer<typeof workoutImportReplySchema>;
export type WorkoutListQuery = z.input<typeof workoutListQuerySchema>;
export type WorkoutTotals = z.infer<typeof workoutTotalsSchema>;
export type WorkoutPatch = z.input<typeof workoutPatchSchema>;
export type WorkoutSession = z.infer<typeof workoutSessionSchema>;
