import { useEffect } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { client } from './client.ts';
import { afterLogin } from './Login.tsx';
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
    // The bike computers, then the sensors and lights of spec 1, each under its heading.
    for (const [list, cards] of [
      [
        'Bike computers',
        [
          ['NAV', 'xossnav'],
          ['G 2nd generation', 'xossg2'],
          ['G', 'xossG'],
          ['SPRINT', 'xossSprint'],
        ],
      ],
      [
        'Sensors and lights',
        [
          ['Heart Rate Monitor', 'xossHeartRate'],
          ['Cadence Sensor', 'xossCadence'],
          ['Speed Sensor', 'xossSpeed'],
          ['Bike Lights', 'xossLights'],
        ],
      ],
    ] as const) {
      const section = within(screen.getByRole('region', { name: list }));
      for (const [name, slug] of cards)
        expect(
          section
            .getByRole('heading', { name, level: 3 })
            .closest('article')
            ?.querySelector('a')
            ?.getAttribute('href'),
        ).toBe(`/product/${slug}`);
    }
    expect(screen.getAllByRole('link', { name: /Buy Now/ })).toHaveLength(8);
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

  it('shows the heart-rate monitor, cadence and speed sensors and lights with their tables', async () => {
    const tables: [path: string, caption: string, figures: string[]][] = [
      [
        '/product/xossHeartRate',
        'Heart Rate Monitor specifications',
        ['Heart rate (bpm)', 'ANT+ and Bluetooth', 'Adjustable chest strap', 'CR2032 coin cell'],
      ],
      [
        '/product/xossCadence',
        'Cadence Sensor specifications',
        ['Cadence (rpm)', 'ANT+ and Bluetooth', 'Crank arm', 'CR2032 coin cell', 'IPX7'],
      ],
      [
        '/product/xossSpeed',
        'Speed Sensor specifications',
        ['Speed and distance', 'ANT+ and Bluetooth', 'Wheel hub', 'CR2032 coin cell', 'IPX7'],
      ],
      [
        '/product/xossLights',
        'Bike Lights specifications',
        ['Up to 400 lumens', 'Up to 30 lumens', '2000 mAh (front), 300 mAh (rear)', 'USB-C'],
      ],
    ];
    for (const [path, caption, figures] of tables) {
      await renderAt(path);
      const table = await screen.findByRole('table', { name: caption });
      for (const figure of figures) expect(table.textContent, path).toContain(figure);
      // Its manuals, as a bike computer's, and the app in this language.
      expect(screen.getByRole('link', { name: /^Manuals for/ }).getAttribute('href'), path).toBe(
        `/product/manuals#${path.slice('/product/'.length)}`,
      );
      expect(
        screen.getByRole('link', { name: 'Get the XOSS app' }).getAttribute('href'),
        path,
      ).toBe('/product/download/en-US');
      cleanup();
    }
  });

  it('names every product the same way in its heading, card and table, in German too', async () => {
    const german = await loadMessages('de');
    await loadMessages('de', 'sitePages');
    const renderGerman = (path: string) =>
      act(() =>
        Promise.resolve(
          render(
            <Provider store={client.store}>
              <XossIntlProvider language="de" messages={german}>
                <MemoryRouter initialEntries={[path]}>
                  <SiteRoutes />
                </MemoryRouter>
              </XossIntlProvider>
            </Provider>,
          ),
        ),
      );
    await renderGerman('/product/xossg2');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
      'textContent',
      'XOSS G 2. Generation',
    );
    const table = screen.getByRole('table', { name: 'Technische Daten G 2. Generation' });
    expect(within(table).getByRole('row', { name: /Modell/ }).textContent).toContain(
      'G 2. Generation',
    );
    cleanup();
    await renderGerman('/');
    expect(await screen.findByRole('heading', { name: 'G 2. Generation', level: 3 })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Herzfrequenzmesser', level: 3 })).toBeDefined();
    expect(screen.queryByText(/2nd generation/)).toBeNull();
  });

  it('answers an unknown product with the not-found page', async () => {
    await renderAt('/product/xossToaster');
    expect(await screen.findByRole('heading', { name: 'This page does not exist.' })).toBeDefined();
  });

  it('lists a manual per product, sensors and lights included, in each of the nine languages', async () => {
    await renderAt('/product/manuals');
    const codes = ['en', 'ja', 'de', 'es', 'it', 'ko', 'tw', 'cn', 'pt'];
    for (const [caption, slug] of [
      ['SPRINT manual', 'xossSprint'],
      ['Heart Rate Monitor manual', 'xossHeartRate'],
      ['Bike Lights manual', 'xossLights'],
    ]) {
      const table = await screen.findByRole('table', { name: caption });
      const links = [...table.querySelectorAll('a')].map((link) => link.getAttribute('href'));
      expect(links).toEqual(codes.map((code) => `/manuals/${slug}-${code}.pdf`));
    }
    expect(screen.getAllByRole('table')).toHaveLength(8);
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

  it('opens the store pages in the language of /product/download/{lang}', async () => {
    await renderAt('/product/download/ja');
    const iphone = await screen.findByRole('link', { name: /iPhone/ });
    expect(iphone.getAttribute('href')).toMatch(/\?l=ja$/);
    expect(screen.getByRole('link', { name: /Android/ }).getAttribute('href')).toMatch(/&hl=ja$/);
    cleanup();
    // An unknown one falls back to English (spec 4).
    await renderAt('/product/download/xx');
    expect((await screen.findByRole('link', { name: /Android/ })).getAttribute('href')).toMatch(
      /&hl=en-US$/,
    );
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

  it('keeps the form, busy, while the portal loads after a login: no flash of the public home', async () => {
    vi.stubGlobal('fetch', (url: string) =>
      Promise.resolve(
        String(url).includes('/jwt-token/')
          ? new Response(
              JSON.stringify({ code: 0, data: { access: 'a.e30.c', refresh: 'r', id: '7' } }),
              {
                status: 200,
                headers: { 'content-type': 'application/json' },
              },
            )
          : new Response(JSON.stringify({ code: 10404, msg: 'Not found' }), { status: 404 }),
      ),
    );
    const go = vi.spyOn(afterLogin, 'go').mockImplementation(() => undefined);
    try {
      const router = await renderAt('/login?redirect=%2Fworkouts');
      fill('rider@xoss.co', 'secret');
      fireEvent.click(await screen.findByRole('button', { name: 'Log In' }));
      await waitFor(() => expect(go).toHaveBeenCalledWith('/workouts'));
      // Whatever renders next (the session changed) keeps this page until the portal's loads.
      await act(() => Promise.resolve());
      expect(router.pathname).toBe('/login');
      expect(
        screen.getByRole('heading', { name: 'Log in to your XOSS account', level: 1 }),
      ).toBeDefined();
      expect(screen.getByRole('button', { name: /Log In/ }).getAttribute('aria-busy')).toBe('true');
    } finally {
      go.mockRestore();
      client.session.clear();
    }
  });

  it('says a login that threw as a failed login, and frees the form', async () => {
    stubLogin();
    const thrown = vi.spyOn(client, 'logIn').mockRejectedValue(new Error('storage refused'));
    try {
      await renderAt('/login');
      fill('rider@xoss.co', 'secret');
      fireEvent.click(await screen.findByRole('button', { name: 'Log In' }));
      expect((await screen.findByRole('alert')).textContent).toBe('login failed');
      expect(screen.getByRole('button', { name: 'Log In' }).hasAttribute('disabled')).toBe(false);
    } finally {
      thrown.mockRestore();
    }
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
