import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** The rider's account: profile and settings, export, deletion, password, sessions. */
export const athleteEndpoints = {
  getAthlete: {
    ...routes.getAthlete,
    summary: 'The athlete profile (spec 7)',
    params: id,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  patchAthlete: {
    ...routes.patchAthlete,
    summary: 'Change the name and settings: FTP, max heart rate, units',
    params: id,
    body: s.athletePatchSchema,
    reply: s.athleteSchema,
    errors: [...authErrors, 10403],
  },
  deleteAthlete: {
    ...routes.deleteAthlete,
    summary:
      'Delete the account, given its current password (counted as a log-in attempt): every ride, file, device, routebook, setting, privacy zone, share link, session, comment and like of the rider goes at once, and they cannot sign in again',
    params: id,
    body: s.accountDeleteRequestSchema,
    reply: z.object({}),
    errors: [...authErrors, 10302, 10303, 10403],
  },
  exportAthlete: {
    ...routes.exportAthlete,
    summary:
      "Everything the rider gave us, as a zip: `activities/` (every file as uploaded) and `activities.csv` in Strava's bulk-export layout (so it imports back), `routebooks/` (GPX), and JSON of rides with our figures, profile and threshold history, devices and layouts, privacy zones, comments and likes",
    params: id,
    reply: 'binary',
    errors: [...authErrors, 10403],
  },
  changePassword: {
    ...routes.changePassword,
    summary:
      'Change the password, given the current one (counted as a log-in attempt); every other session of the rider ends, the caller stays signed in',
    body: s.passwordChangeRequestSchema,
    reply: z.object({}),
    errors: [10001, 10302, 10303, 10400, 10503],
  },
  listSessions: {
    ...routes.listSessions,
    summary:
      'The signed-in sessions of the rider, last used first: browser, sign-in and last-use times, last address, and which is the caller',
    reply: z.array(s.accountSessionSchema),
    errors: [10001],
  },
  signOutSession: {
    ...routes.signOutSession,
    summary: "Sign one of the rider's sessions out; its tokens stop working at once",
    params: s.sessionIdParamSchema,
    reply: s.signedOutReplySchema,
    errors: authErrors,
  },
  signOutOtherSessions: {
    ...routes.signOutOtherSessions,
    summary: "Sign out every session of the rider but the caller's",
    reply: s.signedOutReplySchema,
    errors: [10001],
  },
} as const satisfies EndpointGroup;
