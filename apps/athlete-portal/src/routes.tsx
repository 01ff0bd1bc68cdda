import { Message } from '@xoss/i18n/react';
import { Footer } from '@xoss/ui-kit';
import { Navigate, Outlet, type RouteObject } from 'react-router';

function Layout() {
  return (
    <>
      <main>
        <Outlet />
      </main>
      <Footer />
    </>
  );
}

/** The signed-in area's routes (spec 2); later issues fill in every screen. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: 'dashboard', element: <Navigate to="/dashboard/main" replace /> },
      {
        path: 'dashboard/main',
        element: (
          <h1>
            <Message id="nav.dashboard" />
          </h1>
        ),
      },
      { path: 'upload', element: <Navigate to="/upload/gpxFile" replace /> },
      {
        path: 'upload/gpxFile',
        element: (
          <h1>
            <Message id="upload.title" />
          </h1>
        ),
      },
      {
        path: '*',
        element: (
          <h1>
            <Message id="errors.notFoundPage" />
          </h1>
        ),
      },
    ],
  },
];
