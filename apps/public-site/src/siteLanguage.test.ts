import { createPrefixedStorage, storageKeys } from '@xoss/api-client';
import { describe, expect, it } from 'vitest';
import { visitorLanguage } from './siteState.ts';

// The site's language: the visitor's choice, else on a first visit the browser's languages
// (what it sends as Accept-Language) among our nine, else English.

function storage() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe("the site's language", () => {
  it("follows the browser's languages on a first visit", () => {
    expect(visitorLanguage(storage(), ['fr-FR', 'it-CH', 'en'])).toBe('it');
    expect(visitorLanguage(storage(), ['pt-PT', 'en'])).toBe('pt-BR');
    expect(visitorLanguage(storage(), ['nl-NL'])).toBe('en-US');
  });

  it('keeps the language chosen in the menu', () => {
    const chosen = storage();
    createPrefixedStorage(chosen).set(storageKeys.language, 'ja');
    expect(visitorLanguage(chosen, ['de-DE'])).toBe('ja');
  });
});
