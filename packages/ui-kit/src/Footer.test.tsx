import { render, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { describe, expect, it } from 'vitest';
import { copyrightYears } from './copyright.ts';
import { Footer } from './Footer.tsx';
import { expectAccessible } from './testing/a11y.ts';

describe('copyrightYears', () => {
  it('spans from 2017 to the current year', () => {
    expect(copyrightYears(new Date(2026, 10, 22))).toBe('2017–2026');
    expect(copyrightYears(new Date(2017, 0, 1))).toBe('2017');
  });
});

describe('Footer', () => {
  it('renders the computed span in a contentinfo landmark, in the chosen language', async () => {
    render(
      <XossIntlProvider language="es" messages={await loadMessages('es')}>
        <Footer now={new Date(2030, 0, 1)} />
      </XossIntlProvider>,
    );
    expect(screen.getByRole('contentinfo').textContent).toBe(
      '© 2017–2030 XOSS. Todos los derechos reservados.',
    );
    await expectAccessible(screen.getByRole('contentinfo'));
  });
});
