import { Message } from '@xoss/i18n/react';
import { Footer } from '@xoss/ui-kit';
import { guardNavigation } from '@xoss/api-client';
import {
  Link,
  Navigate,
  Outlet,
  redirect,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router';
import { client } from './client.ts';
import { Login } from './Login.tsx';

const products = [
  { slug: 'xossnav', name: 'NAV' },
  { slug: 'xossg2', name: 'G 2nd generation' },
  { slug: 'xossG', name: 'G' },
  { slug: 'xossSprint', name: 'SPRINT' },
] as const;

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

function Home() {
  return (
    <>
      <h1>
        <Message id="app.title" />
      </h1>
      <ul>
        {products.map((product) => (
          <li key={product.slug}>
            <Link to={`/product/${product.slug}`}>{product.name}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}

function NotFound() {
  return (
    <h1>
      <Message id="errors.notFoundPage" />
    </h1>
  );
}

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

/** The visitor site's routes (spec 2); later issues fill in every screen. */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { index: true, element: <Home /> },
      { path: 'product', element: <Navigate to="/product/manuals" replace /> },
      { path: 'login', element: <Login />, loader: loginGuard },
      {
        path: 'product/manuals',
        element: (
          <h1>
            <Message id="nav.manuals" />
          </h1>
        ),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
];
