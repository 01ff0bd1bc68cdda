import * as s from '../schemas.ts';
import { routes } from '../routeTable.ts';
import { authErrors, id, type EndpointGroup } from './endpoint.ts';

/** Articles, their likes and comments. */
export const articleEndpoints = {
  listPosts: {
    ...routes.listPosts,
    summary: 'Articles, newest first',
    query: s.postListQuerySchema,
    reply: s.pageSchema(s.postSchema),
    errors: [10400],
  },
  getPost: {
    ...routes.getPost,
    summary: 'One article ("Article id parameter error" for a bad id)',
    params: id,
    reply: s.postSchema,
    errors: [10400, 10404],
  },
  createPost: {
    ...routes.createPost,
    summary: 'Create an article',
    body: s.postCreateSchema,
    reply: s.postSchema,
    errors: [10001, 10400],
  },
  likePost: {
    ...routes.likePost,
    summary: 'Like an article (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  unlikePost: {
    ...routes.unlikePost,
    summary: 'Take a like back (idempotent)',
    params: id,
    reply: s.likeReplySchema,
    errors: authErrors,
  },
  listComments: {
    ...routes.listComments,
    summary: 'Comments of an article, oldest first',
    params: id,
    query: s.pageQuerySchema,
    reply: s.pageSchema(s.commentSchema),
    errors: [10400, 10404],
  },
  createComment: {
    ...routes.createComment,
    summary: 'Comment on an article (stored verbatim, shown as text)',
    params: id,
    body: s.commentCreateSchema,
    reply: s.commentSchema,
    errors: authErrors,
  },
} as const satisfies EndpointGroup;
