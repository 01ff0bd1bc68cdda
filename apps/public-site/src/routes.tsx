import { guardNavigation } from '@xoss/api-client';
import { Navigate, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { client } from './client.ts';
import { Layout } from './Layout.tsx';
import { Login } from './Login.tsx';
import { LegalPage } from './pages/Legal.tsx';
import { GlobalMaps, GlobalMapsRegion, GpxHow, NavMaps, regionsLoader } from './pages/Maps.tsx';
import { NotFound } from './pages/NotFound.tsx';
import { PostCreate, PostList, PostPage, ToArticle } from './pages/Posts.tsx';
import { AppDownload, Contact, Home, Manuals, ProductPage } from './pages/Products.tsx';

/** Spec 4: a signed-in rider going to a white-listed page (login) goes home instead. */
function loginGuard({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const decision = guardNavigation({
    to: `${url.pathname}${url.search}`,
    from: null,
    loggedIn: client.session.isLoggedIn(),
  });
  return decision.action === 'redirect' ? redirect(decision.to) : null;
}

/** The visitor site's routes (spec 2). */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'login', element: <Login />, loader: loginGuard },
      { path: 'product', element: <Navigate to="/product/manuals" replace /> },
      { path: 'product/manuals', element: <Manuals /> },
      { path: 'product/download', element: <AppDownload /> },
      { path: 'product/download/:lang', element: <AppDownload /> },
      { path: 'product/contact', element: <Contact /> },
      { path: 'product/:slug', element: <ProductPage /> },
      { path: 'download', element: <Navigate to="/download/globalMaps" replace /> },
      {
        path: 'download/globalMaps',
        element: <GlobalMaps />,
        loader: () => regionsLoader('SPRINT'),
      },
      {
        path: 'download/globalMapsRegion',
        element: <GlobalMapsRegion />,
        loader: () => regionsLoader('SPRINT'),
      },
      { path: 'download/gpxHow', element: <GpxHow /> },
      { path: 'download/maps', element: <NavMaps />, loader: () => regionsLoader('NAV+') },
      { path: 'post', element: <Navigate to="/post/content" replace /> },
      { path: 'post/content', element: <PostList /> },
      { path: 'post/content/:article', element: <PostPage /> },
      { path: 'post/create', element: <PostCreate /> },
      { path: 'post/like/:article', element: <ToArticle /> },
      { path: 'post/comment/:article', element: <ToArticle hash="#comments" /> },
      { path: 'copyright', element: <Navigate to="/copyright/terms" replace /> },
      { path: 'copyright/:document', element: <LegalPage /> },
      { path: '*', element: <NotFound /> },
    ],
  },
];
