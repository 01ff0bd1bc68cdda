/**
 * The portal's entry, kept to the store and the API client: the moment it has run, the
 * rider's messages, and on a ride page that page's chunk and calls, are on their way beside
 * the application (React, React DOM, the router), instead of after it has been evaluated.
 * On a phone over mobile data that starts the ride's streams about a second earlier
 * (bench/mobile.ts in apps/api). The build lists the application's chunks in the page
 * (`preloadApp` in vite.config.ts), so they do not wait for this one.
 */
import '@xoss/ui-kit/styles.css';
import './portal.css';
import { selectPreferences } from '@xoss/api-client';
import { loadMessages } from '@xoss/i18n';
import { client } from './client.ts';
import { startRidePage } from './rides/preload.ts';

void loadMessages(selectPreferences(client.store.getState()).language, 'portal');
startRidePage(new URL(window.location.href));
void import('./app.tsx');
