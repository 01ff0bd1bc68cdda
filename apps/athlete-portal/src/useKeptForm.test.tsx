import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { STORAGE_PREFIX } from '@xoss/api-client';
import { loadMessages } from '@xoss/i18n';
import { XossIntlProvider } from '@xoss/i18n/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { client } from './client.ts';
import { KEPT_FORMS_KEY, keepUnsavedForms } from './keptForms.ts';
import { useKeptForm } from './useKeptForm.tsx';

let german: Awaited<ReturnType<typeof loadMessages>>;
beforeAll(async () => {
  german = await loadMessages('de');
});
const rider = (id: string) =>
  client.session.setUser({ name: 'Ada', avatar_url: null, uuid: 'u', id });
beforeEach(() => rider('7'));
afterEach(() => {
  cleanup();
  client.session.clear();
  sessionStorage.clear();
});

const PATH = '/dashboard/settings';

/** A form as a page has it: loaded values as defaults, kept across the end of a session. */
function Form() {
  const { offer, attach, key, value, checked } = useKeptForm('settings');
  return (
    <>
      {offer}
      <form ref={attach} key={key} aria-label="settings">
        <input aria-label="FTP" name="ftp" defaultValue={value('ftp', '250')} />
        <input
          aria-label="Share power"
          type="checkbox"
          name="share_power"
          defaultChecked={checked('share_power', false)}
        />
        <input aria-label="Password" type="password" name="secret" defaultValue="" />
      </form>
    </>
  );
}

const show = () =>
  render(
    <XossIntlProvider language="de" messages={german}>
      <RouterProvider
        router={createMemoryRouter([{ path: PATH, element: <Form /> }], {
          initialEntries: [PATH],
        })}
      />
    </XossIntlProvider>,
  );

/** The rider edits the form, then the session ends and the page goes to /login. */
function editThenSessionEnds() {
  show();
  fireEvent.change(screen.getByLabelText('FTP'), { target: { value: '275' } });
  fireEvent.click(screen.getByLabelText('Share power'));
  fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'hunter2' } });
  keepUnsavedForms(PATH);
  cleanup();
}

const offerText = 'Nicht gespeicherte Änderungen wiederherstellen?';

describe('useKeptForm: an unsaved form survives the end of the session', () => {
  it("keeps the edit in this tab's storage and offers it back in the rider's language", () => {
    editThenSessionEnds();
    const stored = sessionStorage.getItem(`${STORAGE_PREFIX}${KEPT_FORMS_KEY}`);
    expect(stored).toContain('275');
    // Passwords are never kept.
    expect(stored).not.toContain('hunter2');

    show();
    expect(screen.getByRole('alert').textContent).toContain(offerText);
    expect(screen.getByLabelText<HTMLInputElement>('FTP').value).toBe('250');
    fireEvent.click(screen.getByRole('button', { name: 'Wiederherstellen' }));
    expect(screen.getByLabelText<HTMLInputElement>('FTP').value).toBe('275');
    expect(screen.getByLabelText<HTMLInputElement>('Share power').checked).toBe(true);
    expect(screen.queryByText(offerText)).toBeNull();
    // Offered once: gone from storage.
    expect(sessionStorage.getItem(`${STORAGE_PREFIX}${KEPT_FORMS_KEY}`)).toBeNull();
  });

  it('forgets the edit on Discard and keeps the loaded values', () => {
    editThenSessionEnds();
    show();
    fireEvent.click(screen.getByRole('button', { name: 'Verwerfen' }));
    expect(screen.queryByText(offerText)).toBeNull();
    expect(screen.getByLabelText<HTMLInputElement>('FTP').value).toBe('250');
    expect(sessionStorage.getItem(`${STORAGE_PREFIX}${KEPT_FORMS_KEY}`)).toBeNull();
  });

  it('offers nothing to another rider, and keeps nothing when nothing was edited', () => {
    editThenSessionEnds();
    rider('8');
    show();
    expect(screen.queryByText(offerText)).toBeNull();
    cleanup();

    sessionStorage.clear();
    rider('7');
    show();
    keepUnsavedForms(PATH);
    expect(sessionStorage.getItem(`${STORAGE_PREFIX}${KEPT_FORMS_KEY}`)).toBeNull();
  });
});
