import { useState } from 'react';
import { apiFailureOf, isErrorReply, selectSession } from '@xoss/api-client';
import { languageNames, normalizeLanguage, textLanguages, type MessageId } from '@xoss/i18n';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, EmptyState, Loading, SubmitButton } from '@xoss/ui-kit';
import { Provider, useSelector } from 'react-redux';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { client } from '../client.ts';

const { api } = client;
const PAGE_SIZE = 10;

const formatDate = (iso: string, locale: string) =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));

/** The message for a failed call: spec 8's 'Article id parameter error' for a bad id. */
function failureId(error: unknown): MessageId {
  const failure = apiFailureOf(error);
  if (failure && isErrorReply(failure) && (failure.code === 10400 || failure.code === 10404))
    return 'errors.articleId';
  if (failure?.status === 'NETWORK_ERROR') return 'errors.network';
  return 'errors.10503';
}

/** Spec 5's article id: a positive whole number, else spec 8's message without a request. */
const articleIdOf = (raw: string | undefined) =>
  raw !== undefined && /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;

function LogInToAct({ message }: { message: MessageId }) {
  const t = useT();
  const here = typeof window === 'undefined' ? '/post/content' : window.location.pathname;
  return (
    <p>
      <Link to={`/login?redirect=${encodeURIComponent(here)}`}>{t(message)}</Link>
    </p>
  );
}

/** The articles list's "all languages" choice (`?language=all`). */
const ALL = 'all';

/** The language filter from `?language=`: `all`, a text language, else the site's language. */
function articleLanguageOf(param: string | null, siteLanguage: string): string {
  if (param === ALL) return ALL;
  return normalizeLanguage(param ?? siteLanguage);
}

/** `/post/content`: the articles, newest first, a page at a time, in one language or all. */
function PostList() {
  const t = useT();
  const locale = useLocale();
  const { loggedIn } = useSelector(selectSession);
  const [search, setSearch] = useSearchParams();
  const page = Math.max(1, Number(search.get('page')) || 1);
  // Articles in the site's language unless the visitor picks another, or all of them; the
  // API filters (a bare tag matches its regional ones: `en` answers `en-US`).
  const filter = articleLanguageOf(search.get('language'), locale);
  const list = api.useListPostsQuery({
    query: { page, page_size: PAGE_SIZE, ...(filter === ALL ? {} : { language: filter }) },
  });
  // Another page keeps the language; another language starts again at page 1.
  const go = (next: { page?: number; language?: string }) => {
    const language = next.language ?? search.get('language');
    setSearch({
      ...(next.page && next.page > 1 ? { page: String(next.page) } : {}),
      ...(language ? { language } : {}),
    });
  };
  const pages = list.data ? Math.max(1, Math.ceil(list.data.count / PAGE_SIZE)) : 1;
  return (
    <>
      <h1>
        <Message id="nav.articles" />
      </h1>
      {loggedIn ? (
        <p>
          <Link className="xoss-button" data-variant="primary" to="/post/create">
            <Message id="post.create" />
          </Link>
        </p>
      ) : (
        <LogInToAct message="post.signInToWrite" />
      )}
      <p>
        <label className="site__filter">
          <Message id="post.filter.language" />{' '}
          <select
            className="xoss-select"
            value={filter}
            onChange={(event) => go({ language: event.target.value })}
          >
            <option value={ALL}>{t('post.filter.all')}</option>
            {textLanguages.map((language) => (
              <option key={language} value={language} lang={language}>
                {languageNames[language]}
              </option>
            ))}
          </select>
        </label>
      </p>
      {list.isLoading ? <Loading /> : null}
      {list.isError ? <Alert>{t(failureId(list.error))}</Alert> : null}
      {list.data && list.data.results.length === 0 ? (
        <EmptyState title={<Message id="post.empty" />} />
      ) : null}
      <ul className="site__posts">
        {list.data?.results.map((post) => (
          <li key={post.id}>
            <article>
              <h2>
                <Link to={`/post/content/${post.id}`}>{post.title}</Link>
              </h2>
              <p className="site__muted">
                {t('post.meta', { author: post.author, date: formatDate(post.created_at, locale) })}{' '}
                · {t('post.likes', { count: post.likes })} ·{' '}
                {t('post.comments', { count: post.comments })}
              </p>
            </article>
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <nav className="site__actions" aria-label={t('common.pageOf', { page, pages })}>
          <button
            type="button"
            className="xoss-button"
            disabled={page <= 1}
            onClick={() => go({ page: page - 1 })}
          >
            <Message id="common.previousPage" />
          </button>
          <span>{t('common.pageOf', { page, pages })}</span>
          <button
            type="button"
            className="xoss-button"
            disabled={page >= pages}
            onClick={() => go({ page: page + 1 })}
          >
            <Message id="common.nextPage" />
          </button>
        </nav>
      ) : null}
    </>
  );
}

/** `/post/content/{article}`: the article, its likes and comments; signed-in riders act. */
function PostPage() {
  const { article } = useParams();
  const id = articleIdOf(article);
  if (id === null)
    return (
      <Alert>
        <Message id="errors.articleId" />
      </Alert>
    );
  return <Post id={id} />;
}

function Post({ id }: { id: number }) {
  const t = useT();
  const locale = useLocale();
  const { loggedIn } = useSelector(selectSession);
  const post = api.useGetPostQuery({ params: { id } });
  const comments = api.useListCommentsQuery({ params: { id }, query: { page: 1, page_size: 50 } });
  const [like, liking] = api.useLikePostMutation();
  const [unlike, unliking] = api.useUnlikePostMutation();
  const [comment, commenting] = api.useCreateCommentMutation();
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<MessageId | null>(null);
  if (post.isLoading) return <Loading />;
  if (!post.data) return <Alert>{t(failureId(post.error))}</Alert>;
  const { data } = post;
  return (
    <article className="site__post">
      <h1>{data.title}</h1>
      <p className="site__muted">
        {t('post.meta', { author: data.author, date: formatDate(data.created_at, locale) })}
      </p>
      <div lang={data.language} className="site__post-body">
        {data.body.split(/\n{2,}/).map((paragraph, index) => (
          <p key={index}>{paragraph}</p>
        ))}
      </div>
      <p className="site__actions">
        {loggedIn ? (
          <button
            type="button"
            className="xoss-button"
            aria-pressed={data.liked}
            disabled={liking.isLoading || unliking.isLoading}
            onClick={() =>
              void (data.liked ? unlike({ params: { id } }) : like({ params: { id } })).then(
                (result) => setProblem('error' in result ? failureId(result.error) : null),
              )
            }
          >
            {t(data.liked ? 'post.unlike' : 'post.like')}
          </button>
        ) : null}
        <span>{t('post.likes', { count: data.likes })}</span>
      </p>
      <section id="comments" aria-labelledby="comments-title">
        <h2 id="comments-title">
          {t('post.comments', { count: comments.data?.count ?? data.comments })}
        </h2>
        <ul className="site__comments">
          {comments.data?.results.map((entry) => (
            <li key={entry.id}>
              <p className="site__muted">
                {t('post.meta', {
                  author: entry.author,
                  date: formatDate(entry.created_at, locale),
                })}
              </p>
              <p>{entry.body}</p>
            </li>
          ))}
        </ul>
        {loggedIn ? (
          <form
            className="site__form"
            onSubmit={(event) => {
              event.preventDefault();
              if (draft.trim() === '') return setProblem('errors.10400');
              void comment({ params: { id }, body: { body: draft } }).then((result) => {
                if ('error' in result) return setProblem(failureId(result.error));
                setProblem(null);
                setDraft('');
                void comments.refetch();
                void post.refetch();
              });
            }}
          >
            <label>
              <Message id="post.writeComment" />
              <textarea
                className="xoss-select"
                value={draft}
                maxLength={2000}
                onChange={(event) => setDraft(event.target.value)}
              />
            </label>
            <SubmitButton busy={commenting.isLoading}>
              <Message id="post.comment" />
            </SubmitButton>
          </form>
        ) : (
          <LogInToAct message="post.signInToReact" />
        )}
        {problem ? <Alert>{t(problem)}</Alert> : null}
      </section>
    </article>
  );
}

/** `/post/create`: a signed-in rider writes an article; 'Submit Succeeded' or 'Submit Failed'. */
function PostCreate() {
  const t = useT();
  const { loggedIn } = useSelector(selectSession);
  const locale = useLocale();
  const navigate = useNavigate();
  const [create, creating] = api.useCreatePostMutation();
  const [problem, setProblem] = useState<MessageId | null>(null);
  if (!loggedIn)
    return (
      <>
        <h1>
          <Message id="post.create" />
        </h1>
        <LogInToAct message="post.signInToWrite" />
      </>
    );
  return (
    <>
      <h1>
        <Message id="post.create" />
      </h1>
      <form
        className="site__form"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const text = (name: string) => {
            const value = form.get(name);
            return typeof value === 'string' ? value.trim() : '';
          };
          const title = text('title');
          const body = text('body');
          if (!title || !body) return setProblem('errors.10400');
          void create({ body: { title, body, language: locale } }).then((result) => {
            if ('error' in result) return setProblem('toast.submitFailed');
            void navigate(`/post/content/${result.data.id}`, { state: { submitted: true } });
          });
        }}
      >
        <label>
          <Message id="post.title" />
          <input className="xoss-select" name="title" maxLength={200} required />
        </label>
        <label>
          <Message id="post.body" />
          <textarea className="xoss-select" name="body" rows={10} maxLength={20000} required />
        </label>
        <SubmitButton busy={creating.isLoading}>
          <Message id="post.publish" />
        </SubmitButton>
      </form>
      {problem ? <Alert>{t(problem)}</Alert> : null}
    </>
  );
}

/** The article pages carry the API client's store: they load with it, not with the site. */
export function PostListRoute() {
  return (
    <Provider store={client.store}>
      <PostList />
    </Provider>
  );
}

export function PostPageRoute() {
  return (
    <Provider store={client.store}>
      <PostPage />
    </Provider>
  );
}

export function PostCreateRoute() {
  return (
    <Provider store={client.store}>
      <PostCreate />
    </Provider>
  );
}
