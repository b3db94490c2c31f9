import { type ReactNode, useEffect, useRef, useState } from 'react';

/**
 * Renders `children` once its place comes within `margin` of the screen, `placeholder` (of the
 * same height) until then, and stays rendered after. For the dashboards' charts: drawing one
 * (@mantine/charts on recharts) is the longest task of a dashboard's load, 0.5–1 s at a phone's
 * 4× slower CPU (bench/lighthouse-2026-11-29.md), and on a phone the chart sits below the cards,
 * off the first screen: it is drawn as the user scrolls towards it instead of while the cards
 * should already answer a tap. On a wide screen it is in view at once and drawn at once.
 * Without IntersectionObserver (an old browser, the unit tests' DOM) it renders at once.
 */
export function WhenVisible({
  children,
  placeholder,
  margin = '300px',
}: {
  children: ReactNode;
  placeholder: ReactNode;
  /** How far below (or above) the screen it starts rendering: before it scrolls into view. */
  margin?: string;
}) {
  const place = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(() => typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const el = place.current;
    if (shown || !el) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) {
          setShown(true);
          observer.disconnect();
        }
      },
      { rootMargin: margin },
    );
    observer.observe(el);
    return () => observer.disconnect();
  }, [shown, margin]);
  return shown ? children : <div ref={place}>{placeholder}</div>;
}
