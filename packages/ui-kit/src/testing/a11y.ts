import axe from 'axe-core';
import { expect } from 'vitest';

/**
 * Runs axe on a rendered element and fails with the violations listed (rule, impact, the
 * offending HTML). WCAG 2.2 A/AA rules plus best practices.
 */
export async function expectAccessible(element: Element): Promise<void> {
  const results = await axe.run(element, {
    runOnly: {
      type: 'tag',
      values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
    },
    // A component alone is not a page: page-level landmark rules do not apply.
    rules: {
      region: { enabled: false },
      'landmark-one-main': { enabled: false },
      'page-has-heading-one': { enabled: false },
    },
  });
  const problems = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help}\n  ${violation.nodes
        .map((node) => node.html)
        .join('\n  ')}`,
  );
  expect(problems).toEqual([]);
}
