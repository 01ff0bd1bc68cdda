// Export archives imported in one go: the upload goes straight to the file store, in pieces
// (never whole in memory); the walk and the imports run on the queue.
import { bytesText } from '../platform/bytes.ts';
import type { FastifyInstance } from 'fastify';
import { ErrorCode } from '@xoss/api-contract';
import { BlobTooLarge } from '../platform/blobStore.ts';
import { ApiError } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import { languageOf } from './workouts.ts';

export function archiveRoutes(app: FastifyInstance, services: Services): void {
  const { archives, config } = services;

  route(app, services, 'createArchiveImport', async ({ userId, request, reply }) => {
    if (!request.isMultipart())
      throw new ApiError(
        ErrorCode.ValidationFailed,
        'Send the archive as multipart/form-data in the field "file"',
        { errors: [{ path: 'file', message: 'Required' }] },
      );
    // One byte past the limit reaches the store, which refuses it there and then: at the
    // limit itself the parser would cut the file short, and a cut archive looks whole.
    const limit = config.maxArchiveBytes;
    const part = await request
      .file({ limits: { fileSize: limit + 1, files: 1, fields: 0, parts: 1 } })
      .catch(() => undefined);
    if (!part || part.fieldname !== 'file')
      throw new ApiError(ErrorCode.ValidationFailed, 'Choose an export archive (.zip)', {
        errors: [{ path: 'file', message: 'Required' }],
      });
    if (!part.filename.toLowerCase().endsWith('.zip')) {
      part.file.resume();
      throw new ApiError(
        ErrorCode.UnsupportedFile,
        'Only export archives (.zip) can be imported here; single rides go to the ride list',
        { errors: [{ path: 'file', message: 'Wrong file type' }] },
      );
    }
    let id: string;
    try {
      id = await archives.create(userId!, part.file, languageOf(request).language);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (error instanceof BlobTooLarge || code === 'FST_REQ_FILE_TOO_LARGE')
        throw new ApiError(
          ErrorCode.PayloadTooLarge,
          `The archive is larger than ${bytesText(limit)}`,
        );
      throw error;
    }
    if (part.file.truncated) {
      // Never reached (the store refuses first), but a cut archive is never kept.
      await archives.cancel(userId!, id).catch(() => undefined);
      throw new ApiError(ErrorCode.PayloadTooLarge, 'The archive is larger than the limit');
    }
    reply.status(202);
    return { id };
  });

  route(app, services, 'getArchiveImport', ({ userId, params }) =>
    archives.progress(userId!, params.id),
  );

  route(app, services, 'cancelArchiveImport', ({ userId, params }) =>
    archives.cancel(userId!, params.id),
  );
}
