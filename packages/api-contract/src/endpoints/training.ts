import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** Training over time and ride analysis: fitness, log, totals, bests, FTP, power model, efficiency, climbs. */
export const trainingEndpoints = {
  trainingFitness: {
    ...routes.trainingFitness,
    summary:
      'Fitness (CTL), fatigue (ATL), form and ramp rate of each day `[from, to)` from the daily TSS; all time without `from`; at most 7,320 days',
    query: s.fitnessQuerySchema,
    reply: s.fitnessReplySchema,
    errors: [10001, 10400],
  },
  trainingLog: {
    ...routes.trainingLog,
    summary: 'The rides and totals of each day `[from, to)` (at most 62 days) and of its weeks',
    query: s.trainingLogQuerySchema,
    reply: s.trainingLogReplySchema,
    errors: [10001, 10400],
  },
  trainingTotals: {
    ...routes.trainingTotals,
    summary: 'Weekly or monthly totals (time, distance, climbing, TSS) of a year',
    query: s.trainingTotalsQuerySchema,
    reply: s.trainingTotalsReplySchema,
    errors: [10001, 10400],
  },
  personalBests: {
    ...routes.personalBests,
    summary: 'The best efforts of a year or of all time, with their rides',
    query: s.personalBestsQuerySchema,
    reply: s.personalBestsReplySchema,
    errors: [10001, 10400],
  },
  ftpEstimate: {
    ...routes.ftpEstimate,
    summary:
      "The FTP estimate of the season's best efforts by the rider's rule, a suggestion when it beats the FTP in force, and the threshold history",
    query: s.ftpEstimateQuerySchema,
    reply: s.ftpEstimateReplySchema,
    errors: [10001, 10400],
  },
  powerModel: {
    ...routes.powerModel,
    summary:
      "CP, W', Pmax and eFTP of Morton's 3-parameter model fitted to the rider's best power curve of a window (42 days, this year, all time); nulls with a `reason` when there is too little data or the fit is implausible",
    query: s.powerModelQuerySchema,
    reply: s.powerModelReplySchema,
    errors: [10001, 10400],
  },
  powerModelHistory: {
    ...routes.powerModelHistory,
    summary: 'The 42-day power model at the end of each of the last `months` months (at most 24)',
    query: s.powerModelHistoryQuerySchema,
    reply: s.powerModelHistoryReplySchema,
    errors: [10001, 10400],
  },
  trainingEfficiency: {
    ...routes.trainingEfficiency,
    summary:
      'Efficiency factor (NP / mean HR) and aerobic decoupling (Pw:HR) of each ride of `[from, to)` (default: the last 365 days; at most 7,320 days)',
    query: s.efficiencyQuerySchema,
    reply: s.efficiencyReplySchema,
    errors: [10001, 10400],
  },
  bestClimbs: {
    ...routes.bestClimbs,
    summary:
      "The rider's hardest climbs (by length × grade) of a year or of all time, with their rides",
    query: s.bestClimbsQuerySchema,
    reply: s.bestClimbsReplySchema,
    errors: [10001, 10400],
  },
  workoutAnalysis: {
    ...routes.workoutAnalysis,
    summary:
      "A ride's intervals, climbs, matches burnt, W' balance low, aerobic decoupling and efficiency factor, with the CP and W' used and where they come from",
    params: id,
    reply: s.workoutAnalysisSchema,
    errors: authErrors,
  },
} as const satisfies EndpointGroup;
