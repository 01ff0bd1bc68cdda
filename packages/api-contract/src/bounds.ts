/**
 * What a rider may set, in one place: the API refuses values outside these and the portal's
 * form says so before sending. FTP from a beginner's 50 W to beyond a world-class 700 W;
 * a maximum heart rate a human heart reaches (100-230 bpm); a date no later than today.
 */
export const settingBounds = {
  ftp: { min: 50, max: 700 },
  max_hr: { min: 100, max: 230 },
  privacy_trim_m: { min: 0, max: 5000 },
  /** Body weight in kg (one decimal), for W/kg. */
  weight_kg: { min: 20, max: 300 },
  /** Running threshold pace, seconds per kilometre (2:00 to 15:00 /km). */
  threshold_pace_s_per_km: { min: 120, max: 900 },
} as const;

/** The largest second a ride's range may name: `to` at this value means "to the ride's end". */
export const RANGE_MAX_S = 10_000_000;

/**
 * The fewest characters a new password may have, once the white space around it is trimmed
 * (the API trims before hashing): the one rule for create-user, a password change and a
 * reset, so the portal's forms can say so before sending.
 */
export const PASSWORD_MIN_LENGTH = 8;
