import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { textLanguages } from './languages.ts';

// One period vocabulary across the training pages (power curve, its model, fitness, bests):
// the same window has the same name wherever a rider picks it, in every language. The power
// model said "Last 42 days" beside the curve's "Last 6 weeks" for the same 42 days.
const SAME_NAME: readonly (readonly string[])[] = [
  ['workouts.compare.last6weeks', 'workouts.model.window.42d'],
  ['training.range.season', 'workouts.model.window.season'],
  ['training.range.all', 'workouts.model.window.all'],
];

describe('the period vocabulary', () => {
  it.for(textLanguages)('names each window one way in %s', (language) => {
    const messages = JSON.parse(
      readFileSync(new URL(`../messages/${language}.json`, import.meta.url), 'utf8'),
    ) as Record<string, string>;
    for (const keys of SAME_NAME)
      expect(new Set(keys.map((key) => messages[key])), keys.join(' = ')).toHaveLength(1);
  });
});

describe('the footer', () => {
  const read = (language: string) =>
    JSON.parse(
      readFileSync(new URL(`../messages/${language}.json`, import.meta.url), 'utf8'),
    ) as Record<string, string>;
  const english = read('en-US');
  // Its copyright line was English on the Japanese pages.
  it.for(textLanguages.filter((language) => language !== 'en-US'))(
    'is in %s from its first link to its copyright line',
    (language) => {
      const messages = read(language);
      const untranslated = Object.keys(english).filter(
        (key) => key.startsWith('footer.') && messages[key] === english[key],
      );
      expect(untranslated).toEqual([]);
    },
  );
});
