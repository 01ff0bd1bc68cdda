import { describe, expect, it } from 'vitest';
import { SEVEN_DAYS_MS, createPrefixedStorage, type StorageBackend } from './storage.ts';

function memoryBackend(): StorageBackend & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

describe('createPrefixedStorage', () => {
  it('prefixes keys and round-trips JSON values', () => {
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend);
    store.set('userInfo', { name: 'Ada', id: '1' });
    expect([...backend.data.keys()]).toEqual(['xoss_userInfo']);
    expect(store.get('userInfo')).toEqual({ name: 'Ada', id: '1' });
  });

  it('forgets an entry seven days after it was written', () => {
    let clock = 1_000_000;
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend, { now: () => clock });
    store.set('token', 'abc', SEVEN_DAYS_MS);
    clock += SEVEN_DAYS_MS - 1;
    expect(store.get('token')).toBe('abc');
    clock += 1;
    expect(store.get('token')).toBeUndefined();
    expect(backend.data.size).toBe(0);
  });

  it('reads corrupt or foreign entries as absent', () => {
    const backend = memoryBackend();
    const store = createPrefixedStorage(backend);
    backend.setItem('xoss_a', '{not json');
    backend.setItem('xoss_b', '"plain string"');
    backend.setItem('xoss_c', JSON.stringify({ v: 1, e: 'tomorrow' }));
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeUndefined();
    expect(store.get('c')).toBeUndefined();
  });
});
