import { useState, type FormEvent } from 'react';
import { apiFailureOf, isErrorReply } from '@xoss/api-client';
import { PASSWORD_MIN_LENGTH } from '@xoss/api-contract/routes';
import { Message, useLocale, useT } from '@xoss/i18n/react';
import { Alert, ConfirmDialog, SubmitButton } from '@xoss/ui-kit';
import { api, client } from '../client.ts';
import { leave } from '../navigation.ts';
import { Loaded, formatDate, formText, saveFile, useFailureText } from '../components/common.tsx';

/** The labels of the password form's fields. */
const PASSWORD_LABELS = {
  current: 'settings.account.password.current',
  new: 'settings.account.password.new',
  repeat: 'settings.account.password.repeat',
} as const;

/** Where the site's login says the account is gone, after a deletion. */
export const AFTER_DELETION = '/login?account=deleted';

/** The API's code of a failed call, when the API answered. */
function codeOf(error: unknown) {
  const failure = apiFailureOf(error);
  return failure && isErrorReply(failure) ? failure : undefined;
}

/**
 * The text of a failure of the account's calls: a wrong password (10303) and too many
 * attempts (10302, with the minutes to wait) are the rider's to act on, so they are said in
 * their words; anything else as every page says it.
 */
function useAccountFailure() {
  const t = useT();
  const failureText = useFailureText();
  return (error: unknown) => {
    const reply = codeOf(error);
    if (reply?.code === 10303) return { wrongPassword: t('errors.10303') };
    if (reply?.code === 10302)
      return {
        text: t('errors.10302', {
          minutes: Math.max(1, Math.ceil((reply.retryAfterS ?? 60) / 60)),
        }),
      };
    return { text: failureText(error) };
  };
}

/** A field's message, right under it, and the attributes that tie the field to it. */
function FieldProblem({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <small id={id} className="portal__field-problem">
      {text}
    </small>
  ) : null;
}
const problemOf = (id: string, text: string | undefined) =>
  text ? { 'aria-invalid': true, 'aria-describedby': id } : {};

/**
 * `/dashboard/settings/account`: the rider's password, where they are signed in, a copy of
 * everything they gave us, and deleting the account.
 */
export function AccountPage() {
  return (
    <>
      <h1>
        <Message id="nav.account" />
      </h1>
      <p className="portal__note">
        <Message id="settings.account.intro" />
      </p>
      <ChangePassword />
      <Sessions />
      <ExportData />
      <DeleteAccount />
    </>
  );
}

type PasswordField = 'current' | 'new' | 'repeat';

function ChangePassword() {
  const t = useT();
  const failure = useAccountFailure();
  const [change, changing] = api.useChangePasswordMutation();
  const [wrong, setWrong] = useState<Partial<Record<PasswordField, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [changed, setChanged] = useState(false);
  const submit = async (form: HTMLFormElement) => {
    const data = new FormData(form);
    const current = formText(data, 'current_password');
    const next = formText(data, 'new_password');
    const repeat = formText(data, 'repeat_password');
    setProblem(null);
    setChanged(false);
    // The API's rule (spaces around the password do not count), said before anything is sent.
    const found: Partial<Record<PasswordField, string>> = {
      ...(current.trim() === '' ? { current: t('settings.account.password.currentMissing') } : {}),
      ...(next.trim().length < PASSWORD_MIN_LENGTH
        ? { new: t('settings.account.password.tooShort', { min: PASSWORD_MIN_LENGTH }) }
        : next !== repeat
          ? { repeat: t('settings.account.password.mismatch') }
          : {}),
    };
    setWrong(found);
    const first = (['current', 'new', 'repeat'] as const).find((name) => found[name]);
    if (first) {
      document.getElementById(`account-${first}`)?.focus();
      return;
    }
    const result = await change({ body: { current_password: current, new_password: next } });
    if ('error' in result) {
      const { wrongPassword, text } = failure(result.error);
      if (wrongPassword) {
        setWrong({ current: wrongPassword });
        document.getElementById('account-current')?.focus();
      } else if (codeOf(result.error)?.errors?.some(({ path }) => path === 'new_password')) {
        setWrong({ new: t('settings.account.password.tooShort', { min: PASSWORD_MIN_LENGTH }) });
      } else setProblem(text ?? null);
      return;
    }
    form.reset();
    setChanged(true);
  };
  const field = (name: PasswordField, label: 'current' | 'new' | 'repeat', input: string) => (
    <>
      <label>
        {t(PASSWORD_LABELS[label])}
        <input
          className="xoss-select"
          id={`account-${name}`}
          name={input}
          type="password"
          autoComplete={name === 'current' ? 'current-password' : 'new-password'}
          {...problemOf(`account-${name}-problem`, wrong[name])}
        />
      </label>
      <FieldProblem id={`account-${name}-problem`} text={wrong[name]} />
    </>
  );
  return (
    <section className="portal__card" aria-labelledby="account-password">
      <h2 id="account-password">
        <Message id="settings.account.password.title" />
      </h2>
      <form
        className="portal__form"
        noValidate
        onSubmit={(event: FormEvent<HTMLFormElement>) => {
          event.preventDefault();
          void submit(event.currentTarget);
        }}
      >
        {field('current', 'current', 'current_password')}
        {field('new', 'new', 'new_password')}
        {field('repeat', 'repeat', 'repeat_password')}
        <Alert>{problem}</Alert>
        {changed ? (
          <p role="status" className="portal__saved">
            {t('settings.account.password.changed')}
          </p>
        ) : null}
        <SubmitButton busy={changing.isLoading}>
          <Message id="settings.account.password.submit" />
        </SubmitButton>
      </form>
    </section>
  );
}

/** The names the API gives a session's browser or app in English, each in the rider's words. */
const SESSION_WORDS = {
  Browser: 'settings.account.sessions.browser',
  'Android app': 'settings.account.sessions.androidApp',
  'iOS app': 'settings.account.sessions.iosApp',
  'Command line': 'settings.account.sessions.commandLine',
  'Unknown browser': 'settings.account.sessions.unknownBrowser',
} as const;

/**
 * A session's name in the rider's language: the API names it in English ("Chrome on
 * Android", "Browser on Linux", "Unknown browser"); product and system names stay as they
 * are, the words around them are translated. A name of another shape is shown as sent.
 */
export function useSessionName() {
  const t = useT();
  const word = (name: string) =>
    name in SESSION_WORDS ? t(SESSION_WORDS[name as keyof typeof SESSION_WORDS]) : name;
  return (name: string) => {
    const parts = / on (?!.* on )/.exec(name);
    if (!parts) return word(name);
    return t('settings.account.sessions.device', {
      browser: word(name.slice(0, parts.index)),
      system: name.slice(parts.index + parts[0].length),
    });
  };
}

function Sessions() {
  const t = useT();
  const sessionName = useSessionName();
  const locale = useLocale();
  const failureText = useFailureText();
  const sessions = api.useListSessionsQuery();
  const [signOut, signingOut] = api.useSignOutSessionMutation();
  const [signOutOthers, signingOutOthers] = api.useSignOutOtherSessionsMutation();
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const outcome = (result: { data: { signed_out: number } } | { error: unknown }) => {
    if ('error' in result) {
      setDone(null);
      setProblem(failureText(result.error));
    } else {
      setProblem(null);
      setDone(t('settings.account.sessions.signedOut', { count: result.data.signed_out }));
    }
  };
  return (
    <section className="portal__card" aria-labelledby="account-sessions">
      <h2 id="account-sessions">
        <Message id="settings.account.sessions.title" />
      </h2>
      <Loaded query={sessions}>
        {(list) => (
          <>
            <ul className="portal__list portal__sessions">
              {list.map((session) => (
                <li key={session.id} aria-label={sessionName(session.browser)}>
                  <div>
                    <strong>{sessionName(session.browser)}</strong>
                    {session.current ? (
                      <span className="portal__this-browser">
                        {' '}
                        <Message id="settings.account.sessions.current" />
                      </span>
                    ) : null}
                    <dl>
                      <dt>
                        <Message id="settings.account.sessions.signedIn" />
                      </dt>
                      <dd>{formatDate(session.created_at, locale)}</dd>
                      <dt>
                        <Message id="settings.account.sessions.lastUsed" />
                      </dt>
                      <dd>{formatDate(session.last_used_at, locale)}</dd>
                      <dt>
                        <Message id="settings.account.sessions.address" />
                      </dt>
                      <dd>{session.ip ?? t('settings.account.sessions.unknownAddress')}</dd>
                    </dl>
                  </div>
                  {session.current ? null : (
                    <button
                      type="button"
                      className="xoss-button"
                      disabled={signingOut.isLoading}
                      onClick={() => void signOut({ params: { id: session.id } }).then(outcome)}
                    >
                      <Message id="settings.account.sessions.signOut" />
                    </button>
                  )}
                </li>
              ))}
            </ul>
            {list.some((session) => !session.current) ? (
              <div className="portal__actions">
                <button
                  type="button"
                  className="xoss-button"
                  disabled={signingOutOthers.isLoading}
                  onClick={() => void signOutOthers().then(outcome)}
                >
                  <Message id="settings.account.sessions.signOutOthers" />
                </button>
              </div>
            ) : (
              <p className="portal__note">
                <Message id="settings.account.sessions.onlyThis" />
              </p>
            )}
          </>
        )}
      </Loaded>
      <Alert>{problem}</Alert>
      {done ? (
        <p role="status" className="portal__saved">
          {done}
        </p>
      ) : null}
    </section>
  );
}

function ExportData() {
  const failureText = useFailureText();
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setProblem(null);
    setBusy(true);
    // With the access token (and its refresh), as a ride's original file: a plain link
    // would carry no token.
    const reply = await client.transport.call('exportAthlete', {
      params: { id: Number(client.session.userId() ?? 0) },
    });
    setBusy(false);
    if (!reply.ok) {
      setProblem(failureText(reply.error));
      return;
    }
    saveFile(reply.value, `xoss-export-${new Date().toISOString().slice(0, 10)}.zip`);
  };
  return (
    <section className="portal__card" aria-labelledby="account-export">
      <h2 id="account-export">
        <Message id="settings.account.export.title" />
      </h2>
      <p className="portal__note">
        <Message id="settings.account.export.intro" />
      </p>
      <button
        type="button"
        className="xoss-button"
        disabled={busy}
        aria-busy={busy || undefined}
        onClick={() => void download()}
      >
        <Message id="settings.account.export.download" />
      </button>
      <Alert>{problem}</Alert>
    </section>
  );
}

function DeleteAccount() {
  const t = useT();
  const failure = useAccountFailure();
  const [remove, removing] = api.useDeleteAthleteMutation();
  const [password, setPassword] = useState('');
  const [wrong, setWrong] = useState<string | undefined>();
  const [problem, setProblem] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ask = () => {
    setProblem(null);
    if (password.trim() === '') {
      setWrong(t('settings.account.delete.passwordMissing'));
      document.getElementById('account-delete-password')?.focus();
      return;
    }
    setWrong(undefined);
    setConfirming(true);
  };
  const deleteAccount = async () => {
    const id = Number(client.session.userId() ?? 0);
    const result = await remove({ params: { id }, body: { password } });
    if ('error' in result) {
      const { wrongPassword, text } = failure(result.error);
      if (wrongPassword) {
        // The dialog said what happens if the password is right; it was not: say so.
        setWrong(t('settings.account.delete.wrongPassword'));
        document.getElementById('account-delete-password')?.focus();
      } else setProblem(text ?? null);
      return;
    }
    // The server has ended every session: this browser forgets its tokens and leaves for the
    // site's login, which says the account is gone.
    client.session.clear();
    leave.to(AFTER_DELETION);
  };
  return (
    <section className="portal__card" aria-labelledby="account-delete">
      <h2 id="account-delete">
        <Message id="settings.account.delete.title" />
      </h2>
      <p className="portal__note">
        <Message id="settings.account.delete.intro" />
      </p>
      <form
        className="portal__form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          ask();
        }}
      >
        <label>
          <Message id="settings.account.delete.password" />
          <input
            className="xoss-select"
            id="account-delete-password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            {...problemOf('account-delete-password-problem', wrong)}
          />
        </label>
        <FieldProblem id="account-delete-password-problem" text={wrong} />
        <Alert>{problem}</Alert>
        <div>
          <button
            type="submit"
            className="xoss-button"
            data-variant="danger"
            disabled={removing.isLoading}
            aria-busy={removing.isLoading || undefined}
          >
            <Message id="settings.account.delete.submit" />
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={confirming}
        tone="danger"
        title={t('settings.account.delete.title')}
        message={t('settings.account.delete.confirm')}
        confirmLabel={t('settings.account.delete.submit')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void deleteAccount();
        }}
      />
    </section>
  );
}
