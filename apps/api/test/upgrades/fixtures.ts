// What the upgrade fixtures (generate.ts writes them, upgradesSuite.ts reads them) share.

/** The fixture riders' password (their rows hold its hash). */
export const FIXTURE_PASSWORD = 'upgrades from every version 42';

/** The fixture of schema version `version`: `v01.sql` ... */
export const fixtureFile = (version: number) => `v${String(version).padStart(2, '0')}.sql`;
