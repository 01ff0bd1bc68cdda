import { guardNavigation, requiresLogin, selectPreferences } from '@xoss/api-client';
import { loadMessages } from '@xoss/i18n';
import { Message, MoreMessages } from '@xoss/i18n/react';
import { PageFailed } from '@xoss/ui-kit';
import type { ComponentType } from 'react';
import { Navigate, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { client } from './client.ts';
import { leave } from './navigation.ts';
import { startRidePage } from './rides/preload.ts';
import { Dashboard } from './rides/Dashboard.tsx';
import { Shell } from './Shell.tsx';

let previousPath: string | null = null;

/**
 * A share page's address with a `share` parameter, well formed or not. It opens for anyone:
 * a link cut short, mistyped or stopped shows the share page's own explanation, never /login
 * (the page itself tells a valid link from a bad one).
 */
const isShareAddress = (url: URL) =>
  /^\/dashboard\/workouts\/share\/[^/]+\/?$/.test(url.pathname) && url.searchParams.has('share');

/**
 * Spec 4's guard on every navigation: visitors go to the site's /login (a full page load,
 * history replaced, so Back does not return here), with the path to come back to.
 */
function guard({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const to = `${url.pathname}${url.search}`;
  const decision = guardNavigation({
    to,
    from: previousPath,
    loggedIn: client.session.isLoggedIn(),
    // A shared ride's link (`?share=<share id>`) opens for anyone: that is what sharing is.
    requiresLogin: (path) => !isShareAddress(url) && requiresLogin(path),
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

/**
 * A page as its own chunk, fetched with the route's navigation: the first load parses only
 * the shell and the dashboard, and OpenLayers, visx and the layout editor come with the pages
 * that draw them (the portal's budget: no task over 200 ms).
 */
const page =
  <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  () =>
    load().then((module) => ({ Component: module[name] }));

/**
 * A page that edits or imports (data pages, settings, archives, routebooks, the rides list
 * with its uploads): it shows texts of the catalogue's second part (`portalPages`,
 * @xoss/i18n), fetched beside its chunk. The first load and the ride pages carry only
 * `portal` (the ride page's budget on a phone).
 */
const editingPage =
  <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  () =>
    Promise.all([
      load(),
      loadMessages(selectPreferences(client.store.getState()).language, 'portalPages'),
    ]).then(([module]) => {
      const Page: ComponentType = module[name];
      return {
        Component: () => (
          <MoreMessages scope="portalPages">
            <Page />
          </MoreMessages>
        ),
      };
    });

/** A ride page's calls and chunks start with its navigation (`startRidePage`). */
function startRide({ request }: LoaderFunctionArgs) {
  startRidePage(new URL(request.url));
  return null;
}

/** The signed-in area's routes (spec 2). */
export const routes: RouteObject[] = [
  {
    element: <Shell />,
    loader: guard,
    shouldRevalidate: () => true,
    children: [
      {
        // A page that fails (its chunk did not arrive, a render error) takes its place
        // only; the shell stays, and "Try again" reloads (the chunk may be an older
        // deployment's).
        errorElement: <PageFailed onRetry={() => window.location.reload()} />,
        children: [
          { path: 'dashboard', element: <Navigate to="/dashboard/main" replace /> },
          { path: 'dashboard/main', element: <Dashboard /> },
          {
            path: 'dashboard/workouts/list',
            lazy: editingPage(() => import('./rides/WorkoutsList.tsx'), 'WorkoutsList'),
          },
          {
            path: 'dashboard/workouts/share/:id',
            // The ride's calls start with the navigation, beside the page's chunk.
            loader: startRide,
            lazy: page(() => import('./rides/WorkoutShare.tsx'), 'WorkoutShare'),
          },
          {
            path: 'dashboard/workouts/archive',
            lazy: editingPage(() => import('./rides/ImportArchive.tsx'), 'ImportArchive'),
          },
          {
            path: 'dashboard/workouts/shared',
            lazy: page(() => import('./share/SharedRides.tsx'), 'SharedRides'),
          },
          {
            // Two rides side by side: `?a=ID&b=ID`.
            path: 'dashboard/workouts/compare',
            lazy: page(() => import('./rides/CompareRides.tsx'), 'CompareRidesPage'),
          },
          {
            path: 'dashboard/workouts/powerCurve/:id',
            loader: startRide,
            lazy: page(() => import('./rides/PowerCurve.tsx'), 'PowerCurvePage'),
          },
          {
            path: 'dashboard/workouts/indoor/model/:id',
            loader: startRide,
            lazy: page(() => import('./rides/IndoorSummary.tsx'), 'IndoorSummary'),
            handle: { keepTitle: true },
          },
          {
            path: 'dashboard/training',
            element: <Navigate to="/dashboard/training/log" replace />,
          },
          {
            path: 'dashboard/training/log',
            lazy: page(() => import('./training/TrainingLog.tsx'), 'TrainingLogPage'),
          },
          {
            path: 'dashboard/training/fitness',
            lazy: page(() => import('./training/Fitness.tsx'), 'FitnessPage'),
          },
          {
            path: 'dashboard/training/bests',
            lazy: page(() => import('./training/Bests.tsx'), 'BestsPage'),
          },
          {
            path: 'dashboard/device/list',
            lazy: editingPage(() => import('./devices/Devices.tsx'), 'DeviceList'),
          },
          {
            path: 'dashboard/device/add',
            lazy: editingPage(() => import('./devices/Devices.tsx'), 'AddDevice'),
          },
          {
            path: 'dashboard/device/list/settings/:deviceIndex',
            lazy: editingPage(() => import('./devices/Devices.tsx'), 'DeviceSettings'),
          },
          // Spec 2's manager, layout, layout/{event} and data steps share one editor.
          {
            path: 'dashboard/device/list/manager/*',
            lazy: editingPage(() => import('./devices/LayoutManager.tsx'), 'LayoutManager'),
          },
          {
            path: 'dashboard/settings',
            lazy: editingPage(() => import('./account/Settings.tsx'), 'SettingsPage'),
          },
          {
            // Password, sessions, the data export and deleting the account.
            path: 'dashboard/settings/account',
            lazy: editingPage(() => import('./account/Account.tsx'), 'AccountPage'),
          },
          { path: 'upload', element: <Navigate to="/upload/gpxFile" replace /> },
          {
            path: 'upload/gpxFile',
            lazy: editingPage(() => import('./routebooks/UploadGpx.tsx'), 'UploadGpx'),
          },
          {
            // One routebook: map, elevation profile, rename, send to a device, delete.
            path: 'dashboard/routebooks/:id',
            lazy: editingPage(() => import('./routebooks/Routebook.tsx'), 'RoutebookPage'),
          },
          {
            path: 'developer/mydevices',
            lazy: editingPage(() => import('./devices/Developer.tsx'), 'DeveloperDevices'),
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
    ],
  },
];
