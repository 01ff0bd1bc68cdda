/** ".FIT", at bytes 8-11 of every FIT file's header. */
const FIT_SIGNATURE = [0x2e, 0x46, 0x49, 0x54] as const;

/**
 * Whether the bytes hold a FIT header's signature (".FIT" at bytes 8-11 after `start`): the
 * check the decoder makes, for callers that need to tell a FIT file from other formats.
 *
 * @example
 * hasFitSignature(new TextEncoder().encode('<?xml version="1.0"?>')); // false
 */
export function hasFitSignature(bytes: Uint8Array, start = 0): boolean {
  return (
    bytes.length - start >= 12 && FIT_SIGNATURE.every((byte, i) => bytes[start + 8 + i] === byte)
  );
}
