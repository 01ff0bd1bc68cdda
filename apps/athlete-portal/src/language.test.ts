import { selectPreferences } from '@xoss/api-client';
import { afterEach, describe, expect, it } from 'vitest';
import { client, followBrowserLanguage } from './client.ts';

// A first visit follows the browser's languages among our nine; the menu's choice wins.

const language = () => selectPreferences(client.store.getState()).language;

afterEach(() => {
  localStorage.clear();
});

describe("the portal's language on a first visit", () => {
  it("is the first of the browser's languages we have texts in, without storing it", () => {
    localStorage.clear();
    followBrowserLanguage(['fr-FR', 'de-AT', 'en']);
    expect(language()).toBe('de');
    followBrowserLanguage(['nl', 'zh-HK']);
    expect(language()).toBe('zh-TW');
    followBrowserLanguage(['fr']);
    expect(language()).toBe('en-US');
    expect(localStorage.length).toBe(0);
  });

  it('gives way to a language chosen in the menu', () => {
    client.setLanguage('ko');
    followBrowserLanguage(['de-DE']);
    expect(language()).toBe('ko');
  });
});
