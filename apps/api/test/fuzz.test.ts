import { endpoints, errorStatus, type EndpointName } from '@xoss/api-contract';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { ApiError, MAX_JSON_DEPTH, refuseNul } from '../src/http/envelope.ts';
import { bearer, pgliteFactory, suiteHarnesses } from './harness.ts';

// Malformed requests against every endpoint of the contract: whatever arrives, the answer is
// a 4xx (or a success) and every failure is our `{ code, msg, detail }` envelope, never a 5xx
// and never Fastify's own error body.

/** A failure reply is JSON in our envelope, its code matching its HTTP status. */
function expectEnvelope(reply: LightMyRequestResponse, what: string): void {
  expect(reply.statusCode, `${what}: ${reply.body.slice(0, 300)}`).toBeLessThan(500);
  if (reply.statusCode < 300) return;
  expect(reply.headers['content-type'], what).toMatch(/^application\/json/);
  const body = reply.json<Record<string, unknown>>();
  expect(typeof body.code, `${what}: ${reply.body.slice(0, 300)}`).toBe('number');
  expect(typeof body.msg, what).toBe('string');
  expect(typeof body.detail, what).toBe('string');
  expect(errorStatus[body.code as keyof typeof errorStatus], what).toBe(reply.statusCode);
}

/** JSON nested `depth` levels deep, of arrays, objects or both. */
const nested = (depth: number, kind: 'array' | 'object' | 'mixed', closed = true) => {
  const open = { array: '[', object: '{"a":', mixed: '[{"a":' }[kind];
  const close = { array: ']', object: '}', mixed: '}]' }[kind];
  const levels = kind === 'mixed' ? Math.ceil(depth / 2) : depth;
  return open.repeat(levels) + '1' + (closed ? close.repeat(levels) : '');
};

/** Percent-escapes that decode to no text, or to surprises (NUL, `/`, `%`). */
const badEscape = fc.constantFrom(
  '%',
  '%f',
  '%ff',
  '%zz',
  '%c3%28',
  '%e2%82',
  '%ed%a0%80',
  '%f8%88%80%80%80',
  '%00',
  '%2f',
  '%25',
  '%%',
  '%u0041',
);
/** Characters a path or query may carry as they are. */
const plainChar = fc.constantFrom(..."abcXYZ019-._~!$&'()*+,;=:@".split(''), '%20');
const junkText = fc
  .array(fc.oneof(plainChar, badEscape), { maxLength: 12 })
  .map((parts) => parts.join(''));

/** An id in every notation `Number()` reads, plus out-of-range and undecodable ones. */
const idNotation = (realIds: string[]) =>
  fc.oneof(
    fc.constantFrom(...realIds),
    fc.integer({ min: 1, max: 2_147_483_647 }).map(String),
    fc.constantFrom(
      '3e0',
      '1e1',
      '0x10',
      '0b1',
      '0o7',
      '%201',
      '1%20',
      '1.0',
      '1.',
      '.1',
      '+1',
      '%2B1',
      '-1',
      '01',
      '0',
      '2147483648',
      '99999999999999999999',
      '1e400',
      'NaN',
      'Infinity',
      '1_000',
      '%EF%BC%91', // a full-width digit one
      '1%00',
      'x'.repeat(150), // over the router's segment limit
    ),
    fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
    junkText,
  );

/** A query value: numbers in odd notations, bad escapes, dates, lists. */
const queryValue = fc.oneof(
  fc.constantFrom('1', '20', '0', '2024', '2024-01-01', 'true', 'week', 'none', 'time,speed', ''),
  fc.constantFrom('0x1', '1e1', ' 1', '+1', '-1', '01', '1.5', '1e400', '99999999999999999999'),
  junkText,
);
const queryKeys = [
  'page',
  'page_size',
  'sport_type',
  'shared',
  'from',
  'to',
  'points',
  'streams',
  'compare',
  'at',
  'year',
  'period',
  'limit',
  'days',
  'model',
  'language',
  '__proto__',
  'constructor',
];
const query = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom(...queryKeys), queryValue).map(([key, value]) => `${key}=${value}`),
      junkText,
      fc.constantFrom('&', '=', '==', '&=&', 'a[b]=1', 'page[]=1'),
    ),
    { maxLength: 6 },
  )
  .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.join('&')}`));

/** Mostly JSON, so most bodies reach the parser; then look-alikes and junk. */
const contentType = fc.oneof(
  { weight: 3, arbitrary: fc.constant('application/json') },
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'application/JSON',
    'application/json; charset=latin1',
    'application/json;;',
    'application/vnd.api+json',
    'text/plain',
    'text/html',
    'multipart/form-data',
    'multipart/form-data; boundary=x',
    'multipart/form-data; boundary=',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    '*/*',
    ';',
    '',
  ),
  fc.string({ unit: fc.constantFrom(...'abc/;=+-. *"'.split('')), maxLength: 30 }),
);

/** A request body: nesting of any depth (far past the limit too), random JSON, junk. */
const body = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .tuple(
        fc.oneof(
          fc.integer({ min: 1, max: MAX_JSON_DEPTH + 8 }),
          fc.integer({ min: 1000, max: 20_000 }),
        ),
        fc.constantFrom('array' as const, 'object' as const, 'mixed' as const),
        fc.boolean(),
      )
      .map(([depth, kind, closed]) => nested(depth, kind, closed)),
  },
  fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
  fc.constantFrom(
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"admin":true}}}',
    '{"email":"a\\u0000b@example.com","password":"x"}',
    '{"name":"\\ud800"}',
    '{"a":1,"a":2}',
    'null',
    '"text"',
    '1e400',
    '',
    '{',
    '\u0000',
  ),
  fc.string({ maxLength: 40 }),
);

const names = Object.keys(endpoints) as EndpointName[];

describe('malformed requests (PGlite)', () => {
  const make = suiteHarnesses(pgliteFactory);

  /**
   * A server with one rider and one bound device, so some ids name real rows. The request
   * limits are lifted: a 429 at the door would spare the parsers the noise meant for them.
   */
  async function world() {
    const h = await make({ requestsPerRider: 1_000_000, requestsPerAddress: 1_000_000 });
    const rider = await h.user('fuzz@example.com');
    const bound = await h.server.inject({
      method: 'POST',
      url: '/api/v2/devices/',
      headers: bearer(rider.access),
      payload: { serial: 'NAV0001', model: 'NAV' },
    });
    expect(bound.statusCode).toBe(201);
    const device = bound.json<{ data: { id: number } }>().data.id;
    return { h, rider, ids: [String(rider.id), String(device)] };
  }

  it('never answers 5xx or outside the envelope, on every endpoint, signed in and out', async () => {
    const { h, rider, ids } = await world();
    let sent = 0;
    for (const [index, name] of names.entries()) {
      const endpoint = endpoints[name];
      for (const signedIn of [true, false]) {
        await fc.assert(
          fc.asyncProperty(
            fc.record({
              params: fc.record({ id: idNotation(ids), share_id: junkText }),
              query,
              type: contentType,
              body,
              withBody: fc.constantFrom(true, true, true, false),
            }),
            async (input) => {
              const path = endpoint.path.replace(/\{(\w+)\}/g, (_, key: 'id' | 'share_id') =>
                key === 'id' ? input.params.id : input.params.share_id || 'x',
              );
              const url = path + input.query;
              const request: InjectOptions = {
                method: endpoint.method,
                url,
                headers: {
                  ...(signedIn ? bearer(rider.access) : {}),
                  ...(input.withBody ? { 'content-type': input.type } : {}),
                },
                ...(input.withBody ? { payload: input.body } : {}),
              };
              const reply = await h.server.inject(request);
              sent++;
              expectEnvelope(reply, `${name} ${endpoint.method} ${url}`);
            },
          ),
          // A fixed seed per endpoint: the same requests on every run.
          { seed: 20_261_101 + index * 2 + Number(signedIn), numRuns: 6 },
        );
      }
    }
    expect(sent).toBe(names.length * 2 * 6);
    // The rider's session survived the noise.
    const own = await h.server.inject({
      method: 'GET',
      url: `/api/v2/athlete/${rider.id}/`,
      headers: bearer(rider.access),
    });
    expect(own.statusCode).toBe(200);
  });

  it('refuses JSON nested 5,000 deep with 400 / 10400 on every JSON endpoint, login included', async () => {
    const { h, rider, ids } = await world();
    const jsonEndpoints = names.filter((name) => {
      const schema = (endpoints[name] as { body?: unknown }).body;
      return schema !== undefined && schema !== 'multipart';
    });
    expect(jsonEndpoints).toContain('login');
    for (const name of jsonEndpoints) {
      const endpoint = endpoints[name];
      for (const payload of [nested(5000, 'array'), nested(5000, 'object')]) {
        const reply = await h.server.inject({
          method: endpoint.method,
          url: endpoint.path.replace('{id}', ids[1]!),
          headers: { ...bearer(rider.access), 'content-type': 'application/json' },
          payload,
        });
        expect(reply.statusCode, name).toBe(400);
        expect(reply.json(), name).toEqual({
          code: 10400,
          msg: 'validation_failed',
          detail: `The JSON body is nested too deeply (more than ${MAX_JSON_DEPTH} levels)`,
        });
      }
    }
    // At the limit the body is parsed and judged by its schema instead.
    const atLimit = await h.server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      headers: { 'content-type': 'application/json' },
      payload: `{"email":${nested(MAX_JSON_DEPTH - 1, 'array')},"password":"x"}`,
    });
    expect(atLimit.statusCode).toBe(400);
    expect(atLimit.json<{ detail: string }>().detail).toMatch(
      /^Please check required fields: email/,
    );
    // Brackets inside strings are text, not nesting, escaped quotes included: a wrong
    // password, checked as such.
    const inText = await h.server.inject({
      method: 'POST',
      url: '/api/v1/jwt-token/',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'fuzz@example.com', password: '[\\"{'.repeat(200) }),
    });
    expect(inText.statusCode).toBe(401);
  });

  it('finds NUL in a value nested 100,000 deep without overflowing the stack', () => {
    let value: unknown = { text: 'a\u0000b' };
    for (let i = 0; i < 100_000; i++) value = [value];
    let thrown: unknown;
    try {
      refuseNul(value, 'body');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    const path = (thrown as ApiError).errors?.[0]?.path ?? '';
    expect(path.split('.')).toHaveLength(100_001);
    expect(path.endsWith('0.0.text')).toBe(true);
  });

  it('answers undecodable paths, bad query escapes and unknown routes in the envelope', async () => {
    const { h, rider } = await world();
    const cases: [string, number, RegExp][] = [
      ['/api/v2/workouts/%ff/', 400, /invalid %-escape/],
      ['/api/v2/workouts/%c3%28/streams/', 400, /invalid %-escape/],
      ['/api/%ff/', 400, /invalid %-escape/],
      [`/api/v2/share/workouts/${'a'.repeat(150)}/`, 400, /too long/],
      ['/api/v2/workouts/?page=%ff', 400, /page/],
      ['/api/v2/workouts/?page=1&page=2', 400, /page/],
      ['/api/v2/workouts/?%zz=1', 400, /query/],
      ['/api/v2/workouts/1/range/?from=%&to=%ff', 400, /from, to/],
      ['/api/v2/no-such-thing/', 404, /No route for GET \/api\/v2\/no-such-thing\//],
    ];
    for (const [url, status, detail] of cases) {
      const reply = await h.server.inject({ method: 'GET', url, headers: bearer(rider.access) });
      expect(reply.statusCode, url).toBe(status);
      expectEnvelope(reply, url);
      expect(reply.json<{ detail: string }>().detail, url).toMatch(detail);
      expect(reply.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('reads ids, pages and seconds in plain decimal digits only', async () => {
    const { h, rider } = await world();
    const get = (url: string) =>
      h.server.inject({ method: 'GET', url, headers: bearer(rider.access) });
    expect((await get(`/api/v2/athlete/${rider.id}/`)).statusCode).toBe(200);
    for (const id of [
      '3e0',
      '0x10',
      '%20' + String(rider.id),
      `${rider.id}.0`,
      `+${rider.id}`,
      '-1',
      `0${rider.id}`,
      '2147483648',
      '99999999999999999999',
    ]) {
      const reply = await get(`/api/v2/athlete/${id}/`);
      expect(reply.statusCode, id).toBe(400);
      expect(reply.json<{ code: number }>().code, id).toBe(10400);
    }
    for (const url of [
      '/api/v2/workouts/?page=0x1',
      '/api/v2/workouts/?page_size=1e1',
      '/api/v2/training/bests/?year=%202024',
      '/api/v2/workouts/1/range/?from=1e1&to=20',
    ]) {
      const reply = await get(url);
      expect(reply.statusCode, url).toBe(400);
      expect(reply.json<{ code: number }>().code, url).toBe(10400);
    }
    expect((await get('/api/v2/workouts/?page=2&page_size=10')).statusCode).toBe(200);
  });
});
