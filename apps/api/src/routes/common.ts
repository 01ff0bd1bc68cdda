import { bytesText } from '../platform/bytes.ts';
import { ErrorCode } from '@xoss/api-contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, refuseNul } from '../http/envelope.ts';
import type { PageWindow, RowPage } from '../platform/db/page.ts';
import type { Services } from '../services.ts';
import { afterReply } from '../http/afterReply.ts';
import { deadlineSignal } from '../http/deadline.ts';
import { reserveQuota } from '../platform/quota.ts';

/**
 * The paginated reply of docs/api.md: one page of rows as reply items, with absolute-path
 * `next` and `previous` links to the neighbouring pages of the same request.
 */
export function pageReply<Row, Item>(
  request: FastifyRequest,
  window: PageWindow,
  page: RowPage<Row>,
  toItem: (row: Row) => Item,
) {
  const link = (number: number) => {
    const url = new URL(request.url, 'http://local');
    url.searchParams.set('page', String(number));
    url.searchParams.set('page_size', String(window.page_size));
    return `${url.pathname}${url.search}`;
  };
  return {
    count: page.count,
    next: window.page * window.page_size < page.count ? link(window.page + 1) : null,
    previous: window.page > 1 ? link(window.page - 1) : null,
    results: page.rows.map(toItem),
  };
}

export interface Upload {
  readonly bytes: Uint8Array;
  readonly filename: string;
  readonly fields: Record<string, string>;
}

/**
 * Reads a multipart upload with one file part named `file` and a few text fields, within
 * the size limit (413), the right extension (415) and the user's storage quota (413).
 */
export async function readUpload(
  request: FastifyRequest,
  services: Services,
  userId: number,
  rules: { maxBytes: number; extension: string | readonly string[]; kind: string },
): Promise<Upload> {
  if (!request.isMultipart())
    throw new ApiError(
      ErrorCode.ValidationFailed,
      `Send the ${rules.kind} file as multipart/form-data in the field "file"`,
      {
        errors: [{ path: 'file', message: 'Required' }],
      },
    );
  const fields: Record<string, string> = {};
  let file: { bytes: Uint8Array; filename: string } | undefined;
  // Past the deadline (503 sent), stop reading: the file being received is dropped.
  const signal = deadlineSignal(request);
  let receiving: { destroy(error: Error): void } | undefined;
  const stopReading = () => receiving?.destroy(new Error('deadline'));
  signal?.addEventListener('abort', stopReading, { once: true });
  try {
    for await (const part of request.parts({
      limits: { fileSize: rules.maxBytes, files: 1, fields: 8, parts: 9, fieldSize: 8192 },
    })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new ApiError(
            ErrorCode.ValidationFailed,
            `Unexpected file field "${part.fieldname}"`,
            {
              errors: [{ path: part.fieldname, message: 'Unexpected file' }],
            },
          );
        }
        receiving = part.file;
        const buffer = await part.toBuffer();
        receiving = undefined;
        file = {
          bytes: new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength),
          filename: part.filename,
        };
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    signal?.throwIfAborted();
    if (error instanceof ApiError) throw error;
    const code = (error as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError(
        ErrorCode.PayloadTooLarge,
        `The file is larger than ${bytesText(rules.maxBytes)}`,
      );
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new ApiError(ErrorCode.PayloadTooLarge, 'Too many parts: send one file and its fields');
    throw new ApiError(ErrorCode.ValidationFailed, 'The upload is not valid multipart/form-data');
  } finally {
    signal?.removeEventListener('abort', stopReading);
  }
  signal?.throwIfAborted();
  refuseNul(fields, 'fields');
  if (!file)
    throw new ApiError(ErrorCode.ValidationFailed, `Choose a ${rules.kind} file`, {
      errors: [{ path: 'file', message: 'Required' }],
    });
  const extensions = typeof rules.extension === 'string' ? [rules.extension] : rules.extension;
  const name = file.filename.toLowerCase();
  if (!extensions.some((extension) => name.endsWith(extension)))
    throw new ApiError(
      ErrorCode.UnsupportedFile,
      extensions.length === 1
        ? `Only ${extensions[0]!.toUpperCase().slice(1)} files (${extensions[0]}) can be uploaded here`
        : `Only ${rules.kind} files (${extensions.join(', ')}) can be uploaded here`,
      {
        errors: [{ path: 'file', message: 'Wrong file type' }],
      },
    );
  // Held until the reply has gone (by then the row is stored and counts instead).
  const release = await reserveQuota(services.db, userId, file.bytes.length);
  afterReply(request, release);
  return { ...file, fields };
}

/** A file name safe to offer in a download: no path, no control characters, 80 at most. */
export const safeFileName = (name: string, fallback: string) =>
  name.replace(/[^\w .-]+/g, '_').slice(0, 80) || fallback;

/**
 * Sends a private file as a download: `Content-Disposition: attachment` with an ASCII name
 * and the rider's name encoded, never cached.
 */
export function sendAttachment(
  reply: FastifyReply,
  bytes: Buffer,
  file: { type: string; asciiName: string; name: string },
): FastifyReply {
  return reply
    .header('content-type', file.type)
    .header(
      'content-disposition',
      `attachment; filename="${file.asciiName}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .header('cache-control', 'no-store')
    .send(bytes);
}
