import { Navigate, type RouteObject } from 'react-router';
import { Layout } from './Layout.tsx';
import { LegalPage } from './pages/Legal.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { GpxHow } from './pages/Steps.tsx';
import { ToArticle } from './pages/ToArticle.tsx';
import { AppDownload, Contact, Home, Manuals, ProductPage } from './pages/Products.tsx';

// Pages that call the API (login, articles, maps) load lazily with the API client, so the
// product pages stay light.
const login = () =>
  import('./Login.tsx').then(({ Login, loginGuard }) => ({ Component: Login, loader: loginGuard }));
const maps =
  (page: 'GlobalMaps' | 'GlobalMapsRegion' | 'NavMaps', model: 'NAV+' | 'SPRINT') => () =>
    import('./pages/Maps.tsx').then((module) => ({
      Component: module[page],
      loader: () => module.regionsLoader(model),
    }));
const posts = (page: 'PostListRoute' | 'PostPageRoute' | 'PostCreateRoute') => () =>
  import('./pages/Posts.tsx').then((module) => ({ Component: module[page] }));

/** The visitor site's routes (spec 2). */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'login', lazy: login },
      { path: 'product', element: <Navigate to="/product/manuals" replace /> },
      { path: 'product/manuals', element: <Manuals /> },
      { path: 'product/download', element: <AppDownload /> },
      { path: 'product/download/:lang', element: <AppDownload /> },
      { path: 'product/contact', element: <Contact /> },
      { path: 'product/:slug', element: <ProductPage /> },
      { path: 'download', element: <Navigate to="/download/globalMaps" replace /> },
      { path: 'download/globalMaps', lazy: maps('GlobalMaps', 'SPRINT') },
      { path: 'download/globalMapsRegion', lazy: maps('GlobalMapsRegion', 'SPRINT') },
      { path: 'download/gpxHow', element: <GpxHow /> },
      { path: 'download/maps', lazy: maps('NavMaps', 'NAV+') },
      { path: 'post', element: <Navigate to="/post/content" replace /> },
      { path: 'post/content', lazy: posts('PostListRoute') },
      { path: 'post/content/:article', lazy: posts('PostPageRoute') },
      { path: 'post/create', lazy: posts('PostCreateRoute') },
      { path: 'post/like/:article', element: <ToArticle /> },
      { path: 'post/comment/:article', element: <ToArticle hash="#comments" /> },
      { path: 'copyright', element: <Navigate to="/copyright/terms" replace /> },
      { path: 'copyright/:document', element: <LegalPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];
