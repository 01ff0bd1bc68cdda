import type { MapRegion } from '@xoss/api-contract';
import type { Queryable } from '../platform/db/db.ts';
import { pageOf, type PageWindow, type RowPage } from '../platform/db/page.ts';

// The site's content: map packages by region, and the riders' articles with their likes and
// comments.

export interface RegionRow {
  id: number;
  model: MapRegion['model'];
  name: string;
  bbox: MapRegion['bbox'];
  file_key: string;
  size_bytes: number | string;
}

/** An article with its counts and whether the reader (or no one) liked it. */
export interface PostRow {
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

export interface CommentRow {
  id: number;
  author_name: string;
  body: string;
  created_at: Date;
}

/** Map regions, of one model or all, by model and name. */
export function mapRegions(db: Queryable, model?: MapRegion['model']): Promise<RegionRow[]> {
  return db.query<RegionRow>(
    `SELECT * FROM map_regions ${model ? 'WHERE model = $1' : ''} ORDER BY model, name`,
    model ? [model] : [],
  );
}

export async function mapRegion(db: Queryable, id: number): Promise<RegionRow | undefined> {
  const [row] = await db.query<RegionRow>('SELECT * FROM map_regions WHERE id = $1', [id]);
  return row;
}

// $1 is the reader (null for a visitor): whether they liked each article.
const POST_SELECT = `SELECT p.*,
  (SELECT count(*)::int FROM post_likes l WHERE l.post_id = p.id) AS likes,
  EXISTS (SELECT 1 FROM post_likes l WHERE l.post_id = p.id AND l.user_id = $1) AS liked,
  (SELECT count(*)::int FROM post_comments c WHERE c.post_id = p.id) AS comments
  FROM posts p`;

/**
 * Whether an article's language tag answers a requested one: the same tag, or one of them
 * the other's bare language (`en` answers `en-US` and the other way round; `zh-CN` does not
 * answer `zh-TW`).
 */
const languageMatch = (param: string) =>
  `(p.language = ${param} OR p.language = split_part(${param}, '-', 1) OR split_part(p.language, '-', 1) = ${param})`;

/** One page of articles, newest first, in one language or all. */
export function listPosts(
  db: Queryable,
  reader: number | undefined,
  language: string | undefined,
  window: PageWindow,
): Promise<RowPage<PostRow>> {
  return pageOf<PostRow>(
    db,
    {
      select: `${POST_SELECT} ${language ? `WHERE ${languageMatch('$2')}` : ''}`,
      params: language ? [reader ?? null, language] : [reader ?? null],
      orderBy: 'p.id DESC',
      count: `SELECT count(*)::int AS count FROM posts p ${language ? `WHERE ${languageMatch('$1')}` : ''}`,
      countParams: language ? [language] : [],
    },
    window,
  );
}

export async function post(
  db: Queryable,
  id: number,
  reader: number | undefined,
): Promise<PostRow | undefined> {
  const [row] = await db.query<PostRow>(`${POST_SELECT} WHERE p.id = $2`, [reader ?? null, id]);
  return row;
}

export async function insertPost(
  db: Queryable,
  article: {
    authorId: number | undefined;
    author: string;
    language: string;
    title: string;
    body: string;
  },
): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    'INSERT INTO posts (author_id, author_name, language, title, body) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [article.authorId, article.author, article.language, article.title, article.body],
  );
  return row!.id;
}

/** Likes an article once (a second like changes nothing). */
export async function like(db: Queryable, postId: number, userId: number | undefined) {
  await db.query(
    'INSERT INTO post_likes (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
    [postId, userId],
  );
}

export async function unlike(db: Queryable, postId: number, userId: number | undefined) {
  await db.query('DELETE FROM post_likes WHERE post_id = $1 AND user_id = $2', [postId, userId]);
}

/** One page of an article's comments, oldest first. */
export function listComments(
  db: Queryable,
  postId: number,
  window: PageWindow,
): Promise<RowPage<CommentRow>> {
  return pageOf<CommentRow>(
    db,
    {
      select: 'SELECT id, author_name, body, created_at FROM post_comments WHERE post_id = $1',
      params: [postId],
      orderBy: 'id',
      count: 'SELECT count(*)::int AS count FROM post_comments WHERE post_id = $1',
    },
    window,
  );
}

export async function insertComment(
  db: Queryable,
  comment: { postId: number; userId: number | undefined; author: string; body: string },
): Promise<{ id: number; created_at: Date }> {
  const [row] = await db.query<{ id: number; created_at: Date }>(
    'INSERT INTO post_comments (post_id, user_id, author_name, body) VALUES ($1, $2, $3, $4) RETURNING id, created_at',
    [comment.postId, comment.userId, comment.author, comment.body],
  );
  return row!;
}
