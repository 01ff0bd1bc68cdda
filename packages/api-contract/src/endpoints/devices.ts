import { z } from '../zod.ts';
import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** The rider's devices and their data-page layouts. */
export const deviceEndpoints = {
  listDevices: {
    ...routes.listDevices,
    summary: 'Own devices',
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.deviceSchema),
    errors: [10001, 10400],
  },
  bindDevice: {
    ...routes.bindDevice,
    summary: 'Bind a device by serial number and model',
    body: s.deviceBindSchema,
    reply: s.deviceSchema,
    errors: [10001, 10400, 10409],
  },
  getDevice: {
    ...routes.getDevice,
    summary: 'Device settings: model, firmware version, manufacture',
    params: id,
    reply: s.deviceSchema,
    errors: authErrors,
  },
  deleteDevice: {
    ...routes.deleteDevice,
    summary: 'Remove a device and its layout',
    params: id,
    reply: z.object({}),
    errors: authErrors,
  },
  getLayout: {
    ...routes.getLayout,
    summary: "The device's data-layout document (panels.json)",
    params: id,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
  putLayout: {
    ...routes.putLayout,
    summary: "Save the data-layout document, validated against the model's profile",
    params: id,
    body: s.layoutDocumentSchema,
    reply: s.layoutDocumentSchema,
    errors: authErrors,
  },
} as const satisfies EndpointGroup;
