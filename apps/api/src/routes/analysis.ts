// HTTP for the ride and training analysis: the power model (now and month by month), a
// ride's analysis, the efficiency trend and the best climbs; computing and storage are in
// ../analysis/analysisStore.ts and ../analysis/powerModels.ts.
import { ErrorCode } from '@xoss/api-contract';
import { addDays, dayOf, daysBetween } from '@xoss/workout-stats';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import {
  efficiencyPoints,
  ensureFacts,
  hardestClimbs,
  workoutAnalysisReply,
} from '../analysis/analysisStore.ts';
import {
  lastWeeksModels,
  lastWeeksRange,
  powerModelHistory,
  powerModelOf,
  windowCurves,
} from '../analysis/powerModels.ts';
import { startPrecompute } from '../analysis/precompute.ts';
import { ownWorkout } from '../rides/rows.ts';

/** The longest efficiency range: 20 years of days, as the fitness chart. */
const EFFICIENCY_MAX_DAYS = 7_320;
/** Without `from`: the year before `to`. */
const EFFICIENCY_DEFAULT_DAYS = 365;

const badRange = (detail: string) =>
  new ApiError(ErrorCode.ValidationFailed, detail, {
    errors: [{ path: 'to', message: detail }],
  });

export function analysisRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;
  const today = () => dayOf(new Date(services.now()));
  // Each ride's analysis and curves right after its import (`precomputeAnalysis`).
  const stopPrecompute = startPrecompute(services);
  app.addHook('onClose', stopPrecompute);

  route(app, services, 'powerModel', async ({ userId, query }) => {
    const now = services.now();
    if (query.window === '42d') {
      // Kept per window key (`lastWeeksModels`): the training page's most asked model.
      const [kept] = await lastWeeksModels(services, userId!, [now]);
      const { model, workouts } = kept!;
      const { from, to } = lastWeeksRange(now);
      return { window: query.window, from, to, workouts, ...model };
    }
    const { from, to, curves } = await windowCurves(services, userId!, query.window, now);
    return {
      window: query.window,
      from,
      to,
      workouts: curves.workouts,
      ...powerModelOf(curves.power),
    };
  });

  route(app, services, 'powerModelHistory', async ({ userId, query }) => ({
    points: await powerModelHistory(services, userId!, query.months, services.now()),
  }));

  route(app, services, 'workoutAnalysis', async ({ userId, params }) =>
    workoutAnalysisReply(services, await ownWorkout(services, userId, params.id)),
  );

  route(app, services, 'trainingEfficiency', async ({ userId, query }) => {
    const to = query.to ?? addDays(today(), 1);
    const from = query.from ?? addDays(to, -EFFICIENCY_DEFAULT_DAYS);
    const days = daysBetween(from, to);
    if (!(days >= 1)) throw badRange('`to` must be after `from`');
    if (days > EFFICIENCY_MAX_DAYS)
      throw badRange(
        `A range may span at most ${EFFICIENCY_MAX_DAYS} days; this one spans ${days}`,
      );
    const range = { from: new Date(`${from}T00:00:00Z`), to: new Date(`${to}T00:00:00Z`) };
    const pending = await ensureFacts(services, userId!, range);
    const rows = await efficiencyPoints(db, userId!, range);
    return {
      from,
      to,
      points: rows.map((row) => ({
        workout_id: row.workout_id,
        date: new Date(row.start_time).toISOString(),
        efficiency_factor: row.efficiency_factor,
        decoupling_pct: row.decoupling_pct,
      })),
      pending,
    };
  });

  route(app, services, 'bestClimbs', async ({ userId, query }) => {
    const range =
      query.year === undefined
        ? {}
        : {
            from: new Date(Date.UTC(query.year, 0, 1)),
            to: new Date(Date.UTC(query.year + 1, 0, 1)),
          };
    const pending = await ensureFacts(services, userId!, range);
    const rows = await hardestClimbs(db, userId!, range, query.limit);
    return {
      climbs: rows.map((row) => ({
        ...row.climb,
        workout_id: row.workout_id,
        name: row.name,
        start_time: new Date(row.start_time).toISOString(),
      })),
      pending,
    };
  });
}
