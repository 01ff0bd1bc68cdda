import { Navigate, useParams } from 'react-router';

/** Spec 2's `like` and `comment` children lead to the article they act on. */
export function ToArticle({ hash = '' }: { hash?: string }) {
  const { article } = useParams();
  return <Navigate to={`/post/content/${article ?? ''}${hash}`} replace />;
}
