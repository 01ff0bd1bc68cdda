import { useId, useState, type FormEvent } from 'react';
import { isErrorReply } from '@xoss/api-client';
import { PASSWORD_MIN_LENGTH } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, SubmitButton } from '@xoss/ui-kit';
import { useLocation } from 'react-router';
import { client } from './client.ts';

/** A reset link's token: 32 random bytes in base64url (the API's own rule). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

type Field = 'password' | 'repeat';

/**
 * `/login/reset?token=…`, where the mailed link lands: a new password, twice. The link works
 * once, for 30 minutes; one that is cut short, used or expired says so and leads back to the
 * form that sends a new one. Setting the password ends every session of the rider.
 */
export function ResetPassword() {
  const t = useT();
  const id = useId();
  const token = new URLSearchParams(useLocation().search).get('token') ?? '';
  const [state, setState] = useState<'form' | 'done' | 'invalid'>(
    TOKEN.test(token) ? 'form' : 'invalid',
  );
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (form: FormData) => {
    const text = (name: string) => {
      const value = form.get(name);
      return typeof value === 'string' ? value : '';
    };
    const password = text('password');
    setMessage(null);
    // The API's rule (spaces around it do not count), said beside the field before sending.
    const found: Partial<Record<Field, string>> =
      password.trim().length < PASSWORD_MIN_LENGTH
        ? { password: t('login.reset.tooShort', { min: PASSWORD_MIN_LENGTH }) }
        : password !== text('repeat')
          ? { repeat: t('login.reset.mismatch') }
          : {};
    setProblems(found);
    const first = (['password', 'repeat'] as const).find((name) => found[name]);
    if (first) {
      document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const reply = await client.transport.call('confirmPasswordReset', {
      body: { token, password },
    });
    setBusy(false);
    if (reply.ok) {
      // Every session of the rider has ended, this browser's too: forget its tokens.
      client.session.clear();
      setState('done');
      return;
    }
    const failure = isErrorReply(reply.error) ? reply.error : undefined;
    const refused = new Set(failure?.errors?.map(({ path }) => path));
    if (failure?.code === 10304 || refused.has('token')) setState('invalid');
    else if (refused.has('password'))
      setProblems({ password: t('login.reset.tooShort', { min: PASSWORD_MIN_LENGTH }) });
    else
      setMessage(
        failure?.code === 10503
          ? t('errors.10503')
          : failure
            ? t('errors.10500')
            : t('errors.network'),
      );
  };

  const field = (name: Field) => (
    <>
      <label>
        {name === 'password' ? (
          <Message id="login.reset.password" />
        ) : (
          <Message id="login.reset.repeat" />
        )}
        <input
          id={`${id}-${name}`}
          className="xoss-select"
          type="password"
          name={name}
          autoComplete="new-password"
          aria-invalid={problems[name] ? true : undefined}
          aria-describedby={problems[name] ? `${id}-${name}-problem` : undefined}
        />
      </label>
      {problems[name] ? (
        <small id={`${id}-${name}-problem`} className="site__field-problem">
          {problems[name]}
        </small>
      ) : null}
    </>
  );

  return (
    <section className="site__login" aria-labelledby={`${id}-title`}>
      <h1 id={`${id}-title`}>
        <Message id="login.reset.title" />
      </h1>
      {state === 'invalid' ? (
        <>
          <p role="alert">
            <Message id="errors.10304" />
          </p>
          <p>
            <a href="/login?forgot">
              <Message id="login.reset.askAgain" />
            </a>
          </p>
        </>
      ) : state === 'done' ? (
        <>
          <p role="status">
            <Message id="login.reset.done" />
          </p>
          <p>
            <a href="/login">
              <Message id="login.reset.logIn" />
            </a>
          </p>
        </>
      ) : (
        <form
          noValidate
          onSubmit={(event: FormEvent<HTMLFormElement>) => {
            event.preventDefault();
            void submit(new FormData(event.currentTarget));
          }}
        >
          {field('password')}
          {field('repeat')}
          <Alert>{message}</Alert>
          <SubmitButton busy={busy}>
            <Message id="login.reset.submit" />
          </SubmitButton>
        </form>
      )}
    </section>
  );
}
