/**
 * Unsaved forms kept across the end of a session: when the session ends by itself on a page
 * with an edited form, what the rider had typed goes to this tab's session storage (under
 * the product's `xoss_` prefix), and the same page offers it back after the next login
 * (`useKeptForm`). Plain code without React: the client calls `keepUnsavedForms` from the
 * portal's entry chunk.
 */
import { createPrefixedStorage } from '@xoss/api-client';

/** A form's fields by name: a checkbox as checked or not, anything else as its text. */
export type FormValues = Record<string, string | boolean>;

/** What is stored: the page, the rider who typed it, and each edited form by its id. */
interface KeptEntry {
  readonly path: string;
  readonly user: string;
  readonly forms: Record<string, FormValues>;
}

/** The storage key, after the `xoss_` prefix. */
export const KEPT_FORMS_KEY = 'unsaved_forms';
/** Long enough to sign in again; the tab's session storage ends with the tab anyway. */
const KEEP_MS = 24 * 60 * 60 * 1000;

const store = () => createPrefixedStorage(sessionStorage);

/**
 * The forms on screen now (a form element, or an editor's state such as the data pages),
 * each with what the rider changed since it was loaded: `unsaved()` is undefined when
 * nothing was.
 */
interface LiveForm {
  readonly unsaved: () => FormValues | undefined;
  readonly user: string | undefined;
}

const live = new Map<string, LiveForm>();

/** Registers a form on screen; returns its unregistering. */
export function registerForm(id: string, form: LiveForm): () => void {
  live.set(id, form);
  return () => {
    if (live.get(id) === form) live.delete(id);
  };
}

/** A form's values; passwords and files are never kept. */
export function valuesOf(form: HTMLFormElement): FormValues {
  const values: FormValues = {};
  for (const element of Array.from(form.elements)) {
    const field = element as HTMLInputElement;
    if (!field.name || !('value' in field)) continue;
    if (['password', 'file', 'submit', 'button', 'reset'].includes(field.type)) continue;
    if (field.type === 'checkbox') values[field.name] = field.checked;
    else if (field.type === 'radio') {
      if (field.checked) values[field.name] = field.value;
    } else values[field.name] = field.value;
  }
  return values;
}

const same = (a: FormValues, b: FormValues) =>
  Object.keys({ ...a, ...b }).every((name) => a[name] === b[name]);

/** A form element's unsaved values: its values when they differ from `baseline`. */
export function unsavedOf(
  form: HTMLFormElement | null,
  baseline: FormValues | undefined,
): FormValues | undefined {
  if (!form || !baseline) return undefined;
  const now = valuesOf(form);
  return same(now, baseline) ? undefined : now;
}

/**
 * Keeps every registered form whose values differ from how it was loaded (the session has
 * ended: the page is about to go to /login). Nothing is stored when nothing was edited.
 */
export function keepUnsavedForms(path: string): void {
  const forms: Record<string, FormValues> = {};
  let user: string | undefined;
  for (const [id, entry] of live) {
    if (!entry.user) continue;
    const now = entry.unsaved();
    if (!now) continue;
    forms[id] = now;
    user = entry.user;
  }
  if (user === undefined) return;
  store().set(KEPT_FORMS_KEY, { path, user, forms } satisfies KeptEntry, KEEP_MS);
}

/** The values kept for a form of this page and rider, if any. */
export function keptValues(path: string, user: string | undefined, id: string) {
  const entry = store().get<KeptEntry>(KEPT_FORMS_KEY);
  if (!entry || typeof entry !== 'object' || entry.path !== path || entry.user !== user)
    return undefined;
  const values = entry.forms?.[id];
  return values && typeof values === 'object' ? values : undefined;
}

/** Forgets a form's kept values (restored or discarded); the entry goes with its last form. */
export function forgetKept(id: string): void {
  const entry = store().get<KeptEntry>(KEPT_FORMS_KEY);
  if (!entry?.forms) return;
  const { [id]: _gone, ...rest } = entry.forms;
  if (Object.keys(rest).length === 0) store().remove(KEPT_FORMS_KEY);
  else store().set(KEPT_FORMS_KEY, { ...entry, forms: rest }, KEEP_MS);
}
