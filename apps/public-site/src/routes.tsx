import { Navigate, Route, Routes } from 'react-router';
import { Layout } from './Layout.tsx';
import { lazyPage } from './navigation.ts';
import { NotFound } from './pages/NotFound.tsx';
import { GpxHow } from './pages/Steps.tsx';
import { ToArticle } from './pages/ToArticle.tsx';
import { AppDownload, Contact, Home, Manuals, ProductPage } from './pages/Products.tsx';

// Pages that call the API (login, articles, maps) load lazily with the API client, so the
// product pages stay light; so do the legal documents (long texts no other page needs).
// Prerendered pages in a chunk of their own hydrate when their chunk arrives (the server's
// HTML stays meanwhile).
const LegalPage = lazyPage(() => import('./pages/Legal.tsx').then((module) => module.LegalPage));
const Login = lazyPage(() => import('./Login.tsx').then((module) => module.Login));
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

/** The visitor site's routes (spec 2), inside a router (browser, memory or static). */
export function SiteRoutes() {
  return (
    <Routes>
      <Route element={<Layout />}>
        <Route index element={<Home />} />
        <Route path="login" element={<Login />} />
        <Route path="product" element={<Navigate to="/product/manuals" replace />} />
        <Route path="product/manuals" element={<Manuals />} />
        <Route path="product/download" element={<AppDownload />} />
        <Route path="product/download/:lang" element={<AppDownload />} />
        <Route path="product/contact" element={<Contact />} />
        <Route path="product/:slug" element={<ProductPage />} />
        <Route path="download" element={<Navigate to="/download/globalMaps" replace />} />
        <Route path="download/globalMaps" element={<GlobalMaps />} />
        <Route path="download/globalMapsRegion" element={<GlobalMapsRegion />} />
        <Route path="download/gpxHow" element={<GpxHow />} />
        <Route path="download/maps" element={<NavMaps />} />
        <Route path="post" element={<Navigate to="/post/content" replace />} />
        <Route path="post/content" element={<PostList />} />
        <Route path="post/content/:article" element={<PostPage />} />
        <Route path="post/create" element={<PostCreate />} />
        <Route path="post/like/:article" element={<ToArticle />} />
        <Route path="post/comment/:article" element={<ToArticle hash="#comments" />} />
        <Route path="copyright" element={<Navigate to="/copyright/terms" replace />} />
        <Route path="copyright/:document" element={<LegalPage />} />
        <Route path="*" element={<NotFound />} />
      </Route>
    </Routes>
  );
}
