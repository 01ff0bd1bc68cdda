import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bearerRider, jwtKeys, signJwt } from '../auth/jwt.ts';
import { FairQueue, fairAdmission, riderOnce, type RiderOf } from './admission.ts';
import { requestDeadlines } from './deadline.ts';

const keys = jwtKeys('the secret of the admission tests, long enough');
/** Where a request waits, as the server decides it: the rider a signature of ours vouches for. */
const riderOf: RiderOf = (authorization) =>
  bearerRider(authorization, keys, Math.floor(Date.now() / 1000));
/** As the server hands it to admission: asked once a request. */
const requestRider = riderOnce(riderOf);

/** Busy for `ms` of CPU, as a request on the embedded database is. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

const get = (port: number, path: string, agent: Agent | false) =>
  new Promise<string>((resolve, reject) => {
    const outgoing = request({ host: '127.0.0.1', port, path, agent }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => resolve(body));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });

/**
 * Twenty riders keep their connections busy; twenty more connect at once. Returns, for the
 * newcomer served last, how many busy riders' requests were served before it.
 */
async function servedBeforeLastNewcomer(perTurn: number | undefined): Promise<number> {
  const app = Fastify();
  if (perTurn !== undefined) fairAdmission(app, perTurn, requestRider);
  let served = 0;
  app.get('/busy', (_request, reply) => {
    busy(2);
    served += 1;
    return reply.send('ok');
  });
  app.get('/new', (_request, reply) => {
    busy(2);
    return reply.send(String(served));
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  let running = true;
  const agents = Array.from({ length: 20 }, () => new Agent({ keepAlive: true, maxSockets: 1 }));
  const riders = agents.map(async (agent) => {
    while (running) await get(port, '/busy', agent);
  });
  try {
    // Let every busy connection be accepted and looping first.
    while (served < 100) await new Promise((resolve) => setTimeout(resolve, 10));
    const start = served;
    const newcomers = await Promise.all(Array.from({ length: 20 }, () => get(port, '/new', false)));
    return Math.max(...newcomers.map(Number)) - start;
  } finally {
    running = false;
    await Promise.all(riders);
    for (const agent of agents) agent.destroy();
    await app.close();
  }
}

describe('fair admission', () => {
  const apps: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((close) => close()));
  });

  it('accepts new connections while busy ones keep the server saturated', async () => {
    // Without it, libuv accepts one connection per turn of the loop and each turn serves
    // every ready connection: the last newcomer waits behind about 200 requests (10 for
    // each newcomer before it); with 4 starts per turn, behind about 80.
    const without = await servedBeforeLastNewcomer(undefined);
    const withIt = await servedBeforeLastNewcomer(4);
    expect(without).toBeGreaterThan(150);
    expect(withIt).toBeLessThan(without / 2);
  });

  it('never starts a request whose deadline passed while it waited', async () => {
    const app = Fastify();
    apps.push(() => app.close());
    requestDeadlines(app, 50);
    fairAdmission(app, 1, requestRider);
    let started = 0;
    app.get('/', (_request, reply) => {
      started += 1;
      busy(100);
      return reply.send('ok');
    });
    await app.ready();
    const replies = await Promise.all([app.inject('/'), app.inject('/'), app.inject('/')]);
    expect(replies.map((reply) => reply.statusCode)).toEqual([200, 503, 503]);
    expect(started).toBe(1);
  });

  it('starts requests in the order they arrived', async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 2, requestRider);
    const order: number[] = [];
    app.get('/:n', (request, reply) => {
      order.push(Number((request.params as { n: string }).n));
      return reply.send('ok');
    });
    await app.ready();
    await Promise.all(Array.from({ length: 10 }, (_, n) => app.inject(`/${n}`)));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  /** Signed bearer tokens of riders 1, 2 and 5 (the routes here do not check them). */
  const tokens = new Map<string, string>();
  beforeAll(async () => {
    for (const sub of ['1', '2', '5'])
      tokens.set(
        sub,
        `Bearer ${await signJwt({ sub, token_type: 'access', exp: 2_000_000_000 }, keys)}`,
      );
  });
  const tokenOf = (sub: string) => tokens.get(sub)!;

  it('starts a newcomer within the first few slots while one rider has 200 requests waiting', async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 1, requestRider);
    const order: string[] = [];
    app.get('/:who', (request, reply) => {
      order.push((request.params as { who: string }).who);
      return reply.send('ok');
    });
    await app.ready();
    const flood = Array.from({ length: 200 }, () =>
      app.inject({ url: '/flooder', headers: { authorization: tokenOf('1') } }),
    );
    const newcomers = [
      app.inject({ url: '/rider', headers: { authorization: tokenOf('2') } }),
      app.inject({ url: '/visitor', remoteAddress: '198.51.100.7' }),
    ];
    await Promise.all([...flood, ...newcomers]);
    expect(order).toHaveLength(202);
    // In arrival order they would have started 201st and 202nd.
    expect(order.indexOf('rider')).toBeLessThan(4);
    expect(order.indexOf('visitor')).toBeLessThan(4);
  });

  it('takes turns between keys, each key in its own arrival order', () => {
    const queue = new FairQueue<string>();
    const flooder = { kind: 'rider', id: '1' } as const;
    for (let n = 0; n < 200; n++) queue.push(flooder, `flood-${n}`);
    queue.push({ kind: 'rider', id: '2' }, 'rider-2');
    queue.push({ kind: 'address', id: '203.0.113.9' }, 'visitor');
    const started = Array.from({ length: 202 }, () => queue.shift());
    expect(started.indexOf('rider-2')).toBeLessThan(3);
    expect(started.indexOf('visitor')).toBeLessThan(3);
    const flood = started.filter((item) => item?.startsWith('flood-'));
    expect(flood).toEqual(Array.from({ length: 200 }, (_, n) => `flood-${n}`));
    expect(queue.size).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it('gives signed-in riders half the starts while many addresses burst', () => {
    const queue = new FairQueue<string>();
    for (let n = 0; n < 300; n++) queue.push({ kind: 'address', id: `203.0.113.${n}` }, 'login');
    for (let n = 0; n < 10; n++) queue.push({ kind: 'rider', id: '7' }, 'read');
    const first = Array.from({ length: 20 }, () => queue.shift());
    expect(first.filter((item) => item === 'read')).toHaveLength(10);
  });

  it('keeps at most ANONYMOUS_IN_FLIGHT requests without a token in progress, while riders start at once', async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 8, requestRider, 2);
    let anonymous = 0;
    let most = 0;
    const riderStarted: number[] = [];
    const release: (() => void)[] = [];
    app.get('/:who', async (request, reply) => {
      const who = (request.params as { who: string }).who;
      if (who === 'rider') {
        riderStarted.push(anonymous);
        return reply.send('ok');
      }
      anonymous += 1;
      most = Math.max(most, anonymous);
      // Held until the test lets it go: the cap must keep the others waiting meanwhile.
      await new Promise<void>((resolve) => release.push(resolve));
      anonymous -= 1;
      return reply.send('ok');
    });
    await app.ready();
    const visitors = Array.from({ length: 10 }, (_, n) =>
      app.inject({ url: '/visitor', remoteAddress: `198.51.100.${n + 1}` }),
    );
    // Wait until the first two hold their places.
    while (release.length < 2) await new Promise((resolve) => setImmediate(resolve));
    const rider = await app.inject({ url: '/rider', headers: { authorization: tokenOf('5') } });
    expect(rider.statusCode).toBe(200);
    // The rider started while two visitors were in progress and eight waited.
    expect(riderStarted).toEqual([2]);
    while (release.length > 0 || anonymous > 0) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const replies = await Promise.all(visitors);
    expect(replies.every((reply) => reply.statusCode === 200)).toBe(true);
    expect(most).toBe(2);
  });

  it("keeps at most RIDER_IN_FLIGHT of one rider's requests in progress, while another rider and a visitor start at once", async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 8, requestRider, Infinity, 3);
    let flooding = 0;
    let most = 0;
    const othersStarted: number[] = [];
    const release: (() => void)[] = [];
    app.get('/:who', async (request, reply) => {
      const who = (request.params as { who: string }).who;
      if (who !== 'flooder') {
        othersStarted.push(flooding);
        return reply.send('ok');
      }
      flooding += 1;
      most = Math.max(most, flooding);
      // Held until the test lets it go: the cap must keep the rider's others waiting.
      await new Promise<void>((resolve) => release.push(resolve));
      flooding -= 1;
      return reply.send('ok');
    });
    await app.ready();
    const flood = Array.from({ length: 20 }, () =>
      app.inject({ url: '/flooder', headers: { authorization: tokenOf('1') } }),
    );
    // Wait until the first three hold their places.
    while (release.length < 3) await new Promise((resolve) => setImmediate(resolve));
    const [rider, visitor] = await Promise.all([
      app.inject({ url: '/rider', headers: { authorization: tokenOf('2') } }),
      app.inject({ url: '/visitor', remoteAddress: '198.51.100.7' }),
    ]);
    expect([rider.statusCode, visitor.statusCode]).toEqual([200, 200]);
    // Both started while three of the flooder's were in progress and seventeen waited.
    expect(othersStarted).toEqual([3, 3]);
    // A request given back lets the next of the rider's start, never more than three at once.
    while (release.length > 0 || flooding > 0) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    const replies = await Promise.all(flood);
    expect(replies.every((reply) => reply.statusCode === 200)).toBe(true);
    expect(most).toBe(3);
  });

  it("queues a forged token naming a rider under its address, never in the rider's places", async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 8, requestRider, Infinity, 3);
    const release: (() => void)[] = [];
    const riderStarted: number[] = [];
    app.get('/:who', async (request, reply) => {
      if ((request.params as { who: string }).who === 'rider') {
        riderStarted.push(1);
        return reply.send('ok');
      }
      await new Promise<void>((resolve) => release.push(resolve));
      return reply.send('ok');
    });
    await app.ready();
    // Rider 1's id under another key's signature, and unsigned with the right length.
    const otherKey = `Bearer ${await signJwt({ sub: '1', token_type: 'access', exp: 2_000_000_000 }, jwtKeys('not the server secret, same length'))}`;
    const [head, body, signature] = tokenOf('1').slice('Bearer '.length).split('.');
    const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8')) as object;
    const stolenSignature = `Bearer ${head}.${Buffer.from(JSON.stringify({ ...claims, sub: '1', x: 1 })).toString('base64url')}.${signature}`;
    expect([otherKey, stolenSignature].map(riderOf)).toEqual([undefined, undefined]);
    const forged = Array.from({ length: 10 }, (_, n) =>
      app.inject({
        url: '/forger',
        remoteAddress: '203.0.113.66',
        headers: { authorization: n % 2 ? otherKey : stolenSignature },
      }),
    );
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    while (release.length < 3) await turn();
    const rider = app.inject({ url: '/rider', headers: { authorization: tokenOf('1') } });
    // Admission starts work turn by turn of the loop: fifty turns are many times what a
    // request not held back needs. Keyed by the token's claim, the forgeries would hold all
    // three of rider 1's places and the rider would wait for them.
    for (let n = 0; n < 50 && riderStarted.length === 0; n++) await turn();
    expect(riderStarted).toHaveLength(1);
    // All ten forgeries are in progress at once, as one address's.
    expect(release.length).toBe(10);
    expect((await rider).statusCode).toBe(200);
    const settled = Promise.all(forged);
    let done = false;
    void settled.then(() => (done = true));
    while (!done) {
      release.shift()?.();
      await turn();
    }
    expect((await settled).every((reply) => reply.statusCode === 200)).toBe(true);
  });

  it("checks a request's signature once, however many hooks ask, and each request's anew", async () => {
    const asked: (string | undefined)[] = [];
    const counted = riderOnce((authorization) => {
      asked.push(authorization);
      return riderOf(authorization);
    });
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 1, counted);
    // As the limits' hooks ask too: arrival, body, reply.
    const heard: (string | undefined)[] = [];
    app.addHook('onRequest', (request, _reply, done) => {
      heard.push(counted(request));
      done();
    });
    app.addHook('preParsing', (request, _reply, payload, done) => {
      heard.push(counted(request));
      done(null, payload);
    });
    app.addHook('onSend', (request, _reply, payload, done) => {
      heard.push(counted(request));
      done(null, payload);
    });
    app.get('/', (_request, reply) => reply.send('ok'));
    await app.ready();
    await app.inject({ url: '/', headers: { authorization: tokenOf('1') } });
    await app.inject({ url: '/', headers: { authorization: tokenOf('1') } });
    await app.inject({ url: '/', headers: { authorization: tokenOf('2') } });
    await app.inject({ url: '/' });
    // The same token twice is checked twice: kept with the request, not with the header.
    expect(asked).toEqual([tokenOf('1'), tokenOf('1'), tokenOf('2'), undefined]);
    expect(heard).toEqual([
      ...Array<string>(6).fill('1'),
      '2',
      '2',
      '2',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("starts the next key allowed and keeps a held key's place", () => {
    const queue = new FairQueue<string>();
    queue.push({ kind: 'rider', id: '1' }, 'held');
    queue.push({ kind: 'rider', id: '2' }, 'free');
    const notOne = ({ id }: { id: string }) => id !== '1';
    expect(queue.hasReady(notOne)).toBe(true);
    expect(queue.shift(notOne)).toBe('free');
    expect(queue.hasReady(notOne)).toBe(false);
    expect(queue.shift(notOne)).toBeUndefined();
    expect(queue.shift()).toBe('held');
  });

  it('skips a kind that may not start and keeps its items for later', () => {
    const queue = new FairQueue<string>();
    queue.push({ kind: 'address', id: 'a' }, 'visit');
    queue.push({ kind: 'rider', id: '1' }, 'read');
    expect(queue.shift(({ kind }) => kind === 'rider')).toBe('read');
    expect(queue.shift(({ kind }) => kind === 'rider')).toBeUndefined();
    expect(queue.waiting('address')).toBe(1);
    expect(queue.shift()).toBe('visit');
  });
});
