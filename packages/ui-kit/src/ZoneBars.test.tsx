import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';
import { ZoneBars } from './ZoneBars.tsx';

afterEach(cleanup);

/** Drags across the first panel's hit area from one fraction of its width to another. */

describe('ZoneBars', () => {
  it('lists the power zones with names, ranges in watts, time and share', async () => {
    const zones = [
      { zone: 1, low: 0, high: 55, seconds: 600 },
      { zone: 2, low: 55, high: 75, seconds: 1800 },
      { zone: 3, low: 75, high: 90, seconds: 900 },
      { zone: 4, low: 90, high: 105, seconds: 300 },
      { zone: 5, low: 105, high: 120, seconds: 0 },
      { zone: 6, low: 120, high: 150, seconds: 0 },
      { zone: 7, low: 150, high: null, seconds: 0 },
    ];
    const { container } = await renderIn(
      <ZoneBars kind="power" zones={zones} reference={200} />,
      'pt-BR',
    );
    const table = screen.getByRole('table', { name: 'Zonas de potência' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(7);
    expect(rows[1]!.textContent).toContain('Z2 Resistência');
    expect(rows[1]!.textContent).toContain('110–150 W');
    expect(rows[1]!.textContent).toContain('30:00');
    expect(rows[1]!.textContent).toContain('50%');
    expect(rows[6]!.textContent).toContain('> 300 W');
    await expectAccessible(container);
  });
});
