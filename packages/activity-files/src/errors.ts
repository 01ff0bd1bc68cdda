/** Why a file could not be read: a stable code, an i18n message id, English text and where. */
export interface ActivityFileError {
  readonly code: string;
  /** `activityFiles.<format>.<code>` */
  readonly messageId: string;
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

export function fitError(code: string, message: string, byteOffset: number): DecodeFailure {
  return new DecodeFailure({ code, messageId: `activityFiles.fit.${code}`, message, byteOffset });
}
