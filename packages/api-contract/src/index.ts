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
export { settingBounds } from './bounds.ts';
export { RANGE_MAX_S, pathFor, routes, type Access, type Route, type RouteName } from './routes.ts';
export {
  endpoints,
  openApiDocument,
  type ArgsOf,
  type Endpoint,
  type EndpointName,
  type ReplyOf,
} from './endpoints.ts';
