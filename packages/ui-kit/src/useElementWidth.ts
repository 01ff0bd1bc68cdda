import { useEffect, useLayoutEffect, useRef, useState } from 'react';

/** An element's content width (without its padding), in whole CSS pixels. */
function contentWidth(element: HTMLElement): number {
  const style = getComputedStyle(element);
  const padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
  return Math.floor(element.clientWidth - padding);
}

/**
 * The width of an element, kept current with a ResizeObserver (`fallback` until measured,
 * never wider than the window: a chart laid out wider than a phone's screen would widen the
 * page, and the phone would zoom out to fit it). Measured once before the first paint too,
 * so a chart is drawn at its real width in the page's first frame instead of at `fallback`
 * and again a frame later.
 */
export function useElementWidth<T extends HTMLElement>(fallback: number) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(() =>
    typeof document === 'undefined'
      ? fallback
      : Math.min(fallback, document.documentElement.clientWidth || fallback),
  );
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measured = contentWidth(element);
    if (measured > 0) setWidth(measured);
  }, []);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.floor(entry?.contentRect.width ?? 0);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}
