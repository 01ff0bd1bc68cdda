/** The minimal part of the Web Storage API this module needs. */
export interface StorageBackend {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The common prefix of every key the product stores (spec 3). */
export const STORAGE_PREFIX = 'xoss_';

/** Seven days in milliseconds: how long tokens and user info are kept (spec 9). */
export const SEVEN_DAYS_MS = 7 * 24 * 60 * 60 * 1000;

interface Entry {
  v: unknown;
  e: number | null;
}

function isEntry(value: unknown): value is Entry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Record<string, unknown>;
  return 'v' in entry && (entry.e === null || typeof entry.e === 'number');
}

/** A key-value store that prefixes every key and forgets entries after their expiry. */
export interface PrefixedStorage {
  get<T = unknown>(key: string): T | undefined;
  set(key: string, value: unknown, ttlMs?: number): void;
  remove(key: string): void;
}

/**
 * Wraps a Web Storage backend: keys get `prefix`, values are JSON with an optional expiry.
 * Corrupt, foreign or expired entries read as absent and are removed.
 *
 * @example
 * const store = createPrefixedStorage(localStorage);
 * store.set('token', 'abc', SEVEN_DAYS_MS);
 * store.get<string>('token'); // 'abc' for seven days, then undefined
 */
export function createPrefixedStorage(
  backend: StorageBackend,
  options: { prefix?: string; now?: () => number } = {},
): PrefixedStorage {
  const prefix = options.prefix ?? STORAGE_PREFIX;
  const now = options.now ?? Date.now;
  return {
    get<T>(key: string): T | undefined {
      const raw = backend.getItem(prefix + key);
      if (raw === null) return undefined;
      let entry: unknown;
      try {
        entry = JSON.parse(raw);
      } catch {
        entry = undefined;
      }
      if (!isEntry(entry) || (entry.e !== null && entry.e <= now())) {
        backend.removeItem(prefix + key);
        return undefined;
      }
      return entry.v as T;
    },
    set(key, value, ttlMs) {
      const entry: Entry = { v: value, e: ttlMs === undefined ? null : now() + ttlMs };
      backend.setItem(prefix + key, JSON.stringify(entry));
    },
    remove(key) {
      backend.removeItem(prefix + key);
    },
  };
}
