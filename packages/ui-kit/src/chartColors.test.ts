import { describe, expect, it } from 'vitest';
import { chartColors } from './chartColors.ts';
import css from './styles.css?raw';
import './styles.css';

/** The colour a CSS value gives an element of the page, as the browser computes it. */
function computed(value: string): string {
  const element = document.createElement('div');
  element.style.color = value;
  document.body.append(element);
  const color = getComputedStyle(element).color;
  element.remove();
  return color;
}

describe('chart colours', () => {
  it('are design tokens of styles.css, each a colour the browser resolves', () => {
    for (const [name, value] of Object.entries(chartColors)) {
      const token = /^var\((--xoss-[\w-]+)\)$/.exec(value)?.[1];
      expect(token, name).toBeDefined();
      expect(getComputedStyle(document.documentElement).getPropertyValue(token!), name).not.toBe(
        '',
      );
      expect(computed(value), name).toMatch(/^rgb\(/);
    }
  });

  it('share the zones’ palette: heart rate, cadence, elevation and power are zone colours', () => {
    expect(computed(chartColors.heartRate)).toBe(computed('var(--xoss-zone-6)'));
    expect(computed(chartColors.cadence)).toBe(computed('var(--xoss-zone-2)'));
    expect(computed(chartColors.elevation)).toBe(computed('var(--xoss-zone-3)'));
    expect(computed(chartColors.power)).toBe(computed('var(--xoss-zone-7)'));
    expect(computed(chartColors.speed)).toBe(computed('var(--xoss-color-brand)'));
    expect(computed(chartColors.heartRate)).toBe('rgb(208, 52, 44)');
  });

  it('come from a palette that writes each colour once', () => {
    const root = /:root\s*\{([^}]*)\}/.exec(css)![1]!;
    const literals = [...root.matchAll(/:\s*(#[0-9a-f]{3,8})\s*;/gi)].map((match) =>
      match[1]!.toLowerCase(),
    );
    expect(literals.length).toBeGreaterThan(10);
    expect(new Set(literals).size).toBe(literals.length);
  });
});
