import { guardNavigation, requiresLogin } from '@xoss/api-client';
import { Message } from '@xoss/i18n/react';
import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { client } from './client.ts';
import { Dashboard } from './pages/Dashboard.tsx';
import { DeveloperDevices } from './pages/Developer.tsx';
import { DeviceList, DeviceSettings } from './pages/Devices.tsx';
import { IndoorSummary } from './pages/IndoorSummary.tsx';
import { LayoutManager } from './pages/LayoutManager.tsx';
import { PowerCurvePage } from './pages/PowerCurve.tsx';
import { SettingsPage } from './pages/Settings.tsx';
import { WorkoutsList } from './pages/WorkoutsList.tsx';
import { Shell } from './Shell.tsx';

let previousPath: string | null = null;

/** A ride page opened through its share link. */
export const isSharedRideLink = (url: URL) =>
  /^\/dashboard\/workouts\/share\/\d+\/?$/.test(url.pathname) &&
  /^[A-Za-z0-9_-]{16,64}$/.test(url.searchParams.get('share') ?? '');

/** Leaves the portal for another app's page, replacing the history entry (tests stub it). */
export const leave = { to: (url: string) => window.location.replace(url) };

/**
 * Spec 4's guard on every navigation: visitors go to the site's /login (a full page load,
 * history replaced, so Back does not return here), with the path to come back to.
 */
export function guard({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const to = `${url.pathname}${url.search}`;
  const decision = guardNavigation({
    to,
    from: previousPath,
    loggedIn: client.session.isLoggedIn(),
    // A shared ride's link (`?share=<share id>`) opens for anyone: that is what sharing is.
    requiresLogin: (path) => !isSharedRideLink(url) && requiresLogin(path),
  });
  if (decision.action === 'redirect') {
    leave.to(decision.to);
    // The page is going away; render nothing meanwhile.
    return new Promise<never>(() => undefined);
  }
  client.navigated(decision.previousPath);
  previousPath = to;
  return null;
}

/** The signed-in area's routes (spec 2). */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    loader: guard,
    shouldRevalidate: () => true,
    children: [
      { path: 'dashboard', element: <Navigate to="/dashboard/main" replace /> },
      { path: 'dashboard/main', element: <Dashboard /> },
      { path: 'dashboard/workouts/list', element: <WorkoutsList /> },
      // The map pages bring OpenLayers: their own chunks, loaded with the page, so no single
      // task parses everything at start.
      {
        path: 'dashboard/workouts/share/:id',
        lazy: () =>
          import('./pages/WorkoutShare.tsx').then(({ WorkoutShare }) => ({
            Component: WorkoutShare,
          })),
      },
      { path: 'dashboard/workouts/powerCurve/:id', element: <PowerCurvePage /> },
      {
        path: 'dashboard/workouts/indoor/model/:id',
        element: <IndoorSummary />,
        handle: { keepTitle: true },
      },
      { path: 'dashboard/device/list', element: <DeviceList /> },
      { path: 'dashboard/device/list/settings/:deviceIndex', element: <DeviceSettings /> },
      // Spec 2's manager, layout, layout/{event} and data steps share one editor.
      { path: 'dashboard/device/list/manager/*', element: <LayoutManager /> },
      { path: 'dashboard/settings', element: <SettingsPage /> },
      { path: 'upload', element: <Navigate to="/upload/gpxFile" replace /> },
      {
        path: 'upload/gpxFile',
        lazy: () =>
          import('./pages/UploadGpx.tsx').then(({ UploadGpx }) => ({ Component: UploadGpx })),
      },
      { path: 'developer/mydevices', element: <DeveloperDevices /> },
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
