import { render, screen } from '@testing-library/react';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from './routes.tsx';

describe('athlete-portal routes', () => {
  let english: Awaited<ReturnType<typeof loadMessages>>;
  beforeAll(async () => {
    english = await loadMessages('en-US');
  });

  it('redirects /upload to /upload/gpxFile', async () => {
    const router = createMemoryRouter(routes, { initialEntries: ['/upload'] });
    render(
      <XossIntlProvider language="en-US" messages={english}>
        <RouterProvider router={router} />
      </XossIntlProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Upload a GPX route' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/upload/gpxFile');
  });
});
