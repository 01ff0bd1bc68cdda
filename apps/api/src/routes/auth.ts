import { ErrorCode } from '@xoss/api-contract';
import { distanceUnitOf, distanceUnitSetting } from '@xoss/data-fields';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import { athlete, saveAthlete, type AthleteRow } from '../athletes/store.ts';
import { FIRST_DATE, changeThresholds, rescoreRides } from '../analysis/thresholds.ts';
import type { Services } from '../services.ts';
import { PasswordResets } from '../auth/passwordReset.ts';
import type { SecurityLog } from '../auth/sessions.ts';
import { browserName } from '../auth/userAgent.ts';
import { Mailer } from '../platform/mail.ts';

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
    threshold_pace_s_per_km: row.threshold_pace_s_per_km ?? null,
  },
});

const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

export function authRoutes(
  app: FastifyInstance,
  services: Services,
  options: { readonly linkOrigin: () => string; readonly securityLog: SecurityLog },
): void {
  const { sessions, db } = services;
  const mailer = new Mailer(services.config, services.log);
  app.decorate('mailer', mailer);
  // Mail jobs still running finish before the server (and then the database) closes.
  app.addHook('onClose', async () => {
    await mailer.stop();
    mailer.close();
  });
  const resets = new PasswordResets({
    db,
    config: services.config,
    sessions,
    mailer,
    log: options.securityLog,
    now: services.now,
    linkOrigin: options.linkOrigin,
  });

  route(app, services, 'login', ({ body, request }) =>
    sessions.login(body.email, body.password, {
      ip: request.ip,
      userAgent: request.headers['user-agent'],
    }),
  );
  // The caller's address and User-Agent bind the refresh grace window to whoever rotated
  // the token first (`Sessions.refresh`).
  route(app, services, 'refresh', ({ body, request }) =>
    sessions.refresh(body.refresh, { ip: request.ip, userAgent: request.headers['user-agent'] }),
  );
  route(app, services, 'logout', async ({ body }) => {
    await sessions.logout(body.refresh);
    return {};
  });

  // 202 and nothing else, whatever the address: the mail goes out after the reply.
  route(app, services, 'requestPasswordReset', async ({ body, request, reply }) => {
    await resets.request(body.email, request.ip);
    void reply.code(202);
    return {};
  });
  route(app, services, 'confirmPasswordReset', async ({ body, request }) => {
    await resets.confirm(body.token, body.password, request.ip);
    return {};
  });
  route(app, services, 'changePassword', async ({ userId, session, body, request }) => {
    await sessions.changePassword(
      userId!,
      session,
      { current: body.current_password, next: body.new_password },
      request.ip,
    );
    return {};
  });
  route(app, services, 'listSessions', async ({ userId, session: current }) => {
    return (await sessions.listSessions(userId!)).map((session) => ({
      id: session.family,
      browser: browserName(session.userAgent),
      created_at: iso(session.authTime),
      last_used_at: iso(session.lastUsed),
      ip: session.ip,
      current: session.family === current,
    }));
  });
  // Only the caller's own sessions match (`Sessions.signOut`): another rider's id is a 404.
  route(app, services, 'signOutSession', async ({ userId, params }) => {
    const signedOut = await sessions.signOut(userId!, { only: params.id });
    if (signedOut === 0) throw notFound('Session');
    return { signed_out: signedOut };
  });
  route(app, services, 'signOutOtherSessions', async ({ userId, session }) => ({
    signed_out: await sessions.signOut(userId!, { except: session }),
  }));

  const own = async (userId: number | undefined, id: number) => {
    if (id !== userId)
      throw new ApiError(ErrorCode.Forbidden, 'You can only see and change your own profile');
    const row = await athlete(db, id);
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
      const saved = await saveAthlete(tx, row.id, {
        ...settings,
        username: body.username ?? row.username,
      });
      // A new threshold pace scores every run again (runs only: `rescoreRides`).
      if (settings.threshold_pace_s_per_km !== (row.threshold_pace_s_per_km ?? null))
        await rescoreRides(tx, row.id, FIRST_DATE, { runsOnly: true });
      return saved;
    });
    return athleteReply(updated!);
  });
}
