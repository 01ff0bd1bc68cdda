// Request and reply bodies of the XOSS API (docs/api.md), one file per resource under
// `schemas/`. Objects are strict: unknown members of a request are a validation error, so a
// PATCH cannot smuggle `owner_id` or `id`. How numbers in paths and queries are read:
// `schemas/query.ts` (internal, not exported).
export * from './schemas/common.ts';
export * from './schemas/auth.ts';
export * from './schemas/archives.ts';
export * from './schemas/athlete.ts';
export * from './schemas/workouts.ts';
export * from './schemas/share.ts';
export * from './schemas/streams.ts';
export * from './schemas/training.ts';
export * from './schemas/analysis.ts';
export * from './schemas/devices.ts';
export * from './schemas/routebooks.ts';
export * from './schemas/maps.ts';
export * from './schemas/articles.ts';
export * from './schemas/service.ts';
