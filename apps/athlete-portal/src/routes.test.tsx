import { render, screen } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

describe('athlete-portal routes', () => {
  it('redirects /upload to /upload/gpxFile', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/upload'] });
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Upload a GPX route' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/upload/gpxFile');
  });
});
