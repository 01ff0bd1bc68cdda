import { Navigate, matchRoutes, useRoutes, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { lazyPage, type LazyPage } from './navigation.ts';
import { NotFound } from './pages/NotFound.tsx';
import { ToArticle } from './pages/ToArticle.tsx';
import { Home } from './pages/Home.tsx';

// Only the home page is in the first load (its script budget: under 100 kB gzip). Pages
// that call the API (login, articles, maps) load lazily with the API client; the product
// pages (manuals, app, contact, specification tables) and the legal documents are chunks
// of their own.
// A prerendered page's chunk is loaded before hydration (`preloadRoute`).
const fromProducts = <K extends 'AppDownload' | 'Contact' | 'Manuals' | 'ProductPage'>(name: K) =>
  lazyPage(() => import('./pages/Products.tsx').then((module) => module[name]));
const ProductPage = fromProducts('ProductPage');
const Manuals = fromProducts('Manuals');
const AppDownload = fromProducts('AppDownload');
const Contact = fromProducts('Contact');
const GpxHow = lazyPage(() => import('./pages/Steps.tsx').then((module) => module.GpxHow));
const LegalPage = lazyPage(() => import('./pages/Legal.tsx').then((module) => module.LegalPage));
const Login = lazyPage(() => import('./Login.tsx').then((module) => module.Login));
const ResetPassword = lazyPage(() =>
  import('./ResetPassword.tsx').then((module) => module.ResetPassword),
);
const GlobalMaps = lazyPage(() => import('./pages/Maps.tsx').then((module) => module.GlobalMaps));
const GlobalMapsRegion = lazyPage(() =>
  import('./pages/Maps.tsx').then((module) => module.GlobalMapsRegion),
);
const NavMaps = lazyPage(() => import('./pages/Maps.tsx').then((module) => module.NavMaps));
const PostList = lazyPage(() => import('./pages/Posts.tsx').then((module) => module.PostListRoute));
const PostPage = lazyPage(() => import('./pages/Posts.tsx').then((module) => module.PostPageRoute));
const PostCreate = lazyPage(() =>
  import('./pages/Posts.tsx').then((module) => module.PostCreateRoute),
);

type AnyLazyPage = LazyPage<Record<string, never>>;
const page = (path: string, Page: AnyLazyPage): RouteObject => ({
  path,
  element: <Page />,
  handle: { preload: Page.preload },
});

/** The visitor site's routes (spec 2): rendered by <SiteRoutes>, matched by `preloadRoute`. */
const siteRoutes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      page('login', Login),
      // Where a password reset mail's link lands (never indexed: the link is personal).
      page('login/reset', ResetPassword),
      { path: 'product', element: <Navigate to="/product/manuals" replace /> },
      page('product/manuals', Manuals),
      page('product/download', AppDownload),
      page('product/download/:lang', AppDownload),
      page('product/contact', Contact),
      page('product/:slug', ProductPage),
      { path: 'download', element: <Navigate to="/download/globalMaps" replace /> },
      page('download/globalMaps', GlobalMaps),
      page('download/globalMapsRegion', GlobalMapsRegion),
      page('download/gpxHow', GpxHow),
      page('download/maps', NavMaps),
      { path: 'post', element: <Navigate to="/post/content" replace /> },
      page('post/content', PostList),
      page('post/content/:article', PostPage),
      page('post/create', PostCreate),
      { path: 'post/like/:article', element: <ToArticle /> },
      { path: 'post/comment/:article', element: <ToArticle hash="#comments" /> },
      { path: 'copyright', element: <Navigate to="/copyright/terms" replace /> },
      page('copyright/:document', LegalPage),
      { path: '*', element: <NotFound /> },
    ],
  },
];

/** The visitor site's routes, inside a router (browser, memory or static). */
export function SiteRoutes() {
  return useRoutes(siteRoutes);
}

/**
 * Loads the code and messages of the page at `pathname`, if it is a lazily loaded one, so
 * a prerendered page hydrates in one go: nothing suspends, so nothing the frame updates
 * meanwhile (session, cookie notice) can make React drop the server's HTML.
 */
export async function preloadRoute(pathname: string, language: string): Promise<void> {
  const handle = matchRoutes(siteRoutes, pathname)?.at(-1)?.route.handle as
    { preload?: AnyLazyPage['preload'] } | undefined;
  await handle?.preload?.(language);
}
