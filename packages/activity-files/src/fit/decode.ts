import { DecodeFailure, type DecodeResult } from '../errors.ts';
import { FitReader } from './reader.ts';
import type { FitActivity } from './types.ts';

export { hasFitSignature } from './signature.ts';

/** Limits of `decodeFit`. */
export interface FitDecodeOptions {
  /** Largest file accepted, in bytes (checked before anything is read). Default 64 MiB. */
  readonly maxBytes?: number;
  /**
   * Refuse a damaged file whole (bad CRC, cut short, a broken message) instead of keeping
   * every complete message before the damage. Default `false`: the damage is reported in
   * `FitActivity.damage`.
   */
  readonly strict?: boolean;
}

export const FIT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Decodes a FIT file (or several chained ones) into messages and columnar records.
 *
 * @remarks
 * Checks the size cap, the header and its CRC before reading any message. A file cut short,
 * with a bad file CRC or a broken message keeps every complete message before the damage
 * and says so in `damage` (with `strict: true` it is refused whole instead); a file whose
 * first header cannot be read is always refused. Unknown messages are skipped and counted; unknown
 * fields are skipped; invalid values (the base type's sentinel) are absent (NaN in record
 * columns). Never throws: errors carry a code, a message id and a byte offset.
 *
 * @example
 * const result = decodeFit(bytes);
 * if (result.ok) result.value.records.power; // Float64Array of watts
 */
export function decodeFit(
  input: Uint8Array | ArrayBuffer,
  options: FitDecodeOptions = {},
): DecodeResult<FitActivity> {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input);
  const maxBytes = options.maxBytes ?? FIT_MAX_BYTES;
  if (bytes.length > maxBytes) {
    return {
      ok: false,
      error: {
        code: 'tooLarge',
        messageId: 'activityFiles.fit.tooLarge',
        message: `The file is larger than ${maxBytes} bytes`,
        byteOffset: 0,
      },
    };
  }
  try {
    return { ok: true, value: new FitReader(bytes, options.strict ?? false).readAll() };
  } catch (error) {
    if (error instanceof DecodeFailure) return { ok: false, error: error.detail };
    if (error instanceof RangeError) {
      return {
        ok: false,
        error: {
          code: 'truncated',
          messageId: 'activityFiles.fit.truncated',
          message: 'The file ends unexpectedly',
          byteOffset: bytes.length,
        },
      };
    }
    throw error;
  }
}
