import { useSyncExternalStore } from 'react';

/** Spec 9: the mobile layout applies at window widths of 800 px or less. */
export const MOBILE_QUERY = '(max-width: 800px)';

/** Whether a media query matches, kept current as the window changes; false on the server. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

export type Layout = 'mobile' | 'pc';

/** `mobile` at width <= 800, else `pc`; `override` wins (stories, tests). */
export function useLayout(override?: Layout): Layout {
  const mobile = useMediaQuery(MOBILE_QUERY);
  return override ?? (mobile ? 'mobile' : 'pc');
}
