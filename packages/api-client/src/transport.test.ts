import { describe, expect, it } from 'vitest';
import { SessionStore } from './session.ts';
import type { StorageBackend } from './storage.ts';
import { Transport } from './transport.ts';

function memoryBackend(): StorageBackend {
  const data = new Map<string, string>();
  return {
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

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
    expect(result).toEqual({ ok: true, data: { length: 0, streams: {} } });
    expect(urls).toEqual([
      'https://api.example/api/v2/share/workouts/abcdefghijklmnop/streams/?points=1000&streams=time%2Cspeed%2Clatitude',
    ]);
  });
});
