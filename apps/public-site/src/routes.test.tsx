import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

describe('public-site routes', () => {
  it('renders home with a link to each product page', async () => {
    renderAt('/');
    expect(await screen.findByRole('heading', { level: 1 })).toHaveProperty(
      'textContent',
      'XOSS GPS bike computers',
    );
    expect(screen.getByRole('link', { name: 'NAV' }).getAttribute('href')).toBe('/product/xossnav');
  });
  it('redirects /product to /product/manuals', async () => {
    const router = renderAt('/product');
    expect(await screen.findByRole('heading', { name: 'Manuals' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/product/manuals');
  });
});
