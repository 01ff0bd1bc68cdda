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
  /** The API's login, answering 10301 (wrong password) unless told; the bodies it was sent. */
  function stubLogin(
    reply = () =>
      new Response(JSON.stringify({ code: 10301, msg: 'Wrong username or password' }), {
        status: 401,
      }),
  ) {
    const sent: unknown[] = [];
    vi.stubGlobal('fetch', (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(init?.body as string));
      return Promise.resolve(reply());
    });
    return sent;
  }
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const fill = (email: string, password: string) => {
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  };

  it('states the terms as a line with links, and logs in without a checkbox to tick', async () => {
    const sent = stubLogin();
    await renderAt('/login?redirect=%2Fdashboard%2Fmain');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    const main = within(screen.getByRole('main'));
    expect(
      main.getByText((_, element) =>
        element?.tagName === 'P'
          ? element.textContent ===
            'By logging in, you agree to the Terms of Use and the Privacy Policy.'
          : false,
      ),
    ).toBeDefined();
    // The form's own links (the footer has them too).
    expect(main.getByRole('link', { name: 'Terms of Use' }).getAttribute('href')).toBe(
      '/copyright/terms',
    );
    expect(main.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe(
      '/copyright/policy',
    );
    // The only checkbox left is Remember me: nothing to agree to at every login.
    expect(main.getAllByRole('checkbox').map((box) => box.getAttribute('name'))).toEqual([
      'remember',
    ]);
    fill('rider@xoss.co', 'secret');
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username or password');
    expect(sent).toEqual([{ email: 'rider@xoss.co', password: 'secret' }]);
  });

  it('says how an e-mail looks beside the field, and sends nothing, for a malformed one', async () => {
    const sent = stubLogin();
    await renderAt('/login');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    fill('rider@', 'secret');
    fireEvent.click(submit);
    const email = screen.getByLabelText('E-mail');
    const problem = await screen.findByText('Enter an e-mail address like name@example.com');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(problem.id);
    expect(document.activeElement).toBe(email);
    expect(screen.queryByText('login failed')).toBeNull();
    expect(sent).toEqual([]);
    // Put right, the field's message goes and the login is sent.
    fill('rider@xoss.co', 'secret');
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe('Wrong username or password');
    expect(screen.queryByText('Enter an e-mail address like name@example.com')).toBeNull();
    expect(email.getAttribute('aria-invalid')).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('asks for the password beside its field when it is empty', async () => {
    const sent = stubLogin();
    await renderAt('/login');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    fill('rider@xoss.co', '   ');
    fireEvent.click(submit);
    expect(await screen.findByText('Enter your password')).toBeDefined();
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBeNull();
    expect(sent).toEqual([]);
  });

  it('marks the field the API refused (10400) beside it, not as "login failed"', async () => {
    // The API's rule can be stricter than the form's (a rule changed on one side first).
    const sent = stubLogin(
      () =>
        new Response(
          JSON.stringify({
            code: 10400,
            msg: 'validation_failed',
            detail: 'Please check required fields: email',
            errors: [{ path: 'email', message: 'Invalid email address' }],
          }),
          { status: 400 },
        ),
    );
    await renderAt('/login');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    fill('rider@xoss.co', 'secret');
    fireEvent.click(submit);
    const email = screen.getByLabelText('E-mail');
    const problem = await screen.findByText('Enter an e-mail address like name@example.com');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(email.getAttribute('aria-describedby')).toBe(problem.id);
    expect(screen.getByLabelText('Password').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('login failed')).toBeNull();
    expect(sent).toHaveLength(1);
  });

  it('says it in the rider’s language', async () => {
    stubLogin();
    const german = await loadMessages('de');
    await loadMessages('de', 'sitePages');
    await act(() =>
      Promise.resolve(
        render(
          <Provider store={client.store}>
            <XossIntlProvider language="de" messages={german}>
              <MemoryRouter initialEntries={['/login']}>
                <SiteRoutes />
              </MemoryRouter>
            </XossIntlProvider>
          </Provider>,
        ),
      ),
    );
    const submit = await screen.findByRole('button', { name: 'Anmelden' });
    fireEvent.change(screen.getByLabelText('E-Mail'), { target: { value: 'fahrer.xoss.co' } });
    fireEvent.click(submit);
    expect(
      await screen.findByText('Gib eine E-Mail-Adresse wie name@example.com ein'),
    ).toBeDefined();
  });
});
