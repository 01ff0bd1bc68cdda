// A rider's own data: all of it as one archive, and the account's deletion.
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@xoss/api-contract';
import { ApiError } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import { exportArchive } from '../athletes/export.ts';
import { eraseAthlete } from '../athletes/erase.ts';

const ownAccount = (userId: number | undefined, id: number) => {
  if (id !== userId)
    throw new ApiError(ErrorCode.Forbidden, 'You can only export or delete your own account');
};

export function athleteDataRoutes(app: FastifyInstance, services: Services): void {
  route(app, services, 'exportAthlete', async ({ userId, params, reply }) => {
    ownAccount(userId, params.id);
    const archive = await exportArchive(services, userId!);
    const day = new Date(services.now()).toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="xoss-export-${day}.zip"`)
      .header('cache-control', 'no-store')
      .send(archive);
  });

  route(app, services, 'deleteAthlete', async ({ userId, params, body, request }) => {
    ownAccount(userId, params.id);
    // The current password, checked as a login is (its limits and its hashing gate).
    await services.sessions.confirmPassword(userId!, body.password, request.ip);
    await eraseAthlete(services, userId!);
    services.log.info({ security: 'account.deleted', userId }, 'account.deleted');
    return {};
  });
}
