import { lazy, useSyncExternalStore, type ComponentType } from 'react';

// The site routes declaratively (React Router's <BrowserRouter>): its data router costs
// 17 kB gzip more on every first load (issue 11: home page script under 100 kB). Navigations
// are React transitions, so the current page stays until the next one's code and data are
// there; this counter of what is loading drives the progress bar meanwhile.

let loading = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => void listeners.delete(listener);
};

/** Shows the progress bar while `work` runs (a page's code, a page's data). */
export function track<T>(work: Promise<T>): Promise<T> {
  loading++;
  emit();
  return work.finally(() => {
    loading--;
    emit();
  });
}

/** Whether a navigation is still loading something. */
export const useLoading = () =>
  useSyncExternalStore(
    subscribe,
    () => loading > 0,
    () => false,
  );

/** A page in its own chunk, loaded when first shown, with the progress bar. */
export const lazyPage = <P extends object>(load: () => Promise<ComponentType<P>>) =>
  lazy(() => track(load()).then((Component) => ({ default: Component })));
