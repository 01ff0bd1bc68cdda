import { composeStories } from '@storybook/react-vite';
import { cleanup } from '@testing-library/react';
import type { ComponentType } from 'react';
import { deviceProfiles, fieldByKey } from '@xoss/data-fields';
import { PSEUDO_LOCALE, textLanguages } from '@xoss/i18n';
import { afterEach, describe, expect, it } from 'vitest';
import { page as browser } from 'vitest/browser';
import {
  ChartTypePicker,
  FieldPicker,
  LayoutTemplatePicker,
  SizePicker,
} from './DataFieldControls.tsx';
import { overflowingTexts } from './testing/overflow.ts';
import { renderIn } from './testing/render.tsx';

afterEach(cleanup);

// Long words never break a component: German compounds ("Geschwindigkeitsdiagramm"), the
// pseudo-locale's stretched English, on a phone and a tablet. Every label wraps, hyphenated
// where the browser knows the language, and never leaves its box or runs into its neighbour.

const noop = () => undefined;
const languages = [...textLanguages, PSEUDO_LOCALE];

describe.each(languages)('labels in %s', (language) => {
  it.each([390, 1024])('stay inside their boxes at %i px', async (width) => {
    const { container } = await renderIn(
      <div style={{ width }} data-testid="page">
        <FieldPicker
          value={fieldByKey('Speed')!.id}
          onChange={noop}
          available={deviceProfiles.G.fields}
        />
        <SizePicker value="Large" onChange={noop} />
        <ChartTypePicker value={null} onChange={noop} />
        <LayoutTemplatePicker layouts={deviceProfiles.G.layouts} value={0} onChange={noop} />
      </div>,
      language,
    );
    const page = container.querySelector<HTMLElement>('[data-testid="page"]')!;
    expect(overflowingTexts(page)).toEqual([]);
  });
});

// Every story the Storybook shows, drawn at a phone's and a tablet's width (the window's, so
// each component takes the layout its media queries give that width), in each language.
const storyModules = import.meta.glob<Record<string, unknown>>('./*.stories.tsx', {
  eager: true,
});
const stories = Object.entries(storyModules).flatMap(([file, module]) =>
  Object.entries(composeStories(module as Parameters<typeof composeStories>[0])).map(
    ([name, Story]) => [`${file.slice(2, -'.stories.tsx'.length)}/${name}`, Story] as const,
  ),
);

describe.each([390, 1024])('every story at %i px', (width) => {
  it.each(languages)('keeps its labels inside their boxes in %s', async (language) => {
    expect(stories.length).toBeGreaterThan(50);
    await browser.viewport(width, 900);
    const problems: string[] = [];
    for (const [name, Story] of stories) {
      const Shown = Story as ComponentType;
      const { container } = await renderIn(
        <div data-testid="page">
          <Shown />
        </div>,
        language,
      );
      const page = container.querySelector<HTMLElement>('[data-testid="page"]')!;
      problems.push(...overflowingTexts(page).map((problem) => `${name}: ${problem}`));
      cleanup();
    }
    expect(problems).toEqual([]);
  });
});
