import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** Routebooks (GPX routes) and sending them to a device through the phone app. */
export const routebookEndpoints = {
  listRoutebooks: {
    ...routes.listRoutebooks,
    summary: 'Own routebooks',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.routebookSchema),
    errors: [10001, 10400],
  },
  uploadRoutebook: {
    ...routes.uploadRoutebook,
    summary: 'Upload a GPX file (field `file`) with a title (required) and a description',
    body: 'multipart',
    reply: s.routebookSchema,
    errors: [10001, 10400, 10413, 10415],
  },
  routebookGpx: {
    ...routes.routebookGpx,
    summary: 'The original GPX file',
    params: id,
    errors: authErrors,
  },
  getRoutebook: {
    ...routes.getRoutebook,
    summary: 'One routebook, with the devices it was sent to',
    params: id,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  patchRoutebook: {
    ...routes.patchRoutebook,
    summary: 'Rename a routebook or change its description',
    params: id,
    body: s.routebookPatchSchema,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  deleteRoutebook: {
    ...routes.deleteRoutebook,
    summary: 'Delete a routebook',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  sendRoutebook: {
    ...routes.sendRoutebook,
    summary:
      "Send to device: mark the routebook for the rider's device (`device_id`), which takes it at its next sync; sending again after a sync sends it again",
    params: id,
    body: s.routebookSendSchema,
    reply: s.routebookSchema,
    errors: authErrors,
  },
  deviceRoutebooks: {
    ...routes.deviceRoutebooks,
    summary:
      'For the phone app: the routebooks waiting for this device (marked and not yet synced), oldest first, each with its GPX download link',
    params: id,
    reply: z.array(s.deviceRoutebookSchema),
    errors: authErrors,
  },
  deviceRoutebooksSynced: {
    ...routes.deviceRoutebooksSynced,
    summary:
      'For the phone app: acknowledge routebooks copied onto this device (`routebook_ids`); they leave its waiting list',
    params: id,
    body: s.deviceRoutebooksSyncedSchema,
    reply: z.object({ synced: z.number().int() }),
    errors: authErrors,
  },
} as const satisfies EndpointGroup;
