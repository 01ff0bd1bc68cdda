import { describe, expect, it } from 'vitest';
import * as kit from './index.ts';

// Storybook is the design system's catalogue: every component the package exports has a
// docs page, as a story's `component` or among its `subcomponents` (their props tables).

interface StoryMeta {
  readonly title?: string;
  readonly component?: unknown;
  readonly subcomponents?: Record<string, unknown>;
}

const stories = import.meta.glob<{ default: StoryMeta }>('./*.stories.tsx', { eager: true });

describe('Storybook pages', () => {
  it('document every exported component', () => {
    const documented = new Set<unknown>();
    for (const { default: meta } of Object.values(stories)) {
      documented.add(meta.component);
      for (const component of Object.values(meta.subcomponents ?? {})) documented.add(component);
    }
    // A component is an exported function or class whose name is capitalised.
    const components = Object.entries(kit).filter(
      ([name, value]) => typeof value === 'function' && /^[A-Z]/.test(name),
    );
    expect(components.length).toBeGreaterThan(30);
    expect(components.filter(([, value]) => !documented.has(value)).map(([name]) => name)).toEqual(
      [],
    );
  });
});
