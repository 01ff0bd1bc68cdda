import { RANGE_MAX_S } from '../bounds.ts';
import { z } from '../zod.ts';
import { decimalInUrl, wholeInUrl } from './query.ts';
import { workoutSummarySchema } from './workouts.ts';

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

export type StreamsReply = z.infer<typeof streamsReplySchema>;
export type RangeReply = z.infer<typeof rangeReplySchema>;
export type StreamName = (typeof streamNames)[number];
export type Comparison = z.infer<typeof comparisonSchema>;
export type PowerCurveReply = z.infer<typeof powerCurveReplySchema>;
