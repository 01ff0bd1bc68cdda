export { ErrorCode, errorMessage, errorStatus, isErrorCode } from './errorCodes.ts';
export {
  errorEnvelopeSchema,
  fieldErrorSchema,
  successEnvelope,
  type ErrorEnvelope,
} from './envelope.ts';
export { originRoutes, ownerOfPath, type OriginOwner } from './originRoutes.ts';
export * from './schemas.ts';
export { isTokenExpiry } from './expiry.ts';
export { PASSWORD_MIN_LENGTH, RANGE_MAX_S, settingBounds } from './bounds.ts';
export { pathFor, routes, type Access, type Route, type RouteName } from './routeTable.ts';
export {
  endpoints,
  openApiDocument,
  type ArgsOf,
  type Endpoint,
  type EndpointName,
  type ReplyOf,
} from './endpoints.ts';
