import { loadMessages } from '@xoss/i18n';
import {
  createElement,
  use,
  useSyncExternalStore,
  type ComponentType,
  type ReactNode,
} from 'react';
import { MoreMessages } from '@xoss/i18n/react';

// The site routes declaratively (React Router's <BrowserRouter>): its data router costs
// 17 kB gzip more on every first load (the home page's script budget: under 100 kB). Navigations
// are React transitions, so the current page stays until the next one's code and data are
// there; this counter of what is loading drives the progress bar meanwhile.

let loading = 0;
const listeners = new Set<() => void>();
// Told after the current task step: work may start while React renders a page.
const emit = () =>
  queueMicrotask(() => {
    for (const listener of listeners) listener();
  });
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

/** A page in its own chunk, with its part of the catalogue. */
export interface LazyPage<P extends object> {
  (props: P): ReactNode;
  /** Loads the page's code and messages, so it renders (or hydrates) without suspending. */
  readonly preload: (language: string) => Promise<unknown>;
}

type Settled<T> = Promise<T> & { status?: 'fulfilled'; value?: T };

/**
 * A page in its own chunk, loaded when first shown, with the progress bar. Its messages
 * (the catalogue's `sitePages` part, @xoss/i18n) load alongside its code, not after it;
 * the first load carries neither. Once loaded, it renders at once (React's `use()` reads
 * the settled promise), so a page preloaded before hydration never suspends there.
 */
export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let loading: Settled<ComponentType<P>> | undefined;
  const start = (): Promise<ComponentType<P>> => {
    if (loading) return loading;
    // A failure stays (the page's error boundary offers a reload): asking again at once
    // would have the suspended render retry forever.
    const started: Settled<ComponentType<P>> = track(load()).then((Component) => {
      started.status = 'fulfilled';
      started.value = Component;
      return Component;
    });
    // Handled here too: the page may not have asked for it yet (its messages first).
    started.catch(() => undefined);
    return (loading = started);
  };
  function Code(props: P) {
    return createElement(use(start()), props);
  }
  function Page(props: P) {
    void start();
    return createElement(MoreMessages, {
      scope: 'sitePages',
      children: createElement(Code, props),
    });
  }
  Page.preload = (language: string) => Promise.all([start(), loadMessages(language, 'sitePages')]);
  return Page;
}
