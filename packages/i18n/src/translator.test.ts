import { describe, expect, it } from 'vitest';
import { PSEUDO_LOCALE, formattingLocale, loadMessages } from './catalogue.ts';
import { createTranslator, translatorFor } from './translator.ts';

describe('translatorFor (the pure API)', () => {
  it('formats the spec texts in the chosen language', async () => {
    expect((await translatorFor('de')).t('errors.10301')).toBe('Benutzername oder Passwort falsch');
    expect((await translatorFor('zh-TW')).t('toast.deviceRemoved')).toBe('裝置已成功移除');
    expect((await translatorFor('en-US')).t('errors.articleId')).toBe('Article id parameter error');
  });

  it('applies plural rules and numbers per language', async () => {
    const en = await translatorFor('en-US');
    expect(en.t('workouts.count', { count: 0 })).toBe('No workouts');
    expect(en.t('workouts.count', { count: 1 })).toBe('1 workout');
    expect(en.t('workouts.count', { count: 1250 })).toBe('1,250 workouts');
    const de = await translatorFor('de');
    expect(de.t('workouts.count', { count: 1250 })).toBe('1.250 Trainings');
    const ja = await translatorFor('ja');
    expect(ja.t('errors.10302', { minutes: 5 })).toContain('5分');
  });

  it('falls back to English for an unsupported language (spec 4)', async () => {
    const translator = await translatorFor('xx-YY');
    expect(translator.locale).toBe('en-US');
    expect(translator.t('nav.download')).toBe('Download');
    expect((await translatorFor('pt')).locale).toBe('pt-BR');
  });

  it('answers unknown ids with the id or a fallback, never a crash', async () => {
    const translator = await translatorFor('ko');
    expect(translator.tDynamic('sport.2')).toBe('사이클링');
    expect(translator.tDynamic('sport.99', undefined, 'Other')).toBe('Other');
    expect(translator.has('sport.99')).toBe(false);
    expect(translator.tDynamic('__proto__')).toBe('__proto__');
  });

  it('has a pseudo-locale that marks every text and keeps placeholders working', async () => {
    const pseudo = createTranslator(PSEUDO_LOCALE, await loadMessages(PSEUDO_LOCALE));
    const text = pseudo.t('common.pageOf', { page: 2, pages: 9 });
    expect(text.startsWith('[')).toBe(true);
    expect(text.endsWith(']')).toBe(true);
    expect(text).toContain('2');
    expect(text).toContain('9');
    expect(text).not.toContain('Page');
  });

  it('formats numbers as the language does, and the pseudo-locale as the default language', () => {
    expect(formattingLocale('de')).toBe('de');
    expect(formattingLocale(PSEUDO_LOCALE)).toBe('en-US');
  });

  it('loads each language once', async () => {
    expect(loadMessages('it')).toBe(loadMessages('it'));
    expect(await loadMessages('IT')).toBe(await loadMessages('it'));
  });
});
