import { useState, type FormEvent } from 'react';
import { isErrorReply } from '@xoss/api-client';
import { passwordResetRequestSchema } from '@xoss/api-contract';
import { Message, useT } from '@xoss/i18n/react';
import { Alert, SubmitButton } from '@xoss/ui-kit';
import { client } from './client.ts';

/**
 * "Forgot password?" on the login page: the account's e-mail, and a link to set a new
 * password sent to it. What it says after sending is the same whether or not the address
 * has an account (so the form tells nobody who rides with us); only a rate limit or a
 * failure to reach the server reads differently.
 */
export function ForgotPassword({ id }: { id: string }) {
  const t = useT();
  const [problem, setProblem] = useState<string | undefined>();
  const [message, setMessage] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (form: FormData) => {
    const value = form.get('email');
    const email = typeof value === 'string' ? value.trim() : '';
    setMessage(null);
    setSent(false);
    // The API's rule for the address, checked here so a typo is named beside the field.
    if (!passwordResetRequestSchema.safeParse({ email }).success) {
      setProblem(t('login.emailInvalid'));
      document.getElementById(`${id}-email`)?.focus();
      return;
    }
    setProblem(undefined);
    setBusy(true);
    const reply = await client.transport.call('requestPasswordReset', { body: { email } });
    setBusy(false);
    if (reply.ok) {
      setSent(true);
      return;
    }
    const failure = isErrorReply(reply.error) ? reply.error : undefined;
    setMessage(
      failure?.code === 10302
        ? t('errors.10302', { minutes: Math.max(1, Math.ceil((failure.retryAfterS ?? 60) / 60)) })
        : failure?.code === 10400
          ? t('login.emailInvalid')
          : failure?.code === 10503
            ? t('errors.10503')
            : failure
              ? t('errors.10500')
              : t('errors.network'),
    );
  };
  return (
    <form
      id={id}
      noValidate
      aria-labelledby={`${id}-title`}
      onSubmit={(event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        void submit(new FormData(event.currentTarget));
      }}
    >
      <h2 id={`${id}-title`}>
        <Message id="login.forgotTitle" />
      </h2>
      <p>
        <Message id="login.forgotIntro" />
      </p>
      <label>
        <Message id="login.forgotEmail" />
        <input
          id={`${id}-email`}
          className="xoss-select"
          type="email"
          name="email"
          autoComplete="username"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-email-problem` : undefined}
        />
      </label>
      {problem ? (
        <small id={`${id}-email-problem`} className="site__field-problem">
          {problem}
        </small>
      ) : null}
      <Alert>{message}</Alert>
      {sent ? (
        <p role="status">
          <Message id="login.forgotSent" />
        </p>
      ) : null}
      <SubmitButton busy={busy}>
        <Message id="login.forgotSubmit" />
      </SubmitButton>
    </form>
  );
}
