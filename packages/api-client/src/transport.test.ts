import { describe, expect, it } from 'vitest';
import { SessionStore } from './session.ts';
import { Transport, apiFailureOf, isErrorReply } from './transport.ts';
import { memoryBackend } from './testing/memoryBackend.ts';

describe('Transport', () => {
  it('puts the query in the URL, a list comma-separated', async () => {
    const urls: string[] = [];
    const transport = new Transport({
      session: new SessionStore({ local: memoryBackend() }),
      baseUrl: 'https://api.example',
      locks: null,
      fetch: (input) => {
        urls.push(input instanceof Request ? input.url : input.toString());
        return Promise.resolve(
          new Response(JSON.stringify({ code: 0, msg: 'ok', data: { length: 0, streams: {} } }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
        );
      },
    });
    const result = await transport.call('sharedWorkoutStreams', {
      params: { share_id: 'abcdefghijklmnop' },
      query: { points: 1000, streams: ['time', 'speed', 'latitude'] },
    });
    expect(result).toEqual({ ok: true, value: { length: 0, streams: {} } });
    expect(urls).toEqual([
      'https://api.example/api/v2/share/workouts/abcdefghijklmnop/streams/?points=1000&streams=time%2Cspeed%2Clatitude',
    ]);
  });

  it('finds a failure in an error of unknown type, and tells an HTTP error from no reply', () => {
    const reply = apiFailureOf({ status: 404, code: 10404, msg: 'not_found' });
    expect(reply && isErrorReply(reply) && reply.code).toBe(10404);
    const offline = apiFailureOf({ status: 'NETWORK_ERROR' });
    expect(offline && isErrorReply(offline)).toBe(false);
    expect(apiFailureOf(new Error('boom'))).toBeUndefined();
    expect(apiFailureOf({ status: 'FETCH_ERROR' })).toBeUndefined();
    expect(apiFailureOf(undefined)).toBeUndefined();
  });
});
