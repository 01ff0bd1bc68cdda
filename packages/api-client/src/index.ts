export {
  SEVEN_DAYS_MS,
  STORAGE_PREFIX,
  createPrefixedStorage,
  type PrefixedStorage,
  type StorageBackend,
} from './storage.ts';
