import { configureStore } from '@reduxjs/toolkit';
import { routes, type EndpointName } from '@xoss/api-contract/routes';
import { describe, expect, it } from 'vitest';
import { createXossApi, sliceEndpoints } from './api.ts';
import { SessionStore } from './session.ts';
import { Transport } from './transport.ts';
import { memoryBackend } from './testing/memoryBackend.ts';

/** A slice over a fake `fetch` that records each request and answers `{ code: 0 }`. */
function slice() {
  const requests: string[] = [];
  // Signed in: a signed-in call without a token is never sent.
  const session = new SessionStore({ local: memoryBackend() });
  session.setTokens({ access: 'access', refresh: 'refresh' });
  const transport = new Transport({
    session,
    baseUrl: 'https://api.example',
    locks: null,
    fetch: (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      requests.push(`${init?.method ?? 'GET'} ${url.replace('https://api.example', '')}`);
      return Promise.resolve(
        new Response(JSON.stringify({ code: 0, msg: 'ok', data: { id: 1 } }), {
          headers: { 'content-type': 'application/json' },
        }),
      );
    },
  });
  const api = createXossApi(transport);
  const store = configureStore({
    reducer: { [api.reducerPath]: api.reducer },
    middleware: (defaults) => defaults().concat(api.middleware),
  });
  return { api, store, requests };
}

describe('the api slice', () => {
  it('holds every endpoint of the contract but auth and file downloads, from its table', () => {
    const { api } = slice();
    const expected = (Object.keys(routes) as EndpointName[]).filter(
      (name) =>
        !['login', 'refresh', 'logout'].includes(name) &&
        !('reply' in routes[name] && routes[name].reply === 'binary'),
    );
    expect(Object.keys(api.endpoints).sort()).toEqual([...expected].sort());
    expect(sliceEndpoints).toEqual(expected);
    expect(expected.length).toBeGreaterThan(40);
  });

  it('makes a query of each GET and a mutation of the rest', () => {
    const { api } = slice();
    for (const name of sliceEndpoints) {
      const endpoint = api.endpoints[name] as { useQuery?: unknown; useMutation?: unknown };
      expect(typeof endpoint.useQuery, name).toBe(
        routes[name].method === 'GET' ? 'function' : 'undefined',
      );
      expect(typeof endpoint.useMutation, name).toBe(
        routes[name].method === 'GET' ? 'undefined' : 'function',
      );
    }
  });

  it("sends each call to its route's method and path", async () => {
    const { api, store, requests } = slice();
    await store.dispatch(api.endpoints.getWorkout.initiate({ params: { id: 3 } }));
    await store.dispatch(api.endpoints.deleteDevice.initiate({ params: { id: 9 } }));
    await store.dispatch(
      api.endpoints.importWorkout.initiate({ body: new FormData(), idempotencyKey: 'key-12345' }),
    );
    expect(requests).toEqual([
      'GET /api/v2/workouts/3/',
      'DELETE /api/v2/devices/9/',
      'POST /api/v2/workouts/',
    ]);
  });
});
