import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/**
 * The top and bottom of a CSS margin around the viewport (`rootMargin`: one to four lengths
 * in px or %, a percentage of the viewport's height), in pixels.
 */
function verticalMargins(margin: string, viewportHeight: number): [number, number] {
  const lengths = margin
    .trim()
    .split(/\s+/)
    .map((part) =>
      part.endsWith('%') ? (parseFloat(part) / 100) * viewportHeight : parseFloat(part) || 0,
    );
  const top = lengths[0] ?? 0;
  return [top, lengths[2] ?? top];
}

/**
 * True once the element has come within `margin` of the viewport (and from then on): what
 * a page does not show yet (a map, a lower chart) waits until the rider scrolls near it.
 * `margin` is a CSS margin around the viewport (`'100% 0px'`: one screen ahead). Without
 * IntersectionObserver it is true at once. An element already there when it is first laid
 * out is seen before the first paint, not a frame later.
 */
export function useInView<T extends Element>(margin = '200px') {
  const ref = useRef<T | null>(null);
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined');
  useLayoutEffect(() => {
    const element = ref.current;
    if (seen || !element) return;
    const box = element.getBoundingClientRect();
    const height = window.innerHeight;
    const [above, below] = verticalMargins(margin, height);
    if (box.bottom >= -above && box.top <= height + below && box.width + box.height > 0)
      setSeen(true);
    // Only on mounting (an empty list): later, the observer below tells.
  }, []);
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
