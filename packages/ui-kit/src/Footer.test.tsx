import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { copyrightYears } from './copyright.ts';
import { Footer } from './Footer.tsx';
import { SHOP_URL } from './Navbar.tsx';
import { expectAccessible } from './testing/a11y.ts';
import { renderIn } from './testing/render.tsx';

describe('copyrightYears', () => {
  it('spans from 2017 to the current year', () => {
    expect(copyrightYears(new Date(2026, 10, 22))).toBe('2017–2026');
    expect(copyrightYears(new Date(2017, 0, 1))).toBe('2017');
  });
});

describe('Footer', () => {
  it('renders the site map and the computed span in a contentinfo landmark, in the chosen language', async () => {
    await renderIn(<Footer now={new Date(2030, 0, 1)} />, 'es');
    const footer = screen.getByRole('contentinfo');
    expect(footer.querySelector('small')?.textContent).toBe(
      '© 2017–2030 XOSS. Todos los derechos reservados.',
    );
    const map = within(footer).getByRole('navigation', { name: 'Mapa del sitio' });
    const hrefs = within(map)
      .getAllByRole('link')
      .map((link) => link.getAttribute('href'));
    // Products, manuals, app, maps, articles, contact and every legal text, one click away.
    for (const path of [
      '/',
      '/product/manuals',
      '/product/download',
      '/download/maps',
      '/download/globalMaps',
      '/download/gpxHow',
      '/upload/gpxFile',
      '/post/content',
      '/product/contact',
      '/copyright/terms',
      '/copyright/policy',
      '/copyright/cookies',
    ])
      expect(hrefs).toContain(path);
    expect(within(map).getByRole('link', { name: 'Política de privacidad' })).toBeTruthy();
    await expectAccessible(footer);
  });

  it("renders internal links through the app's router and opens the shop in a new tab", async () => {
    const seen: string[] = [];
    await renderIn(
      <Footer
        renderLink={({ href, children }) => {
          seen.push(href);
          return (
            <a href={href} data-router="yes">
              {children}
            </a>
          );
        }}
      />,
    );
    expect(seen).toContain('/copyright/terms');
    expect(seen).not.toContain(SHOP_URL);
    const shop = screen.getByRole('link', { name: 'Shop' });
    expect(shop.getAttribute('target')).toBe('_blank');
    expect(shop.getAttribute('data-router')).toBeNull();
  });
});
