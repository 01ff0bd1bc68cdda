import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { fairAdmission } from './admission.ts';
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
});
