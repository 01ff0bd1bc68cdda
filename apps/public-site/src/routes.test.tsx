import { useEffect } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from './client.ts';
import { SiteRoutes, preloadRoute } from './routes.tsx';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
  // Lazily loaded pages add this part under <MoreMessages>; loaded here, it is there at once.
  await loadMessages('en-US', 'sitePages');
});

afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** Where the memory router is now. */
const router = { pathname: '' };
function LocationProbe() {
  const { pathname } = useLocation();
  useEffect(() => {
    router.pathname = pathname;
  }, [pathname]);
  return null;
}

/** Renders the site at `path`; React retries suspended lazy pages inside an awaited act(). */
async function renderAt(path: string) {
  await act(() =>
    Promise.resolve(
      render(
        <Provider store={client.store}>
          <XossIntlProvider language="en-US" messages={english}>
            <MemoryRouter initialEntries={[path]}>
              <SiteRoutes />
              <LocationProbe />
            </MemoryRouter>
          </XossIntlProvider>
        </Provider>,
      ),
    ),
  );
  return router;
}

describe('public-site routes', () => {
  it('renders home with a card and Buy Now for each product, and resets the title', async () => {
    document.title = 'Something else';
    await renderAt('/');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
      'textContent',
      'XOSS — GPS bike computers and sensors',
    );
    for (const [name, slug] of [
      ['NAV', 'xossnav'],
      ['G 2nd generation', 'xossg2'],
      ['G', 'xossG'],
      ['SPRINT', 'xossSprint'],
    ])
      expect(
        screen
          .getByRole('heading', { name, level: 3 })
          .closest('article')
          ?.querySelector('a')
          ?.getAttribute('href'),
      ).toBe(`/product/${slug}`);
    expect(screen.getAllByRole('link', { name: /Buy Now/ })).toHaveLength(4);
    await vi.waitFor(() => expect(document.title).toBe('XOSS — GPS bike computers and sensors'));
  });

  it('shows each product with the figures of spec 9; NAV on black', async () => {
    await renderAt('/product/xossnav');
    const table = await screen.findByRole('table', { name: 'NAV specifications' });
    const text = table.textContent ?? '';
    for (const figure of [
      '33+ hours',
      '600 mAh',
      '2.4 inch',
      '4 or more at once',
      'IPX7',
      '-10 to 50 °C',
      'Up to 6 pages, 17 layouts',
      '49',
      'About 3.6 GB',
    ])
      expect(text).toContain(figure);
    expect(table.closest('article')?.getAttribute('data-theme')).toBe('night');
  });

  it('shows G 2nd generation, G and SPRINT figures', async () => {
    await renderAt('/product/xossg2');
    const g2 = (await screen.findByRole('table', { name: 'G 2nd generation specifications' }))
      .textContent;
    expect(g2).toContain('28 hours');
    expect(g2).toContain('500 mAh');
    expect(g2).toContain('3 fixed pages');
    expect(g2).toContain('12 (G), 24 (G+)');
  });

  it('answers an unknown product with the not-found page', async () => {
    await renderAt('/product/xossToaster');
    expect(await screen.findByRole('heading', { name: 'This page does not exist.' })).toBeDefined();
  });

  it('lists a manual per product and spec 1 language', async () => {
    await renderAt('/product/manuals');
    const table = await screen.findByRole('table', { name: 'SPRINT manual' });
    const links = [...table.querySelectorAll('a')].map((link) => link.getAttribute('href'));
    expect(links).toEqual(
      ['en', 'ja', 'de', 'es', 'fr', 'it', 'ko', 'tw', 'cn', 'pt'].map(
        (code) => `/manuals/xossSprint-${code}.pdf`,
      ),
    );
  });

  it('shows About, Support and Cooperation with their addresses', async () => {
    await renderAt('/product/contact');
    expect(await screen.findByRole('heading', { name: 'About' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Write to support@xoss.co' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Write to cooperation@xoss.co' })).toBeDefined();
  });

  it('redirects /copyright to the terms and offers every legal page', async () => {
    const router = await renderAt('/copyright');
    expect(await screen.findByRole('heading', { name: 'Terms of Use', level: 1 })).toBeDefined();
    // The probe's effect runs after the commit that painted the heading (a transition).
    await waitFor(() => expect(router.pathname).toBe('/copyright/terms'));
    const menu = screen.getByRole('navigation', { name: 'Legal' });
    expect([...menu.querySelectorAll('a')].map((link) => link.getAttribute('href'))).toEqual([
      '/copyright/terms',
      '/copyright/protocol',
      '/copyright/termsLocal',
      '/copyright/policy',
      '/copyright/cookies',
    ]);
  });

  it('shows the cookie notice until the visitor answers, and remembers the answer', async () => {
    localStorage.clear();
    await renderAt('/product/contact');
    fireEvent.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(screen.queryByRole('button', { name: 'Decline' })).toBeNull();
    expect(client.session.cookieConsent()).toBe('declined');
  });

  it('preloads a lazily loaded page, which then renders without suspending (hydration)', async () => {
    await preloadRoute('/', 'en-US');
    await preloadRoute('/no/such/page', 'en-US');
    await preloadRoute('/download/gpxHow', 'en-US');
    render(
      <Provider store={client.store}>
        <XossIntlProvider language="en-US" messages={english}>
          <MemoryRouter initialEntries={['/download/gpxHow']}>
            <SiteRoutes />
          </MemoryRouter>
        </XossIntlProvider>
      </Provider>,
    );
    // At once, in the first commit: no fallback on the way.
    expect(
      screen.getByRole('heading', { level: 1, name: 'How to import a GPX route' }),
    ).toBeDefined();
  });

  it('redirects /product to /product/manuals', async () => {
    const router = await renderAt('/product');
    expect(await screen.findByRole('heading', { name: 'Manuals' })).toBeDefined();
    await waitFor(() => expect(router.pathname).toBe('/product/manuals'));
  });
});

describe('login', () => {
  it('asks for the agreement first, and says login failed when the server cannot be reached', async () => {
    await renderAt('/login?redirect=%2Fdashboard%2Fmain');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'rider@xoss.co' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please agree to the Terms of Use and the Privacy Policy first',
    );
    // The form's own link (the footer has one too).
    expect(
      within(screen.getByRole('main'))
        .getByRole('link', { name: 'Terms of Use' })
        .getAttribute('href'),
    ).toBe('/copyright/terms');
  });
});
