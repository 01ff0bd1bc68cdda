import { ErrorCode, pathFor, type Post } from '@xoss/api-contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/envelope.ts';
import { route } from '../http/route.ts';
import type { Services } from '../services.ts';
import {
  insertComment,
  insertPost,
  like,
  listComments,
  listPosts,
  mapRegion,
  mapRegions,
  post,
  unlike,
  type CommentRow,
  type PostRow,
} from '../content/store.ts';
import { username } from '../athletes/store.ts';
import { pageReply } from './common.ts';

/** The name an author's articles and comments are signed with. */
const authorName = async (db: Services['db'], userId: number | undefined) =>
  (await username(db, userId)) ?? 'Rider';

/** Import speed of a map package onto a device over USB, bytes per second (measured ~6 MB/s). */
const IMPORT_BYTES_PER_SECOND = 6 * 1024 * 1024;

const postReply = (row: PostRow): Post => ({
  id: row.id,
  title: row.title,
  body: row.body,
  language: row.language,
  author: row.author_name,
  likes: Number(row.likes),
  liked: Boolean(row.liked),
  comments: Number(row.comments),
  created_at: new Date(row.created_at).toISOString(),
});

const commentReply = (row: CommentRow) => ({
  id: row.id,
  author: row.author_name,
  body: row.body,
  created_at: new Date(row.created_at).toISOString(),
});

export const articleIdError = () => new ApiError(ErrorCode.NotFound, 'Article id parameter error');

export function contentRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'mapRegions', async ({ query }) => {
    const rows = await mapRegions(db, query.model);
    return rows.map((row) => ({
      id: row.id,
      model: row.model,
      name: row.name,
      bbox: row.bbox,
      size_bytes: Number(row.size_bytes),
      import_seconds: Math.ceil(Number(row.size_bytes) / IMPORT_BYTES_PER_SECOND),
      download_url: pathFor('mapDownload', { id: row.id }),
    }));
  });

  route(app, services, 'mapDownload', async ({ params, request, reply }) => {
    const row = await mapRegion(db, params.id);
    const size = row ? await services.blobs.size(row.file_key) : undefined;
    if (!row || size === undefined) throw new ApiError(ErrorCode.NotFound, 'Map region not found');
    const name = `${row.model}-${row.name}`.replace(/[^\w.-]+/g, '_');
    reply
      .header('accept-ranges', 'bytes')
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', `attachment; filename="${name}.map"`)
      .header('cache-control', 'public, max-age=86400');
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '');
    if (request.headers.range !== undefined && range) {
      const [, from, to] = range as unknown as [string, string, string];
      let start = from === '' ? size - Number(to) : Number(from);
      let end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1);
      if (from === '' && to === '') start = size;
      if (start < 0) start = 0;
      if (start >= size || start > end) {
        return reply.status(416).header('content-range', `bytes */${size}`).send();
      }
      end = Math.min(end, size - 1);
      return reply
        .status(206)
        .header('content-range', `bytes ${start}-${end}/${size}`)
        .header('content-length', end - start + 1)
        .send(services.blobs.stream(row.file_key, { start, end }));
    }
    return reply.header('content-length', size).send(services.blobs.stream(row.file_key));
  });

  route(app, services, 'listPosts', async ({ userId, query, request }) =>
    pageReply(request, query, await listPosts(db, userId, query.language, query), postReply),
  );

  const onePost = async (id: number, userId: number | undefined) => {
    const row = await post(db, id, userId);
    if (!row) throw articleIdError();
    return row;
  };

  route(app, services, 'getPost', async ({ userId, params }) =>
    postReply(await onePost(params.id, userId)),
  );

  route(app, services, 'createPost', async ({ userId, body, reply }) => {
    const id = await insertPost(db, {
      authorId: userId,
      author: await authorName(db, userId),
      language: body.language,
      title: body.title,
      body: body.body,
    });
    reply.status(201);
    return postReply(await onePost(id, userId));
  });

  const likes = async (postId: number, userId: number) => {
    const row = await onePost(postId, userId);
    return { likes: Number(row.likes), liked: Boolean(row.liked) };
  };
  route(app, services, 'likePost', async ({ userId, params }) => {
    await onePost(params.id, userId);
    await like(db, params.id, userId);
    return likes(params.id, userId!);
  });
  route(app, services, 'unlikePost', async ({ userId, params }) => {
    await onePost(params.id, userId);
    await unlike(db, params.id, userId);
    return likes(params.id, userId!);
  });

  route(app, services, 'listComments', async ({ params, query, request }) => {
    await onePost(params.id, undefined);
    return pageReply(request, query, await listComments(db, params.id, query), commentReply);
  });

  route(app, services, 'createComment', async ({ userId, params, body, reply }) => {
    await onePost(params.id, userId);
    const author = await authorName(db, userId);
    const row = await insertComment(db, { postId: params.id, userId, author, body: body.body });
    reply.status(201);
    return commentReply({ ...row, author_name: author, body: body.body });
  });

  route(app, services, 'health', () => ({ status: 'ok' as const }));
  // `/api/ready` (database, file store, queue, disk, each reported): platform/readiness.ts.
}
