import { describe, expect, it } from 'vitest';
import { z } from './zod.ts';
import { successEnvelope } from './envelope.ts';
import { isTokenExpiry } from './expiry.ts';
import { ErrorCode, errorStatus, isErrorCode } from './errorCodes.ts';
import { ownerOfPath } from './originRoutes.ts';

describe('error codes', () => {
  it('gives every code an HTTP status', () => {
    for (const code of Object.values(ErrorCode))
      expect(errorStatus[code]).toBeGreaterThanOrEqual(400);
    expect(errorStatus[ErrorCode.TokenInvalid]).toBe(401);
    expect(isErrorCode(10301)).toBe(true);
    expect(isErrorCode(12345)).toBe(false);
  });
});

describe('envelope', () => {
  it('recognises 401 + 10001 as token expiry only', () => {
    const body = { code: 10001, msg: 'token_not_valid', detail: 'Token expired' };
    expect(isTokenExpiry(401, body)).toBe(true);
    expect(isTokenExpiry(403, body)).toBe(false);
    expect(isTokenExpiry(401, { ...body, code: 10301 })).toBe(false);
    expect(isTokenExpiry(401, 'not json')).toBe(false);
    expect(isTokenExpiry(401, null)).toBe(false);
    expect(isTokenExpiry(401, { code: 10001, msg: 'token_not_valid' })).toBe(false);
  });
  it('validates success replies', () => {
    const schema = successEnvelope(z.object({ id: z.string() }));
    expect(schema.safeParse({ code: 0, msg: 'success', data: { id: '1' } }).success).toBe(true);
    expect(schema.safeParse({ code: 1, msg: 'success', data: { id: '1' } }).success).toBe(false);
  });
});

describe('ownerOfPath', () => {
  it('routes each prefix on segment boundaries', () => {
    expect(ownerOfPath('/api/v1/jwt-token/')).toBe('api');
    expect(ownerOfPath('/dashboard/workouts/list?page=2')).toBe('athlete-portal');
    expect(ownerOfPath('/upload')).toBe('athlete-portal');
    expect(ownerOfPath('/developer/mydevices/')).toBe('athlete-portal');
    expect(ownerOfPath('/storybook/index.html')).toBe('storybook');
    expect(ownerOfPath('/dashboards')).toBe('public-site');
    expect(ownerOfPath('/')).toBe('public-site');
    expect(ownerOfPath('/product/xossnav')).toBe('public-site');
  });
});

describe('streams query', () => {
  it('bounds the points of a streams reply: 4000 when not asked, at most 20,000', async () => {
    const { streamsQuerySchema, STREAM_POINTS_MAX } = await import('./schemas.ts');
    expect(streamsQuerySchema.parse({})).toEqual({ points: 4000 });
    expect(streamsQuerySchema.parse({ points: '20000' })).toEqual({ points: STREAM_POINTS_MAX });
    expect(streamsQuerySchema.safeParse({ points: '20001' }).success).toBe(false);
    expect(streamsQuerySchema.safeParse({ points: '100000' }).success).toBe(false);
    expect(streamsQuerySchema.safeParse({ points: '9' }).success).toBe(false);
  });

  it("names a muscle-oxygen sensor's streams, SmO2 to 0.1 % and THb to 0.01 g/dL", async () => {
    const { streamsQuerySchema, streamsReplySchema, STREAM_DECIMALS } =
      await import('./schemas.ts');
    expect(streamsQuerySchema.parse({ streams: 'time,smo2,thb' })).toEqual({
      points: 4000,
      streams: ['time', 'smo2', 'thb'],
    });
    expect(STREAM_DECIMALS.smo2).toBe(1);
    expect(STREAM_DECIMALS.thb).toBe(2);
    const reply = { length: 2, streams: { time: [0, 1], smo2: [61.5, null], thb: [12.34, 12.3] } };
    expect(streamsReplySchema.parse(reply)).toEqual(reply);
    expect(streamsQuerySchema.safeParse({ streams: 'time,spo2' }).success).toBe(false);
  });
});

describe('numbers in paths and queries', () => {
  it('reads plain decimal digits only: no sign, space, exponent, hex or leading zero', async () => {
    const { idParamSchema, pageQuerySchema, rangeQuerySchema } = await import('./schemas.ts');
    expect(idParamSchema.parse({ id: '12' })).toEqual({ id: 12 });
    for (const id of ['3e0', '0x10', ' 1', '1 ', '1.0', '+1', '-1', '01', '', 'Infinity', '１'])
      expect(idParamSchema.safeParse({ id }).success, id).toBe(false);
    expect(idParamSchema.safeParse({ id: '2147483647' }).success).toBe(true);
    expect(idParamSchema.safeParse({ id: '2147483648' }).success).toBe(false);
    expect(pageQuerySchema.parse({ page: '2', page_size: '10' })).toEqual({
      page: 2,
      page_size: 10,
    });
    expect(pageQuerySchema.safeParse({ page: '1e1' }).success).toBe(false);
    expect(pageQuerySchema.safeParse({ page: ['1', '2'] }).success).toBe(false);
    // Seconds of a range may have a fraction, still without exponent or sign.
    expect(rangeQuerySchema.parse({ from: '0', to: '12.5' })).toEqual({ from: 0, to: 12.5 });
    for (const from of ['1e1', '0x1', '-0', '.5', '5.', ' 5'])
      expect(rangeQuerySchema.safeParse({ from, to: '20' }).success, from).toBe(false);
  });

  it('keeps integer bounds in the OpenAPI parameters', async () => {
    const { openApiDocument } = await import('./endpoints.ts');
    const document = openApiDocument() as {
      paths: Record<string, Record<string, { parameters: { name: string; schema: unknown }[] }>>;
    };
    const [id] = document.paths['/api/v2/workouts/{id}/']!.get!.parameters;
    expect(id).toMatchObject({
      name: 'id',
      schema: { type: 'integer', exclusiveMinimum: 0, maximum: 2_147_483_647 },
    });
  });
});

describe('endpoints and OpenAPI', () => {
  it('fills paths and generates an OpenAPI path for every endpoint', async () => {
    const { endpoints, openApiDocument } = await import('./endpoints.ts');
    const { pathFor } = await import('./routes.ts');
    expect(pathFor('getWorkout', { id: 12 })).toBe('/api/v2/workouts/12/');
    expect(() => pathFor('getWorkout')).toThrow(/missing id/);
    const document = openApiDocument() as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    for (const [name, endpoint] of Object.entries(endpoints))
      expect(document.paths[endpoint.path]?.[endpoint.method.toLowerCase()]?.operationId).toBe(
        name,
      );
  });

  it('rejects unknown members and keeps the spec login shape', async () => {
    const { athletePatchSchema, loginRequestSchema } = await import('./schemas.ts');
    expect(athletePatchSchema.safeParse({ owner_id: 3 }).success).toBe(false);
    expect(loginRequestSchema.parse({ email: ' a@b.co ', password: ' p ' })).toEqual({
      email: 'a@b.co',
      password: ' p ',
    });
  });
});

describe('routes entry', () => {
  it('gives every endpoint its route, file downloads marked binary', async () => {
    const { endpoints } = await import('./endpoints.ts');
    const { routes, pathFor } = await import('./routes.ts');
    expect(Object.keys(routes)).toEqual(Object.keys(endpoints));
    for (const [name, endpoint] of Object.entries(endpoints)) {
      const route: { path: string; reply?: string } = routes[name as keyof typeof routes];
      expect(endpoint.path).toBe(route.path);
      expect(route.reply === 'binary').toBe(endpoint.reply === 'binary');
    }
    expect(pathFor('sharedWorkout', { share_id: 'a/b' })).toBe('/api/v2/share/workouts/a%2Fb/');
  });

  it('loads no zod: the modules it imports for values never reach zod', async () => {
    const { readFile } = await import('node:fs/promises');
    const seen = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = await readFile(new URL(file, import.meta.url), 'utf8');
      for (const [, kind, from] of text.matchAll(
        /^(?:import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gms,
      )) {
        if (kind || !from) continue;
        expect(from).not.toMatch(/zod/);
        if (from.startsWith('./')) await visit(from);
      }
    };
    await visit('./routes.ts');
    expect([...seen].sort()).toEqual([
      './bounds.ts',
      './errorCodes.ts',
      './expiry.ts',
      './originRoutes.ts',
      './routeTable.ts',
      './routes.ts',
    ]);
  });
});

describe('analysis queries', () => {
  it('reads the power model window, extra curves and w_bal, refusing unknown ones', async () => {
    const { powerModelQuerySchema, powerCurveQuerySchema, streamsQuerySchema, STREAM_DECIMALS } =
      await import('./schemas.ts');
    expect(powerModelQuerySchema.parse({})).toEqual({ window: '42d' });
    expect(powerModelQuerySchema.safeParse({ window: '7d' }).success).toBe(false);
    expect(powerCurveQuerySchema.parse({ include: 'heart_rate,pace' }).include).toEqual([
      'heart_rate',
      'pace',
    ]);
    expect(powerCurveQuerySchema.safeParse({ include: 'cadence' }).success).toBe(false);
    expect(streamsQuerySchema.parse({ streams: 'time,w_bal' }).streams).toEqual(['time', 'w_bal']);
    expect(STREAM_DECIMALS.w_bal).toBe(0);
  });
});
