// Leaving the portal for a page of the site (a full load): one object, so tests can replace it.
/** Leaves the portal for another app's page, replacing the history entry (tests stub it). */
export const leave = { to: (url: string) => window.location.replace(url) };
