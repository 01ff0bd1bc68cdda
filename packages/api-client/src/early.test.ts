import { describe, expect, it, vi } from 'vitest';
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

describe('EarlyCalls, what goes wrong', () => {
  it('never serves a call that failed: the page asks the network again', async () => {
    let failures = 1;
    const asked: string[] = [];
    const early = new EarlyCalls({
      fetch: (input) => {
        asked.push(input as string);
        return failures-- > 0
          ? Promise.reject(new TypeError('offline'))
          : Promise.resolve(reply({ ok: 1 }));
      },
    });
    await early.start('getWorkout', { params: { id: 4 } }, 'token');
    expect(early.pending).toBe(0);
    const session = new SessionStore({ local: memoryBackend() });
    session.setTokens({ access: 'token', refresh: 'r' });
    const transport = new Transport({ session, locks: null, fetch: early.fetch });
    expect(await transport.call('getWorkout', { params: { id: 4 } })).toEqual({
      ok: true,
      value: { ok: 1 },
    });
    expect(asked).toEqual(['/api/v2/workouts/4/', '/api/v2/workouts/4/']);
  });

  it('drops a reply nobody took after its time, and stops its download', () => {
    vi.useFakeTimers();
    try {
      const signals: AbortSignal[] = [];
      const early = new EarlyCalls({
        fetch: (_input, init) => {
          signals.push(init!.signal!);
          return new Promise<Response>(() => undefined);
        },
      });
      void early.start('getWorkout', { params: { id: 5 } }, 'token');
      expect(early.pending).toBe(1);
      vi.advanceTimersByTime(EARLY_CALL_TTL_MS + 1);
      expect(early.pending).toBe(0);
      expect(signals[0]!.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it("matches the client's own base URL, and a Request's method and headers", async () => {
    const { asked, fetch } = network();
    const early = new EarlyCalls({ fetch, baseUrl: 'https://api.example' });
    void early.start('getWorkout', { params: { id: 6 } }, 'token');
    const session = new SessionStore({ local: memoryBackend() });
    session.setTokens({ access: 'token', refresh: 'r' });
    const transport = new Transport({
      session,
      locks: null,
      baseUrl: 'https://api.example',
      fetch: early.fetch,
    });
    expect(await transport.call('getWorkout', { params: { id: 6 } })).toEqual({
      ok: true,
      value: { asked: 1 },
    });
    expect(asked.map((request) => request.url)).toEqual(['https://api.example/api/v2/workouts/6/']);
    // A POST given as a Request is never a read started early.
    void early.start('getWorkout', { params: { id: 6 } }, 'token');
    await early.fetch(
      new Request('https://api.example/api/v2/workouts/6/', {
        method: 'POST',
        headers: { authorization: 'Bearer token' },
      }),
    );
    expect(early.pending).toBe(1);
  });
});
