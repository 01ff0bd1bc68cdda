// Over 300 lines: every migration in order, append-only; one file keeps their order obvious.
// The schema, as numbered migrations: never edit one that has shipped; add the next.
export const migrations: readonly string[] = [
  `
CREATE TABLE users (
  id serial PRIMARY KEY,
  uuid uuid NOT NULL UNIQUE,
  email text NOT NULL,
  username text NOT NULL,
  password_hash text NOT NULL,
  avatar_url text,
  ftp integer,
  max_hr integer,
  distance_unit integer NOT NULL DEFAULT 0,
  temperature_unit text NOT NULL DEFAULT 'c',
  active boolean NOT NULL DEFAULT true,
  token_version integer NOT NULL DEFAULT 0,
  quota_bytes bigint NOT NULL DEFAULT 536870912,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

CREATE TABLE refresh_tokens (
  jti uuid PRIMARY KEY,
  family uuid NOT NULL,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  auth_time bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint,
  revoked_at bigint
);
CREATE INDEX refresh_tokens_family ON refresh_tokens (family);
CREATE INDEX refresh_tokens_user ON refresh_tokens (user_id);

CREATE TABLE workouts (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  sport_type integer NOT NULL,
  start_time timestamptz NOT NULL,
  indoor boolean NOT NULL,
  distance_m double precision NOT NULL,
  moving_time_s double precision NOT NULL,
  total_time_s double precision NOT NULL,
  speed_avg_ms double precision,
  hr_avg double precision,
  power_avg double precision,
  elevation_gain_m double precision,
  tss double precision,
  summary jsonb NOT NULL,
  device_summary jsonb NOT NULL,
  bounds jsonb,
  share_id text UNIQUE,
  file_key text NOT NULL,
  file_bytes integer NOT NULL,
  idempotency_key text,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, idempotency_key)
);
CREATE INDEX workouts_user_start ON workouts (user_id, start_time DESC, id DESC);

CREATE TABLE workout_streams (
  workout_id integer PRIMARY KEY REFERENCES workouts (id) ON DELETE CASCADE,
  length integer NOT NULL,
  data bytea NOT NULL
);

CREATE TABLE workout_curves (
  workout_id integer PRIMARY KEY REFERENCES workouts (id) ON DELETE CASCADE,
  power bytea,
  speed bytea
);

CREATE TABLE devices (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  serial text NOT NULL,
  model text NOT NULL,
  firmware_version text NOT NULL,
  manufacture text NOT NULL,
  layout jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (user_id, serial)
);

CREATE TABLE routebooks (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text NOT NULL,
  distance_m double precision NOT NULL,
  elevation_gain_m double precision NOT NULL,
  elevation_loss_m double precision NOT NULL,
  points integer NOT NULL,
  has_time boolean NOT NULL,
  bounds jsonb NOT NULL,
  preview jsonb NOT NULL,
  file_key text NOT NULL,
  file_name text NOT NULL,
  file_bytes integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX routebooks_user ON routebooks (user_id, id DESC);

CREATE TABLE map_regions (
  id serial PRIMARY KEY,
  model text NOT NULL,
  name text NOT NULL,
  bbox jsonb NOT NULL,
  file_key text NOT NULL,
  size_bytes bigint NOT NULL
);

CREATE TABLE posts (
  id serial PRIMARY KEY,
  author_id integer REFERENCES users (id) ON DELETE SET NULL,
  author_name text NOT NULL,
  language text NOT NULL,
  title text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_language ON posts (language, id DESC);

CREATE TABLE post_likes (
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  PRIMARY KEY (post_id, user_id)
);

CREATE TABLE post_comments (
  id serial PRIMARY KEY,
  post_id integer NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  user_id integer REFERENCES users (id) ON DELETE SET NULL,
  author_name text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX post_comments_post ON post_comments (post_id, id)
`,
  // 2: the zone times of the detail page, cached with the FTP and max HR settings they used.
  `ALTER TABLE workouts ADD COLUMN zones jsonb`,
  // 3: a digest of the upload beside its Idempotency-Key: the key sent again with another
  // file is refused (422) instead of answering with the first workout.
  `ALTER TABLE workouts ADD COLUMN idempotency_hash text`,
  // 4: a device is bound to one account at most (serials are stored in upper case).
  `CREATE UNIQUE INDEX devices_serial ON devices (serial)`,
  // 5: storage reserved by uploads in flight, so simultaneous uploads cannot overrun a quota.
  `
CREATE TABLE quota_reservations (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  bytes bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX quota_reservations_user ON quota_reservations (user_id)
`,
  // 6: the device's timer, sessions, damage and format of each ride; the FTP and max heart
  // rate it was ridden at (the file's, else the rider's settings on its date) and the
  // history of those settings.
  `
ALTER TABLE workouts
  ADD COLUMN timer_time_s double precision,
  ADD COLUMN timer jsonb,
  ADD COLUMN sessions jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN damage jsonb,
  ADD COLUMN file_format text NOT NULL DEFAULT 'fit',
  ADD COLUMN file_ftp integer,
  ADD COLUMN file_max_hr integer,
  ADD COLUMN ftp integer,
  ADD COLUMN ftp_source text,
  ADD COLUMN max_hr integer,
  ADD COLUMN max_hr_source text;
UPDATE workouts SET timer_time_s = moving_time_s;
UPDATE workouts w SET ftp = u.ftp, ftp_source = CASE WHEN u.ftp IS NULL THEN NULL ELSE 'settings' END,
  max_hr = u.max_hr, max_hr_source = CASE WHEN u.max_hr IS NULL THEN NULL ELSE 'settings' END
  FROM users u WHERE u.id = w.user_id;
ALTER TABLE workouts ALTER COLUMN timer_time_s SET NOT NULL;
CREATE TABLE athlete_thresholds (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  effective_from date NOT NULL,
  ftp integer,
  max_hr integer,
  PRIMARY KEY (user_id, effective_from)
);
INSERT INTO athlete_thresholds (user_id, effective_from, ftp, max_hr)
  SELECT id, DATE '1970-01-01', ftp, max_hr FROM users WHERE ftp IS NOT NULL OR max_hr IS NOT NULL
`,
  // 7: what a shared ride shows: the trimmed start and end, privacy zones, and whether heart
  // rate and power are shown (the rider's default, and each ride's choice).
  `
ALTER TABLE users
  ADD COLUMN privacy_trim_m integer NOT NULL DEFAULT 300,
  ADD COLUMN share_heart_rate boolean NOT NULL DEFAULT true,
  ADD COLUMN share_power boolean NOT NULL DEFAULT true;
ALTER TABLE workouts ADD COLUMN share_heart_rate boolean, ADD COLUMN share_power boolean;
CREATE TABLE privacy_zones (
  id serial PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name text NOT NULL,
  latitude double precision NOT NULL,
  longitude double precision NOT NULL,
  radius_m integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX privacy_zones_user ON privacy_zones (user_id, id)
`,
  // 8: a rotated refresh token remembers what replaced it (the new token's id and issue time,
  // and its access token's id), so within the grace window the same pair can be signed again
  // for a client whose answer was lost (a tab closed or navigated during the refresh).
  `
ALTER TABLE refresh_tokens
  ADD COLUMN successor uuid,
  ADD COLUMN successor_iat bigint,
  ADD COLUMN successor_access uuid
`,
  // 9: ride management: the rider's notes, and the digest of the imported file, so the same
  // file imported twice is caught (and concurrent twins cannot both land).
  `
ALTER TABLE workouts ADD COLUMN notes text NOT NULL DEFAULT '', ADD COLUMN file_sha256 text;
CREATE UNIQUE INDEX workouts_user_file ON workouts (user_id, file_sha256) WHERE file_sha256 IS NOT NULL
`,
  // 10: training over time. Each rider's totals per UTC day with rides (TSS, moving time,
  // distance, climbing, rides) with the fitness (CTL) and fatigue (ATL) at the end of that
  // day, kept in step on import, delete and FTP change, so the fitness chart of any range
  // starts from the last row before it; and each ride's personal-best efforts (score: the
  // power, or minus the seconds, so higher is always better), computed at import; the rides
  // stored before are marked `bests_pending` and computed after start (`backfillBests`).
  `
CREATE TABLE daily_load (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  day date NOT NULL,
  tss double precision NOT NULL,
  moving_time_s double precision NOT NULL,
  distance_m double precision NOT NULL,
  elevation_gain_m double precision NOT NULL,
  rides integer NOT NULL,
  ctl double precision NOT NULL,
  atl double precision NOT NULL,
  PRIMARY KEY (user_id, day)
);
INSERT INTO daily_load (user_id, day, tss, moving_time_s, distance_m, elevation_gain_m, rides, ctl, atl)
  SELECT user_id, (start_time AT TIME ZONE 'UTC')::date, coalesce(sum(tss), 0), sum(moving_time_s),
         sum(distance_m), coalesce(sum(elevation_gain_m), 0), count(*), 0, 0
    FROM workouts GROUP BY 1, 2;
UPDATE daily_load d SET ctl = s.ctl, atl = s.atl FROM (
  SELECT a.user_id, a.day,
         sum(b.tss * (1 - exp(-1 / 42.0::float8)) * exp(-(a.day - b.day) / 42.0::float8)) AS ctl,
         sum(b.tss * (1 - exp(-1 / 7.0::float8)) * exp(-(a.day - b.day) / 7.0::float8)) AS atl
    FROM daily_load a JOIN daily_load b ON b.user_id = a.user_id AND b.day <= a.day
   GROUP BY a.user_id, a.day) s
 WHERE d.user_id = s.user_id AND d.day = s.day;
CREATE TABLE workout_bests (
  workout_id integer NOT NULL REFERENCES workouts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  effort text NOT NULL,
  value double precision NOT NULL,
  score double precision NOT NULL,
  start_time timestamptz NOT NULL,
  PRIMARY KEY (workout_id, effort)
);
CREATE INDEX workout_bests_rank ON workout_bests (user_id, effort, score DESC, start_time);
ALTER TABLE users ADD COLUMN weight_kg double precision, ADD COLUMN ftp_rule text NOT NULL DEFAULT 'hour';
ALTER TABLE workouts ADD COLUMN bests_pending boolean NOT NULL DEFAULT true;
ALTER TABLE workouts ALTER COLUMN bests_pending SET DEFAULT false
`,
  // 11: each rider's best power and speed curves per UTC year, week and day (the
  // envelope of the rides' stored curves), so a comparison reads a few rows whatever the
  // rider's history. Periods that already have rides are marked stale and rebuilt from
  // their rides the first time they are needed.
  `
CREATE TABLE best_curves (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  period text NOT NULL,
  power bytea,
  speed bytea,
  workouts integer NOT NULL DEFAULT 0,
  stale boolean NOT NULL DEFAULT false,
  PRIMARY KEY (user_id, period)
);
INSERT INTO best_curves (user_id, period, stale)
  SELECT DISTINCT user_id, 'Y' || to_char(start_time AT TIME ZONE 'UTC', 'YYYY'), true FROM workouts;
INSERT INTO best_curves (user_id, period, stale)
  SELECT DISTINCT user_id, 'W' || to_char(date_trunc('week', start_time AT TIME ZONE 'UTC'), 'YYYY-MM-DD'), true FROM workouts;
INSERT INTO best_curves (user_id, period, stale)
  SELECT DISTINCT user_id, 'D' || to_char(start_time AT TIME ZONE 'UTC', 'YYYY-MM-DD'), true FROM workouts
`,
  // 12: the laps the device recorded (its own totals per lap), shown on the ride page.
  `
ALTER TABLE workouts ADD COLUMN laps jsonb NOT NULL DEFAULT '[]'::jsonb
`,
  // 13: imports are jobs on the queue (pg-boss, its own schema): the upload's file is stored
  // and a row here says what became of it. Login attempts are counted in the database, so
  // every API process sees the same limits; signing keys may be kept here too (several
  // processes on one database without JWT_SECRET share them).
  `
CREATE TABLE imports (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  file_key text NOT NULL,
  file_bytes integer NOT NULL,
  options jsonb NOT NULL,
  status text NOT NULL DEFAULT 'uploading',
  file_gone boolean NOT NULL DEFAULT false,
  workout_id integer REFERENCES workouts (id) ON DELETE SET NULL,
  error jsonb,
  attempts integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX imports_user_status ON imports (user_id, status);
CREATE UNIQUE INDEX imports_file_key ON imports (file_key);
ALTER TABLE workouts ADD COLUMN import_id uuid;
CREATE UNIQUE INDEX workouts_import ON workouts (import_id);
CREATE TABLE login_attempts (
  id bigserial PRIMARY KEY,
  key text NOT NULL,
  at_ms bigint NOT NULL
);
CREATE INDEX login_attempts_key ON login_attempts (key, at_ms);
CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  retired_at timestamptz
)
`,
  // 14: sessions end when they should. A rotated refresh token records a fingerprint of the
  // caller that rotated it (SHA-256 of token id, address and User-Agent), so a replay within
  // the grace window from anyone else is theft. Access tokens name their family, and every
  // request asks whether it is revoked: the partial index holds only revoked rows, so for a
  // live session that answer reads nothing, however many rotations it has made.
  `
ALTER TABLE refresh_tokens ADD COLUMN rotated_by text;
CREATE INDEX refresh_tokens_family_revoked ON refresh_tokens (family) WHERE revoked_at IS NOT NULL
`,
  // 15: a ride's streams (tens of MB for the longest) go to the file store: written inside
  // the database they held its one connection for seconds (the embedded database runs one
  // statement at a time). Rows stored before keep theirs in `data`.
  `
ALTER TABLE workout_streams ADD COLUMN blob_key text;
ALTER TABLE workout_streams ADD COLUMN bytes bigint;
ALTER TABLE workout_streams ALTER COLUMN data DROP NOT NULL;
CREATE UNIQUE INDEX workout_streams_blob ON workout_streams (blob_key)
`,
  // 16: passwords and sessions for riders. Each refresh token records when, from which
  // address and with which User-Agent it was issued, so the rider's list of sessions shows
  // where each was last used; the partial index holds each live session's newest token
  // only, so the list reads a row per session, however many rotations it has made. Reset
  // links are kept as the SHA-256 of their token, never the token: a copy of the database
  // cannot reset anyone's password.
  `
ALTER TABLE refresh_tokens ADD COLUMN issued_at bigint;
ALTER TABLE refresh_tokens ADD COLUMN ip text;
ALTER TABLE refresh_tokens ADD COLUMN user_agent text;
CREATE INDEX refresh_tokens_user_live ON refresh_tokens (user_id)
  WHERE used_at IS NULL AND revoked_at IS NULL;
CREATE TABLE password_resets (
  token_hash text PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX password_resets_user ON password_resets (user_id)
`,
  // 17: what each ride's analysis keeps: efficiency factor and aerobic decoupling (the
  // fitness page's trend reads them without a ride's streams) and its climbs (the rider's
  // best climbs), computed at import; rides imported before have no row and get one on
  // first need. `analysis` caches the ride's whole analysis for the CP, W' and FTP named by
  // `analysis_key`.
  `
CREATE TABLE workout_facts (
  workout_id integer PRIMARY KEY REFERENCES workouts (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  start_time timestamptz NOT NULL,
  efficiency_factor double precision,
  decoupling_pct double precision,
  climbs jsonb NOT NULL DEFAULT '[]',
  analysis jsonb,
  analysis_key text
);
CREATE INDEX workout_facts_user_start ON workout_facts (user_id, start_time)
`,
  // 18: an export archive imported in one go (Strava's, Garmin Connect's, or ours): the
  // archive waits in the file store while a job walks its entries and queues one import per
  // activity (each an `imports` row naming the archive, with an id derived from the archive
  // and the entry, so a walk resumed after a restart queues nothing twice).
  `
CREATE TABLE archive_imports (
  id uuid PRIMARY KEY,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  file_key text NOT NULL,
  file_bytes bigint NOT NULL,
  language text,
  status text NOT NULL DEFAULT 'queued',
  total integer,
  next_entry integer NOT NULL DEFAULT 0,
  skipped jsonb NOT NULL DEFAULT '[]',
  error jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX archive_imports_user ON archive_imports (user_id, created_at DESC);
ALTER TABLE imports ADD COLUMN archive_id uuid REFERENCES archive_imports (id) ON DELETE CASCADE;
CREATE INDEX imports_archive ON imports (archive_id, status) WHERE archive_id IS NOT NULL
`,
  // 19: "Send to device": a routebook marked for one of the rider's devices, waiting until
  // the phone app copies it over and acknowledges it (`synced_at`). Deleting either the
  // routebook or the device takes its marks with it.
  `
CREATE TABLE routebook_syncs (
  routebook_id integer NOT NULL REFERENCES routebooks (id) ON DELETE CASCADE,
  device_id integer NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  marked_at timestamptz NOT NULL DEFAULT now(),
  synced_at timestamptz,
  PRIMARY KEY (routebook_id, device_id)
);
CREATE INDEX routebook_syncs_device ON routebook_syncs (device_id, marked_at)
`,
  // 20: export archives count in the rider's quota while stored (`stored_bytes`, 0 once the
  // walk is over, failed or cancelled), and a walk counts its tries (`walks`) so that one
  // whose process keeps dying ends as failed instead of running for ever. A ride's heart-rate
  // and pace curves are kept once computed (`extra_at`), as its power curve is.
  `
ALTER TABLE workout_curves ADD COLUMN heart_rate bytea;
ALTER TABLE workout_curves ADD COLUMN pace bytea;
ALTER TABLE workout_curves ADD COLUMN extra_at timestamptz;
ALTER TABLE archive_imports ADD COLUMN stored_bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE archive_imports ADD COLUMN walks integer NOT NULL DEFAULT 0;
UPDATE archive_imports SET stored_bytes = file_bytes WHERE status IN ('queued', 'running')
`,
  // 21: a ride the rider corrects (`rides/revise.ts`): which leg of its file it is (of how
  // many: `legs`; rides stored before count 1, and show no legs), its crop (seconds from the
  // recording's first sample), whether it keeps what the cleaning removed, whether it is
  // left out of bests and training, how far its clock is shifted, whose FTP it uses
  // (`ftp_choice` 'file': the file's over the rider's), and why its date is doubtful (a ride
  // dated in the future or before 1990 counts nowhere until its date is fixed). `gear` is
  // the bike or shoes it was done with (Strava's "Activity Gear"); `analysed_with` the
  // version of the analysis that made its figures (older ones are analysed again by
  // `reanalyseOlder`, which also gives a ride stored before its date warning: a ride dated in
  // the future or before 1990 then leaves the totals until the rider moves it). A rider's
  // running threshold pace (`threshold_pace_s_per_km`) scores runs (rTSS). A power model of
  // six weeks, once fitted, is kept by the key of its window's rides (`window_models`,
  // `analysis/powerModels.ts`), so a restart or another replica does not fit it again.
  `
ALTER TABLE workouts ADD COLUMN leg integer NOT NULL DEFAULT 0;
ALTER TABLE workouts ADD COLUMN legs integer NOT NULL DEFAULT 1;
ALTER TABLE workouts ADD COLUMN crop jsonb;
ALTER TABLE workouts ADD COLUMN keep_removed boolean NOT NULL DEFAULT false;
ALTER TABLE workouts ADD COLUMN exclude_from_bests boolean NOT NULL DEFAULT false;
ALTER TABLE workouts ADD COLUMN time_shift_s double precision NOT NULL DEFAULT 0;
ALTER TABLE workouts ADD COLUMN ftp_choice text;
ALTER TABLE workouts ADD COLUMN date_warning text;
ALTER TABLE workouts ADD COLUMN gear text;
ALTER TABLE workouts ADD COLUMN analysed_with integer NOT NULL DEFAULT 0;
ALTER TABLE users ADD COLUMN threshold_pace_s_per_km integer;
CREATE INDEX workouts_analysed_before ON workouts (id) WHERE analysed_with < 1;
CREATE TABLE window_models (
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key text NOT NULL,
  model jsonb NOT NULL,
  workouts integer NOT NULL,
  made_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
UPDATE workouts SET leg = substring(file_sha256 FROM ':leg([0-9]+)$')::int WHERE file_sha256 LIKE '%:leg%'
`,
  // 22: when a process took a ride an older analysis made, to analyse it again
  // (`reanalyseOlder`): every API process runs that pass, and one claims a ride (a
  // conditional UPDATE) before paying for its analysis, so no two analyse the same ride. A
  // claim older than `REANALYSIS_CLAIM_MS` is free again: a process that died mid-way does
  // not keep its ride for ever.
  `
ALTER TABLE workouts ADD COLUMN reanalysis_claimed_at timestamptz
`,
  // 23: archives take turns. A walk gives its slot to the next archive after a slice of
  // work when another rider's archive waits (`imports/archives.ts`): it queues a job of its
  // own again (`job_id`, the one whose end `#checkJob` watches) and goes to the back of the
  // line. `walking_since` is set while a process walks it: an archive without it waits.
  // Entries skipped are counted (`skipped_count`, of them `skipped_duplicates`) and only the
  // first 500 kept with their reasons (what the progress reply lists): an archive of 99,999
  // entries that are not activities rewrote an ever longer list at every entry.
  `
ALTER TABLE archive_imports ADD COLUMN job_id uuid;
ALTER TABLE archive_imports ADD COLUMN walking_since timestamptz;
ALTER TABLE archive_imports ADD COLUMN skipped_count integer NOT NULL DEFAULT 0;
ALTER TABLE archive_imports ADD COLUMN skipped_duplicates integer NOT NULL DEFAULT 0;
UPDATE archive_imports SET skipped_count = jsonb_array_length(skipped),
  skipped_duplicates = (SELECT count(*) FROM jsonb_array_elements(skipped) AS item
                         WHERE item->>'code' = 'duplicate')
`,
];
