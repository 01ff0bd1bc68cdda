import { useEffect, useRef, useState } from 'react';

/**
 * True once the element has come within `margin` of the viewport (and from then on): what
 * a page does not show yet (a map, a lower chart) waits until the rider scrolls near it.
 * `margin` is a CSS margin around the viewport (`'100% 0px'`: one screen ahead). Without
 * IntersectionObserver it is true at once.
 */
export function useInView<T extends Element>(margin = '200px') {
  const ref = useRef<T | null>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setSeen(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [seen, margin]);
  return [ref, seen] as const;
}
