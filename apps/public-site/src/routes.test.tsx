import { fireEvent, render, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

let english: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  english = await loadMessages('en-US');
});

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <XossIntlProvider language="en-US" messages={english}>
      <RouterProvider router={router} />
    </XossIntlProvider>,
  );
  return router;
}

describe('public-site routes', () => {
  it('renders home with a link to each product page', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
      'textContent',
      'XOSS — GPS bike computers and sensors',
    );
    expect(screen.getByRole('link', { name: 'NAV' }).getAttribute('href')).toBe('/product/xossnav');
  });
  it('redirects /product to /product/manuals', async () => {
    const router = renderAt('/product');
    expect(await screen.findByRole('heading', { name: 'Manuals' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/product/manuals');
  });
});

describe('login', () => {
  it('asks for the agreement first, and says login failed when the server cannot be reached', async () => {
    renderAt('/login?redirect=%2Fdashboard%2Fmain');
    const submit = await screen.findByRole('button', { name: 'Log In' });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'rider@xoss.co' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret' } });
    fireEvent.click(submit);
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Please agree to the Terms of Use and the Privacy Policy first',
    );
    expect(screen.getByRole('link', { name: 'Terms of Use' }).getAttribute('href')).toBe(
      '/copyright/terms',
    );
  });
});
