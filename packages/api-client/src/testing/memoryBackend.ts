import type { StorageBackend } from '../storage.ts';

/** Storage in a Map, for tests: what `localStorage` is in a browser (`data` to look inside). */
export function memoryBackend(): StorageBackend & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}
