import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useT } from '@xoss/i18n/react';
import { useLocation } from 'react-router';
import { client } from './client.ts';
import {
  forgetKept,
  keptValues,
  registerForm,
  unsavedOf,
  valuesOf,
  type FormValues,
} from './keptForms.ts';

/**
 * What is kept of one form or editor of this page: registers `unsaved` (read only when the
 * session ends) and offers the kept values back after the next login; Restore hands them to
 * `restore`, Discard forgets them. The offer is asked "Restore your unsaved changes?" in the
 * rider's language, once.
 */
export function useKept(
  id: string,
  unsaved: () => FormValues | undefined,
  restore: (values: FormValues) => void,
): { offer: ReactNode; offered: boolean } {
  const t = useT();
  const { pathname } = useLocation();
  const user = client.session.userId();
  const [offered, setOffered] = useState(() => keptValues(pathname, user, id));
  // The latest callbacks, so the registration does not change with every render.
  const latest = useRef({ unsaved, restore });
  useEffect(() => {
    latest.current = { unsaved, restore };
  });

  useEffect(() => registerForm(id, { unsaved: () => latest.current.unsaved(), user }), [id, user]);

  const close = (values: FormValues | undefined) => {
    forgetKept(id);
    setOffered(undefined);
    if (values) latest.current.restore(values);
  };

  const offer: ReactNode = offered ? (
    <div className="portal__restore" role="alert">
      <span>{t('dialog.unsavedOffer')}</span>
      <button type="button" className="xoss-button" onClick={() => close(offered)}>
        {t('dialog.unsavedRestore')}
      </button>
      <button type="button" className="xoss-button" onClick={() => close(undefined)}>
        {t('dialog.unsavedDiscard')}
      </button>
    </div>
  ) : null;
  return { offer, offered: offered !== undefined };
}

/**
 * Makes a form survive the end of the session: while it is on screen, an edit is kept if the
 * session ends (`keepUnsavedForms`), and when the rider comes back to the page after logging
 * in, `offer` asks "Restore your unsaved changes?" in their language. Restore remounts the
 * form (`key`) with the kept values as its defaults (`value`, `checked`); Discard forgets
 * them. `saved()` after a successful save makes the current values the form's baseline.
 * `onRestore` runs after Restore (a form that is closed until asked opens itself).
 *
 * @example
 * const kept = useKeptForm('settings');
 * <>{kept.offer}<form ref={kept.attach} key={kept.key}>
 *   <input name="ftp" defaultValue={kept.value('ftp', String(ftp))} /></form></>
 */
export function useKeptForm(id: string, options: { onRestore?: () => void } = {}) {
  const [restored, setRestored] = useState<FormValues | undefined>(undefined);
  const [key, setKey] = useState(0);
  // The form element and its values as loaded (first mount, so a restored form still counts
  // as edited); read only when the session ends or after a save, never to render.
  const live = useRef({
    form: null as HTMLFormElement | null,
    baseline: undefined as FormValues | undefined,
  });
  const { offer, offered } = useKept(
    id,
    () => unsavedOf(live.current.form, live.current.baseline),
    (values) => {
      setRestored(values);
      setKey((current) => current + 1);
      options.onRestore?.();
    },
  );

  const attach = useCallback((element: HTMLFormElement | null) => {
    live.current.form = element;
    if (element && live.current.baseline === undefined) live.current.baseline = valuesOf(element);
  }, []);

  return {
    offer,
    /** Whether kept values wait for Restore or Discard. */
    offered,
    /** The values restored, once the rider chose Restore. */
    restored,
    /** The form's `ref`. */
    attach,
    key,
    /** A text field's default: the restored value, else `loaded`. */
    value: (name: string, loaded: string): string => {
      const kept = restored?.[name];
      return typeof kept === 'string' ? kept : loaded;
    },
    /** A checkbox's default: the restored state, else `loaded`. */
    checked: (name: string, loaded: boolean): boolean => {
      const kept = restored?.[name];
      return typeof kept === 'boolean' ? kept : loaded;
    },
    saved: () => {
      const { form } = live.current;
      if (form) live.current.baseline = valuesOf(form);
    },
  };
}
