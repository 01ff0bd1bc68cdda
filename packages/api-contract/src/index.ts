export { ErrorCode, errorMessage, errorStatus, isErrorCode } from './errorCodes.ts';
export {
  errorEnvelopeSchema,
  fieldErrorSchema,
  isTokenExpiry,
  successEnvelope,
  type ErrorEnvelope,
} from './envelope.ts';
export { originRoutes, ownerOfPath, type OriginOwner } from './originRoutes.ts';
export * from './schemas.ts';
export {
  endpoints,
  openApiDocument,
  pathFor,
  type Access,
  type ArgsOf,
  type Endpoint,
  type EndpointName,
  type ReplyOf,
} from './endpoints.ts';
