// What the portal's entry and its application share: the calls the entry starts before the
// store exists, and the first visit's language. Kept apart from the entry's ride-page plan,
// whose pages import the application's client.
import { EarlyCalls, createPrefixedStorage, storageKeys } from '@xoss/api-client';
import { negotiateLanguage } from '@xoss/i18n';

/** Calls started by the entry, answered to the application's transport (`client.ts`). */
export const earlyCalls = new EarlyCalls();

/**
 * A first visit (no language chosen in the menu, the site or the app): the first of the
 * browser's languages we have texts in, else English; `undefined` once the rider has chosen.
 */
export function firstVisitLanguage(
  storage: Storage,
  languages: readonly string[],
): string | undefined {
  const chosen = createPrefixedStorage(storage).get<unknown>(storageKeys.language);
  return typeof chosen === 'string' && chosen.length > 0 ? undefined : negotiateLanguage(languages);
}
