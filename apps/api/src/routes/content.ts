import { ErrorCode, pathFor, type MapRegion, type Post } from '@xoss/api-contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http.ts';
import { route } from '../route.ts';
import type { Services } from '../services.ts';
import { paginate } from './common.ts';

/** Import speed of a map package onto a device over USB, bytes per second (measured ~6 MB/s). */
const IMPORT_BYTES_PER_SECOND = 6 * 1024 * 1024;

interface RegionRow {
  id: number;
  model: MapRegion['model'];
  name: string;
  bbox: MapRegion['bbox'];
  file_key: string;
  size_bytes: number | string;
}

interface PostRow {
  id: number;
  title: string;
  body: string;
  language: string;
  author_name: string;
  likes: number;
  liked: boolean;
  comments: number;
  created_at: Date;
}

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

const POST_SELECT = `SELECT p.*,
  (SELECT count(*)::int FROM post_likes l WHERE l.post_id = p.id) AS likes,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = $1) AS liked,
  (SELECT count(*)::int FROM post_comments c WHERE c.post_id = p.id) AS comments
  FROM posts p`;

export const articleIdError = () => new ApiError(ErrorCode.NotFound, 'Article id parameter error');

export function contentRoutes(app: FastifyInstance, services: Services): void {
  const { db } = services;

  route(app, services, 'mapRegions', async ({ query }) => {
    const rows = await db.query<RegionRow>(
      `SELECT * FROM map_regions ${query.model ? 'WHERE model = $1' : ''} ORDER BY model, name`,
      query.model ? [query.model] : [],
    );
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
    const [row] = await db.query<RegionRow>('SELECT * FROM map_regions WHERE id = $1', [params.id]);
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

  route(app, services, 'listPosts', async ({ userId, query, request }) => {
    const filter = query.language ? 'WHERE p.language = $2' : '';
    return paginate(
      db,
      request,
      query,
      {
        select: `${POST_SELECT} ${filter}`,
        params: query.language ? [userId ?? null, query.language] : [userId ?? null],
        orderBy: 'p.id DESC',
        count: `SELECT count(*)::int AS count FROM posts p ${query.language ? 'WHERE p.language = $1' : ''}`,
        countParams: query.language ? [query.language] : [],
      },
      postReply,
    );
  });

  const onePost = async (id: number, userId: number | undefined) => {
    const [row] = await db.query<PostRow>(`${POST_SELECT} WHERE p.id = $2`, [userId ?? null, id]);
    if (!row) throw articleIdError();
    return row;
  };

  route(app, services, 'getPost', async ({ userId, params }) =>
    postReply(await onePost(params.id, userId)),
  );

  route(app, services, 'createPost', async ({ userId, body, reply }) => {
    const [author] = await db.query<{ username: string }>(
      'SELECT username FROM users WHERE id = $1',
      [userId],
    );
    const [row] = await db.query<{ id: number }>(
      'INSERT INTO posts (author_id, author_name, language, title, body) VALUES ($1, $2, $3, $4, $5) RETURNING id',
      [userId, author?.username ?? 'Rider', body.language, body.title, body.body],
    );
    reply.status(201);
    return postReply(await onePost(row!.id, userId));
  });

  const likes = async (postId: number, userId: number) => {
    const row = await onePost(postId, userId);
    return { likes: Number(row.likes), liked: Boolean(row.liked) };
  };
  route(app, services, 'likePost', async ({ userId, params }) => {
    await onePost(params.id, userId);
    await db.query(
      'INSERT INTO post_likes (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [params.id, userId],
    );
    return likes(params.id, userId!);
  });
  route(app, services, 'unlikePost', async ({ userId, params }) => {
    await onePost(params.id, userId);
    await db.query('DELETE FROM post_likes WHERE post_id = $1 AND user_id = $2', [
      params.id,
      userId,
    ]);
    return likes(params.id, userId!);
  });

  route(app, services, 'listComments', async ({ params, query, request }) => {
    await onePost(params.id, undefined);
    return paginate(
      db,
      request,
      query,
      {
        select: 'SELECT id, author_name, body, created_at FROM post_comments WHERE post_id = $1',
        params: [params.id],
        orderBy: 'id',
        count: 'SELECT count(*)::int AS count FROM post_comments WHERE post_id = $1',
      },
      (row: { id: number; author_name: string; body: string; created_at: Date }) => ({
        id: row.id,
        author: row.author_name,
        body: row.body,
        created_at: new Date(row.created_at).toISOString(),
      }),
    );
  });

  route(app, services, 'createComment', async ({ userId, params, body, reply }) => {
    await onePost(params.id, userId);
    const [author] = await db.query<{ username: string }>(
      'SELECT username FROM users WHERE id = $1',
      [userId],
    );
    const [row] = await db.query<{ id: number; created_at: Date }>(
      'INSERT INTO post_comments (post_id, user_id, author_name, body) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
      [params.id, userId, author?.username ?? 'Rider', body.body],
    );
    reply.status(201);
    return {
      id: row!.id,
      author: author?.username ?? 'Rider',
      body: body.body,
      created_at: new Date(row!.created_at).toISOString(),
    };
  });

  route(app, services, 'health', () => ({ status: 'ok' as const }));
  route(app, services, 'ready', async () => {
    await db.query('SELECT 1');
    return { status: 'ready' as const, database: 'ok' as const };
  });
}
