import { describe, expect, it } from 'vitest';
import { menuLanguages, normalizeLanguage, textLanguages } from './languages.ts';

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
