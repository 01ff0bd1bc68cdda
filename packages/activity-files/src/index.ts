export {
  errorCodes,
  messageIdOf,
  type ActivityFileError,
  type ActivityFileErrorCode,
  type ActivityFileMessageId,
  type DecodeResult,
  type ErrorCodeOf,
  type ErrorFormat,
} from './errors.ts';
export { fitCrc16 } from './fitCrc.ts';
export { FIT_MAX_BYTES, decodeFit, hasFitSignature, type FitDecodeOptions } from './fit/decode.ts';
export { encodeFit, type FitActivityInput, type FitEncodeOptions } from './fit/encode.ts';
export { FIT_EPOCH_S, MesgNum, sportType, sportTypes } from './fit/profile.ts';
export {
  recordColumnNames,
  type FitActivity,
  type FitMessage,
  type FitValue,
  type RecordColumnName,
  type RecordColumns,
} from './fit/types.ts';
export {
  activityOverview,
  timerFromEvents,
  type ActivityOverview,
  type ActivityLap,
  type ActivitySession,
} from './fit/streams.ts';
export { activityFromStreams, type ActivityMetadata } from './fit/fromStreams.ts';
export { fitRecordings } from './fit/recordings.ts';
export { fitLegCount, fitLegs } from './fit/legs.ts';
export { parseGpx } from './gpx/parse.ts';
export type { GpxLimits, GpxPart, GpxPoints, GpxRoute, GpxWaypoint } from './gpx/types.ts';
export { simplifyLine } from './gpx/simplify.ts';
export {
  parseTcx,
  tcxRecordings,
  type TcxActivity,
  type TcxLap,
  type TcxLimits,
  type TcxPoints,
} from './tcx/parse.ts';
export { activityFromGpx, activityFromTcx } from './activity.ts';
