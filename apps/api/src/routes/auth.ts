import { ErrorCode } from '@xoss/api-contract';
import {
  distanceUnitOf,
  distanceUnitSetting,
  type DistanceUnitSetting,
  type TemperatureUnit,
} from '@xoss/data-fields';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http.ts';
import { route } from '../route.ts';
import { changeThresholds } from '../workouts/thresholds.ts';
import type { Services } from '../services.ts';

interface AthleteRow {
  id: number;
  uuid: string;
  username: string;
  email: string;
  avatar_url: string | null;
  ftp: number | null;
  max_hr: number | null;
  distance_unit: DistanceUnitSetting;
  temperature_unit: TemperatureUnit;
  privacy_trim_m: number;
  share_heart_rate: boolean;
  share_power: boolean;
  weight_kg: number | null;
  ftp_rule: 'hour' | 'twenty';
}

const athleteReply = (row: AthleteRow) => ({
  id: String(row.id),
  uuid: row.uuid,
  username: row.username,
  email: row.email,
  profile: { avatar_url: row.avatar_url },
  settings: {
    ftp: row.ftp,
    max_hr: row.max_hr,
    // The one units rule: any non-zero stored number is miles, sent as 1.
    distance_unit: distanceUnitSetting(distanceUnitOf(row.distance_unit)),
    temperature_unit: row.temperature_unit,
    privacy_trim_m: row.privacy_trim_m,
    share_heart_rate: row.share_heart_rate,
    share_power: row.share_power,
    weight_kg: row.weight_kg,
    ftp_rule: row.ftp_rule,
  },
});

export function authRoutes(app: FastifyInstance, services: Services): void {
  const { sessions, db } = services;

  route(app, services, 'login', ({ body, request }) =>
    sessions.login(body.email, body.password, request.ip),
  );
  route(app, services, 'refresh', ({ body, request }) =>
    sessions.refresh(body.refresh, request.ip),
  );
  route(app, services, 'logout', async ({ body }) => {
    await sessions.logout(body.refresh);
    return {};
  });

  const own = async (userId: number | undefined, id: number) => {
    if (id !== userId)
      throw new ApiError(ErrorCode.Forbidden, 'You can only see and change your own profile');
    const [row] = await db.query<AthleteRow>('SELECT * FROM users WHERE id = $1', [id]);
    if (!row) throw notFound('Athlete');
    return row;
  };

  route(app, services, 'getAthlete', async ({ userId, params }) =>
    athleteReply(await own(userId, params.id)),
  );
  route(app, services, 'patchAthlete', async ({ userId, params, body }) => {
    const row = await own(userId, params.id);
    const today = new Date(services.now()).toISOString().slice(0, 10);
    if (body.thresholds_from && body.thresholds_from > today)
      throw new ApiError(
        ErrorCode.ValidationFailed,
        'New thresholds can apply from today or an earlier date, not from a future one',
      );
    const settings = { ...athleteReply(row).settings, ...body.settings };
    const updated = await db.transaction(async (tx) => {
      if (settings.ftp !== row.ftp || settings.max_hr !== row.max_hr || body.thresholds_from) {
        // A new FTP or max HR applies from a date (default today): the rides from then on are
        // measured against it, in the same transaction.
        const from = body.thresholds_from ?? today;
        await changeThresholds(tx, row.id, from, { ftp: settings.ftp, maxHr: settings.max_hr });
      }
      const [changed] = await tx.query<AthleteRow>(
        `UPDATE users SET username = $1, ftp = $2, max_hr = $3, distance_unit = $4, temperature_unit = $5,
           privacy_trim_m = $6, share_heart_rate = $7, share_power = $8, weight_kg = $9, ftp_rule = $10
         WHERE id = $11 RETURNING *`,
        [
          body.username ?? row.username,
          settings.ftp,
          settings.max_hr,
          settings.distance_unit,
          settings.temperature_unit,
          settings.privacy_trim_m,
          settings.share_heart_rate,
          settings.share_power,
          settings.weight_kg,
          settings.ftp_rule,
          row.id,
        ],
      );
      return changed;
    });
    return athleteReply(updated!);
  });
}
