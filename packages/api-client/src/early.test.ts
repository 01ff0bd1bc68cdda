import { describe, expect, it } from 'vitest';
import { EARLY_CALL_TTL_MS, EarlyCalls } from './early.ts';
import { SessionStore } from './session.ts';
import { Transport } from './transport.ts';
import { memoryBackend } from './testing/memoryBackend.ts';

const reply = (data: unknown) =>
  new Response(JSON.stringify({ code: 0, msg: 'ok', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

/** A network that counts what is asked of it, with the URL and the token of each request. */
function network() {
  const asked: { url: string; authorization: string | null }[] = [];
  const fetch: typeof globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    asked.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    return Promise.resolve(reply({ asked: asked.length }));
  };
  return { asked, fetch };
}

const streams = {
  params: { id: 7 },
  query: { points: 1200, streams: ['time' as const, 'power' as const] },
};

describe('EarlyCalls', () => {
  it("answers the transport's same request with the reply started early, once", async () => {
    const { asked, fetch } = network();
    let now = 0;
    const early = new EarlyCalls({ fetch, now: () => now });
    const session = new SessionStore({ local: memoryBackend() });
    session.setTokens({ access: 'token-a', refresh: 'r' });
    void early.start('workoutStreams', streams, 'token-a');
    expect(asked).toEqual([
      {
        url: '/api/v2/workouts/7/streams/?points=1200&streams=time%2Cpower',
        authorization: 'Bearer token-a',
      },
    ]);
    const transport = new Transport({ session, locks: null, fetch: early.fetch });
    now = 1000;
    // The page's call: no second request, the early reply.
    expect(await transport.call('workoutStreams', streams)).toEqual({
      ok: true,
      value: { asked: 1 },
    });
    expect(asked).toHaveLength(1);
    expect(early.pending).toBe(0);
    // Asked again: a reply is taken once, so this one goes to the network.
    expect(await transport.call('workoutStreams', streams)).toEqual({
      ok: true,
      value: { asked: 2 },
    });
  });

  it('never answers another request, another token or a stale start with it', async () => {
    const { asked, fetch } = network();
    let now = 0;
    const early = new EarlyCalls({ fetch, now: () => now });
    const session = new SessionStore({ local: memoryBackend() });
    session.setTokens({ access: 'token-b', refresh: 'r' });
    const transport = new Transport({ session, locks: null, fetch: early.fetch });
    void early.start('workoutStreams', streams, 'token-a');
    void early.start('getWorkout', { params: { id: 7 } }, 'token-b');
    // Another token (the rider signed in again meanwhile): asked anew, with the new one.
    await transport.call('workoutStreams', streams);
    expect(asked.at(-1)).toEqual({
      url: '/api/v2/workouts/7/streams/?points=1200&streams=time%2Cpower',
      authorization: 'Bearer token-b',
    });
    expect(asked).toHaveLength(3);
    // Other points: another request.
    await transport.call('workoutStreams', {
      ...streams,
      query: { ...streams.query, points: 999 },
    });
    expect(asked).toHaveLength(4);
    // Too old to be the page's (the rider stayed away): asked anew.
    now = EARLY_CALL_TTL_MS + 1;
    expect(await transport.call('getWorkout', { params: { id: 7 } })).toEqual({
      ok: true,
      value: { asked: 5 },
    });
    expect(() => early.start('deleteWorkout', { params: { id: 7 } }, 'token-b')).toThrow(
      /not a read/,
    );
  });

  it("ends the caller's wait when its signal aborts", async () => {
    let answer: (response: Response) => void = () => undefined;
    const early = new EarlyCalls({
      fetch: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    void early.start('getWorkout', { params: { id: 3 } }, 'token');
    const controller = new AbortController();
    const waiting = early.fetch('/api/v2/workouts/3/', {
      headers: { Authorization: 'Bearer token' },
      signal: controller.signal,
    });
    controller.abort(new DOMException('gone', 'AbortError'));
    await expect(waiting).rejects.toThrow('gone');
    answer(reply({}));
  });
});
