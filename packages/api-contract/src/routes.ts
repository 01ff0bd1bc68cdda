// The package's `./routes` entry: everything a client needs to call the API, and no zod
// (the route table, error codes, bounds, the one-origin prefixes, and the endpoint types).
// Only re-exports: nothing in the package imports this file, so no import runs in a circle.
export { ErrorCode, errorMessage, errorStatus, isErrorCode } from './errorCodes.ts';
export { isTokenExpiry } from './expiry.ts';
export { PASSWORD_MIN_LENGTH, RANGE_MAX_S, settingBounds } from './bounds.ts';
export { originRoutes, ownerOfPath, type OriginOwner } from './originRoutes.ts';
export { pathFor, routes, type Access, type Route, type RouteName } from './routeTable.ts';
export type { ArgsOf, EndpointName, ReplyOf } from './endpoints.ts';
