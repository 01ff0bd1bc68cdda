import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loginRequestSchema } from '@xoss/api-contract';

/**
 * A small real HTTP server speaking the API's envelope and token rules, with knobs for the
 * failures the client must survive. It counts every request so tests can assert how many
 * refreshes and retries went over the wire.
 */
export interface AuthServer {
  readonly url: string;
  /** Requests by `METHOD path` (no query). */
  readonly hits: Map<string, number>;
  /** Access tokens the server accepts. */
  readonly liveAccess: Set<string>;
  /** How the next refreshes answer, in order; the last one repeats. */
  refreshPlan: ('ok' | 'refuse' | 'drop' | 'slow')[];
  /** While set, a refresh is held (received, not answered) until this settles. */
  refreshGate: Promise<void> | undefined;
  /** Whether retried calls get 10001 even with a fresh token. */
  rejectEveryAccess: boolean;
  profile: 'ok' | 'fail' | 'nameless';
  loginFailure: 'none' | 'server';
  devices: { id: number; serial: string }[];
  layouts: Map<number, unknown>;
  close(): Promise<void>;
  /** Logs in directly, returning a live pair (as if an earlier login had happened). */
  issue(): { access: string; refresh: string };
  count(key: string): number;
}

export const PASSWORD = 'spin to win';
const EMAIL = 'rider@xoss.co';

export async function startAuthServer(): Promise<AuthServer> {
  let serial = 0;
  const liveRefresh = new Set<string>();
  const state = {
    hits: new Map<string, number>(),
    liveAccess: new Set<string>(),
    refreshPlan: ['ok'] as AuthServer['refreshPlan'],
    refreshGate: undefined as Promise<void> | undefined,
    rejectEveryAccess: false,
    profile: 'ok' as AuthServer['profile'],
    loginFailure: 'none' as AuthServer['loginFailure'],
    devices: [
      { id: 1, serial: 'NAV-0001' },
      { id: 2, serial: 'G-0002' },
    ],
    layouts: new Map<number, unknown>([[1, { pages: [] }]]),
  };
  const issue = () => {
    serial += 1;
    const pair = { access: `access-${serial}`, refresh: `refresh-${serial}` };
    state.liveAccess.add(pair.access);
    liveRefresh.add(pair.refresh);
    return pair;
  };
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const ok = (res: ServerResponse, data: unknown) =>
    send(res, 200, { code: 0, msg: 'success', data });
  const expired = (res: ServerResponse) =>
    send(res, 401, { code: 10001, msg: 'token_not_valid', detail: 'Token is expired' });
  const body = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += String(chunk);
    return text ? (JSON.parse(text) as Record<string, unknown>) : {};
  };

  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const key = `${req.method} ${path}`;
      state.hits.set(key, (state.hits.get(key) ?? 0) + 1);
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const authorized = () =>
        bearer !== undefined && state.liveAccess.has(bearer) && !state.rejectEveryAccess;

      if (key === 'POST /api/v1/jwt-token/') {
        const { email, password } = await body(req);
        if (state.loginFailure === 'server')
          return send(res, 500, { code: 10500, msg: 'internal_error', detail: 'down' });
        if (req.headers['x-xoss-product'] !== 'xoss-web')
          return send(res, 400, { code: 10400, msg: 'validation_failed', detail: 'product' });
        // The API's own check of the body, answered as the API does: each refused field by name.
        const checked = loginRequestSchema.safeParse({ email, password });
        if (!checked.success) {
          const errors = checked.error.issues.map((issue) => ({
            path: issue.path.map(String).join('.'),
            message: issue.message,
          }));
          return send(res, 400, {
            code: 10400,
            msg: 'validation_failed',
            detail: `Please check required fields: ${errors.map(({ path }) => path).join(', ')}`,
            errors,
          });
        }
        if (email !== EMAIL || password !== PASSWORD)
          return send(res, 401, { code: 10301, msg: 'wrong_credentials', detail: 'Wrong' });
        return ok(res, { ...issue(), id: '7' });
      }
      if (key === 'POST /api/v1/jwt-token/refresh/') {
        const { refresh } = await body(req);
        const plan =
          state.refreshPlan.length > 1 ? state.refreshPlan.shift()! : state.refreshPlan[0]!;
        if (plan === 'drop') return req.socket.destroy();
        if (plan === 'slow') await new Promise((resolve) => setTimeout(resolve, 150));
        if (state.refreshGate) await state.refreshGate;
        if (plan === 'refuse' || typeof refresh !== 'string' || !liveRefresh.has(refresh))
          return expired(res);
        liveRefresh.delete(refresh);
        // The old access token stops working with the rotation, as after its expiry.
        state.liveAccess.clear();
        return ok(res, issue());
      }
      if (key === 'POST /api/v1/jwt-token/logout/') {
        const { refresh } = await body(req);
        liveRefresh.delete(String(refresh));
        return ok(res, {});
      }
      if (!authorized()) return expired(res);
      if (key === 'GET /api/v2/athlete/7/') {
        if (state.profile === 'fail')
          return send(res, 500, { code: 10500, msg: 'internal_error', detail: 'x' });
        return ok(res, {
          id: '7',
          uuid: 'u-7',
          username: state.profile === 'nameless' ? '' : 'Ada',
          email: EMAIL,
          profile: { avatar_url: '/avatars/7.png' },
          settings: { ftp: 250, max_hr: 185, distance_unit: 1, temperature_unit: 'f' },
        });
      }
      let match = /^\/api\/v2\/workouts\/(\d+)\/$/.exec(path);
      if (match && req.method === 'GET') return ok(res, { id: Number(match[1]) });
      if (key === 'GET /api/v2/devices/')
        return ok(res, {
          count: state.devices.length,
          next: null,
          previous: null,
          results: state.devices,
        });
      match = /^\/api\/v2\/devices\/(\d+)\/$/.exec(path);
      if (match && req.method === 'DELETE') {
        state.devices = state.devices.filter((device) => device.id !== Number(match![1]));
        return ok(res, {});
      }
      match = /^\/api\/v2\/devices\/(\d+)\/layout\/$/.exec(path);
      if (match && req.method === 'GET') return ok(res, state.layouts.get(Number(match[1])));
      if (match && req.method === 'PUT') {
        const layout = await body(req);
        state.layouts.set(Number(match[1]), layout);
        return ok(res, layout);
      }
      if (key === 'GET /api/v2/workouts/1/fit/') {
        res.writeHead(200, { 'content-type': 'application/vnd.ant.fit' });
        return res.end(Buffer.from([14, 16, 0x2e, 0x46, 0x49, 0x54]));
      }
      return send(res, 404, { code: 10404, msg: 'not_found', detail: 'No route' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(state, {
    url: `http://127.0.0.1:${port}`,
    issue,
    count: (key: string) => state.hits.get(key) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

export { EMAIL };

/** A `localStorage` stand-in shared by the "tabs" of a test. */
export { memoryBackend as memoryStorage } from '../src/testing/memoryBackend.ts';
