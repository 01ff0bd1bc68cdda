import { createXossClient } from '@xoss/api-client';

/** The site's API client; the session it stores is the portal's too (one origin). */
export const client = createXossClient({ storage: localStorage, sessionStorage });
