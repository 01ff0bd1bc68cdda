/**
 * The portal's entry, kept to what starts the first page (`firstLoad.ts`): the moment it has
 * run, the rider's messages, and on a ride page that page's chunk and calls, are on their way
 * beside the application (React, React DOM, the router, the store), instead of after it has
 * been evaluated. The build lists the application's chunks in the page (`preloadApp` in
 * vite.config.ts), so they do not wait for this one.
 */
import '@xoss/ui-kit/styles.css';
import './portal.css';
import { startFirstPage } from './firstLoad.ts';

// Whatever the first page's start met (storage refused, an address it cannot read), the
// application loads: the page is never left blank.
const loadApp = () => void import('./app.tsx');
try {
  startFirstPage(new URL(window.location.href)).then(loadApp, loadApp);
} catch {
  loadApp();
}
