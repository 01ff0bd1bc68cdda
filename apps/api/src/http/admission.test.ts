import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { FairQueue, fairAdmission } from './admission.ts';
import { requestDeadlines } from './deadline.ts';

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
  if (perTurn !== undefined) fairAdmission(app, perTurn);
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
    fairAdmission(app, 1);
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
    fairAdmission(app, 2);
    const order: number[] = [];
    app.get('/:n', (request, reply) => {
      order.push(Number((request.params as { n: string }).n));
      return reply.send('ok');
    });
    await app.ready();
    await Promise.all(Array.from({ length: 10 }, (_, n) => app.inject(`/${n}`)));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  /** A token naming rider `sub` (unsigned: only where a request waits depends on it). */
  const tokenOf = (sub: string) =>
    `Bearer e30.${Buffer.from(JSON.stringify({ sub })).toString('base64url')}.c2ln`;

  it('starts a newcomer within the first few slots while one rider has 200 requests waiting', async () => {
    const app = Fastify();
    apps.push(() => app.close());
    fairAdmission(app, 1);
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
    fairAdmission(app, 8, undefined, 2);
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
    fairAdmission(app, 8, undefined, Infinity, 3);
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
