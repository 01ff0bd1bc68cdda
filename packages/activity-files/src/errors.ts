// Codes both XML formats (GPX, TCX) use: the reader's limits and XML errors, and empty files.
const xmlErrorCodes = [
  'attributeTooLong',
  'badCoordinate',
  'badEntity',
  'badNumber',
  'badTime',
  'dtd',
  'encoding',
  'entity',
  'malformed',
  'mismatchedTag',
  'multipleRoots',
  'noPoints',
  'noRecords',
  'noRoot',
  'textOutsideRoot',
  'textTooLong',
  'timeout',
  'tooDeep',
  'tooLarge',
  'tooManyAttributes',
  'tooManyPoints',
  'unclosedTag',
  'wrongRoot',
] as const;

/**
 * Every error code of each format the decoders read (README: "Errors"); the message id of a
 * code is `activityFiles.<format>.<code>`, in the i18n catalogue.
 */
export const errorCodes = {
  fit: [
    'badDefinition',
    'crc',
    'dataSize',
    'empty',
    'headerCrc',
    'headerSize',
    'noRecords',
    'noTimestamp',
    'signature',
    'tooLarge',
    'truncated',
    'undefinedLocalMessage',
  ],
  gpx: [...xmlErrorCodes, 'noTimes', 'onlyWaypoints'],
  tcx: [...xmlErrorCodes, 'noActivity'],
} as const;

/** A format whose decoder reports errors. */
export type ErrorFormat = keyof typeof errorCodes;
/** The error codes of one format. */
export type ErrorCodeOf<F extends ErrorFormat> = (typeof errorCodes)[F][number];
/** An error code of any format. */
export type ActivityFileErrorCode = ErrorCodeOf<ErrorFormat>;
/** The message id of an error: `activityFiles.<format>.<code>`. */
export type ActivityFileMessageId = {
  [F in ErrorFormat]: `activityFiles.${F}.${ErrorCodeOf<F>}`;
}[ErrorFormat];

/** The message id of a format's error code. */
export function messageIdOf<F extends ErrorFormat>(
  format: F,
  code: ErrorCodeOf<F>,
): ActivityFileMessageId {
  // The template of a generic format is not narrowed by TypeScript; the types above are.
  return `activityFiles.${format}.${code}` as ActivityFileMessageId;
}

/** Why a file could not be read: a stable code, an i18n message id, English text and where. */
export interface ActivityFileError {
  readonly code: ActivityFileErrorCode;
  /** `activityFiles.<format>.<code>` */
  readonly messageId: ActivityFileMessageId;
  readonly message: string;
  /** Byte offset in a FIT file. */
  readonly byteOffset?: number;
  /** 1-based line and column in a GPX file. */
  readonly line?: number;
  readonly column?: number;
}

/** A decoded value, or the error that stopped decoding. Nothing partial is ever returned as whole. */
export type DecodeResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: ActivityFileError };

/** Thrown inside the decoders and turned into a `DecodeResult` at their edge. */
export class DecodeFailure extends Error {
  readonly detail: ActivityFileError;
  constructor(detail: ActivityFileError) {
    super(detail.message);
    this.detail = detail;
    this.name = 'DecodeFailure';
  }
}

export function fitError(
  code: ErrorCodeOf<'fit'>,
  message: string,
  byteOffset: number,
): DecodeFailure {
  return new DecodeFailure({ code, messageId: messageIdOf('fit', code), message, byteOffset });
}
