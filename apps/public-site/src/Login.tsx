import { useId, useState, type FormEvent } from 'react';
import { guardNavigation, returnPathAfterLogin } from '@xoss/api-client';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, SubmitButton } from '@xoss/ui-kit';
import { Navigate, useLocation } from 'react-router';
import { client } from './client.ts';

/** Where a finished login goes; the portal is another app, so a full page load. */
const afterLogin = { go: (path: string) => window.location.replace(path) };

/**
 * `/login` (spec 2, 5, 8): e-mail, password, remember me, forgot password, agreement to the
 * terms and the privacy policy; sign-up happens in the app. After login the rider returns
 * to the page the guard sent them from.
 */
export function Login() {
  const t = useT();
  const location = useLocation();
  const id = useId();
  const remembered =
    client.session.rememberedEmail() ?? client.session.flag<string>('remembered_user') ?? '';
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [showForgot, setShowForgot] = useState(false);

  // Spec 4: a signed-in rider going to a white-listed page (login) goes home instead.
  const decision = guardNavigation({
    to: `${location.pathname}${location.search}`,
    from: null,
    loggedIn: client.session.isLoggedIn(),
  });
  if (decision.action === 'redirect') return <Navigate to={decision.to} replace />;

  const submit = async (form: FormData) => {
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    if (form.get('agree') !== 'on') {
      setMessage(t('login.mustAgree'));
      return;
    }
    setBusy(true);
    const remember = form.get('remember') === 'on';
    const outcome = await client.logIn(text('email'), text('password'), { remember });
    setBusy(false);
    if (!outcome.ok) {
      setMessage(
        outcome.error.messageId === 'errors.10302'
          ? t('errors.10302', {
              minutes: Math.max(1, Math.ceil((outcome.error.retryAfterS ?? 60) / 60)),
            })
          : t(outcome.error.messageId),
      );
      return;
    }
    if (remember) client.session.setFlag('remembered_user', text('email'));
    else client.session.removeFlag('remembered_user');
    client.session.setRememberedEmail(remember ? text('email').trim() : null);
    afterLogin.go(returnPathAfterLogin(location.search));
  };

  return (
    <section className="site__login" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>
        <Message id="login.title" />
      </h1>
      <form
        noValidate
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          void submit(new FormData(event.currentTarget));
        }}
      >
        <label>
          <Message id="login.email" />
          <input
            className="xoss-select"
            type="email"
            name="email"
            autoComplete="username"
            required
            defaultValue={remembered}
          />
        </label>
        <label>
          <Message id="login.password" />
          <input
            className="xoss-select"
            type="password"
            name="password"
            autoComplete="current-password"
            required
          />
        </label>
        <label className="xoss-choice">
          <input type="checkbox" name="remember" defaultChecked={remembered !== ''} />
          <Message id="login.rememberMe" />
        </label>
        <label className="xoss-choice">
          <input type="checkbox" name="agree" />
          <span>
            <Message
              id="login.agree"
              values={{
                terms: (chunks) => <a href="/copyright/terms">{chunks}</a>,
                privacy: (chunks) => <a href="/copyright/policy">{chunks}</a>,
              }}
            />
          </span>
        </label>
        <Alert>{message}</Alert>
        <SubmitButton busy={busy}>
          <Message id="login.submit" />
        </SubmitButton>
        <button
          type="button"
          className="xoss-button"
          aria-expanded={showForgot}
          onClick={() => setShowForgot(!showForgot)}
        >
          <Message id="login.forgot" />
        </button>
        {showForgot ? (
          <p>
            <Message id="login.forgotHint" />
          </p>
        ) : null}
        <p>
          <a href="/product/download">
            <Message id="login.signUp" />
          </a>
        </p>
      </form>
    </section>
  );
}
