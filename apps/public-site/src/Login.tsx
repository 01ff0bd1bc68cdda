import { useId, useState, type FormEvent } from 'react';
import { guardNavigation, returnPathAfterLogin, type LoginOutcome } from '@xoss/api-client';
import { loginRequestSchema } from '@xoss/api-contract';
import { ForgotPassword } from './ForgotPassword.tsx';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, SubmitButton } from '@xoss/ui-kit';
import { Navigate, useLocation } from 'react-router';
import { client } from './client.ts';

/** Where a finished login goes; the portal is another app, so a full page load (tests stub it). */
export const afterLogin = { go: (path: string) => window.location.replace(path) };

/**
 * `/login` (spec 2, 5, 8): e-mail, password, remember me, forgot password, and a line of
 * text saying that logging in means agreeing to the terms and the privacy policy (the
 * required agreement belongs to sign-up, which happens in the app). After login the rider
 * returns to the page the guard sent them from.
 */
export function Login() {
  const t = useT();
  const location = useLocation();
  const id = useId();
  const remembered =
    client.session.rememberedEmail() ?? client.session.flag<string>('remembered_user') ?? '';
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const search = new URLSearchParams(location.search);
  // A reset page whose link is no longer valid sends the rider here to ask for a new one.
  const [showForgot, setShowForgot] = useState(search.has('forgot'));
  // Set by the portal after the rider deleted their account.
  const deleted = search.get('account') === 'deleted';
  // What is wrong with a field, said beside it (cleared by the next attempt).
  const [problems, setProblems] = useState<{ email?: string; password?: string }>({});

  // Set while this form logs in, and kept once it succeeded: the page is leaving for the
  // portal, and the guard below must not show the public home while it loads.
  const [leaving, setLeaving] = useState(false);

  // Spec 4: a signed-in rider going to a white-listed page (login) goes home instead.
  const decision = guardNavigation({
    to: `${location.pathname}${location.search}`,
    from: null,
    loggedIn: client.session.isLoggedIn(),
  });
  if (decision.action === 'redirect' && !leaving) return <Navigate to={decision.to} replace />;

  const submit = async (form: FormData) => {
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    // The API's own rule for the login body, checked before anything is sent: a field it
    // would refuse with 10400 is named beside the field in the rider's language, not as a
    // bare "login failed".
    const checked = loginRequestSchema.safeParse({
      email: text('email').trim(),
      password: text('password').trim(),
    });
    const wrong = new Set(checked.success ? [] : checked.error.issues.map(({ path }) => path[0]));
    setMessage(null);
    setProblems({
      ...(wrong.has('email') ? { email: t('login.emailInvalid') } : {}),
      ...(wrong.has('password') ? { password: t('login.passwordMissing') } : {}),
    });
    if (wrong.size > 0) {
      document.getElementById(`${id}-${wrong.has('email') ? 'email' : 'password'}`)?.focus();
      return;
    }
    setBusy(true);
    const remember = form.get('remember') === 'on';
    // Marked before the answer comes: the session is stored before `logIn` returns, and a
    // render in between must keep this form (busy) rather than go home.
    setLeaving(true);
    // A throw (storage refused, say) is a failed login said as one, never a form left busy.
    const outcome = await client
      .logIn(text('email'), text('password'), { remember })
      .catch((): LoginOutcome => ({
        ok: false,
        error: { messageId: 'errors.loginFailed', message: 'login failed' },
      }));
    if (!outcome.ok) {
      setLeaving(false);
      setBusy(false);
      // The API refused a field this form let through: named beside it, in the rider's
      // language (the API's own reason is English).
      const refused = outcome.error.fields ?? {};
      if ('email' in refused || 'password' in refused) {
        setProblems({
          ...('email' in refused ? { email: t('login.emailInvalid') } : {}),
          ...('password' in refused ? { password: t('login.passwordMissing') } : {}),
        });
        document.getElementById(`${id}-${'email' in refused ? 'email' : 'password'}`)?.focus();
        return;
      }
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
      {deleted ? (
        <p role="status" className="site__login-status">
          <Message id="login.accountDeleted" />
        </p>
      ) : null}
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
            id={`${id}-email`}
            className="xoss-select"
            type="email"
            name="email"
            autoComplete="username"
            required
            defaultValue={remembered}
            aria-invalid={problems.email ? true : undefined}
            aria-describedby={problems.email ? `${id}-email-problem` : undefined}
          />
        </label>
        {problems.email ? (
          <small id={`${id}-email-problem`} className="site__field-problem">
            {problems.email}
          </small>
        ) : null}
        <label>
          <Message id="login.password" />
          <input
            id={`${id}-password`}
            className="xoss-select"
            type="password"
            name="password"
            autoComplete="current-password"
            required
            aria-invalid={problems.password ? true : undefined}
            aria-describedby={problems.password ? `${id}-password-problem` : undefined}
          />
        </label>
        {problems.password ? (
          <small id={`${id}-password-problem`} className="site__field-problem">
            {problems.password}
          </small>
        ) : null}
        <label className="xoss-choice">
          <input type="checkbox" name="remember" defaultChecked={remembered !== ''} />
          <Message id="login.rememberMe" />
        </label>
        <p className="site__login-terms">
          <Message
            id="login.agreeByLogIn"
            values={{
              terms: (chunks) => <a href="/copyright/terms">{chunks}</a>,
              privacy: (chunks) => <a href="/copyright/policy">{chunks}</a>,
            }}
          />
        </p>
        <Alert>{message}</Alert>
        <SubmitButton busy={busy}>
          <Message id="login.submit" />
        </SubmitButton>
      </form>
      {/* Its own form after the login's (forms do not nest), opened by this button. */}
      <button
        type="button"
        className="xoss-button site__login-forgot"
        aria-expanded={showForgot}
        aria-controls={`${id}-forgot`}
        onClick={() => setShowForgot(!showForgot)}
      >
        <Message id="login.forgot" />
      </button>
      {showForgot ? <ForgotPassword id={`${id}-forgot`} /> : null}
      <p>
        <a href="/product/download">
          <Message id="login.signUp" />
        </a>
      </p>
    </section>
  );
}
