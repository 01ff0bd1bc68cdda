import { describe, expect, it } from 'vitest';
import { menuLanguages, negotiateLanguage, normalizeLanguage, textLanguages } from './languages.ts';

describe('language lists', () => {
  it('has nine text languages and a menu that is a subset of them', () => {
    expect(textLanguages).toHaveLength(9);
    for (const language of menuLanguages) expect(textLanguages).toContain(language);
  });
});

describe('normalizeLanguage', () => {
  it('keeps supported languages, whatever their case', () => {
    expect(normalizeLanguage('zh-TW')).toBe('zh-TW');
    expect(normalizeLanguage('ZH-tw')).toBe('zh-TW');
    expect(normalizeLanguage('de')).toBe('de');
  });
  it('maps bare languages and scripts to a supported region', () => {
    expect(normalizeLanguage('pt')).toBe('pt-BR');
    expect(normalizeLanguage('zh-Hant')).toBe('zh-TW');
    expect(normalizeLanguage('de-AT')).toBe('de');
    expect(normalizeLanguage('en_GB')).toBe('en-US');
  });
  it('falls back to English for anything else', () => {
    expect(normalizeLanguage('xx')).toBe('en-US');
    expect(normalizeLanguage(42)).toBe('en-US');
    expect(normalizeLanguage(undefined)).toBe('en-US');
  });
});

describe('negotiateLanguage (a first visit follows the browser)', () => {
  it("takes the first of the browser's languages we have texts in", () => {
    expect(negotiateLanguage(['de-AT', 'en'])).toBe('de');
    expect(negotiateLanguage(['fr-FR', 'fr', 'ja-JP', 'en'])).toBe('ja');
    expect(negotiateLanguage(['pt-PT'])).toBe('pt-BR');
    expect(negotiateLanguage(['zh-HK'])).toBe('zh-TW');
    expect(negotiateLanguage(['zh-Hant-TW'])).toBe('zh-TW');
    expect(negotiateLanguage(['zh-Hans-CN'])).toBe('zh-CN');
    expect(negotiateLanguage(['ko-KR'])).toBe('ko');
  });

  it('falls back to English when none of them is ours, or there are none', () => {
    expect(negotiateLanguage(['fr-FR', 'nl'])).toBe('en-US');
    expect(negotiateLanguage([])).toBe('en-US');
    expect(negotiateLanguage(undefined)).toBe('en-US');
    expect(negotiateLanguage('')).toBe('en-US');
  });

  it('reads an Accept-Language header by its q-values', () => {
    expect(negotiateLanguage('fr;q=0.9, zh-Hant-HK;q=0.8, en;q=0.5')).toBe('zh-TW');
    expect(negotiateLanguage('en;q=0.2, es-MX;q=0.7, *;q=0.1')).toBe('es');
    expect(negotiateLanguage('it-CH, de;q=0')).toBe('it');
    expect(negotiateLanguage('de;q=0, fr')).toBe('en-US');
  });
});
