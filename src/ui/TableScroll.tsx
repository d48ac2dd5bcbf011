// A wide table's own sideways-scrolling box (a phone's 390 px: its last columns stay in reach). While it scrolls, a
// keyboard can reach and scroll it (WCAG 2.1.1, axe's scrollable-region-focusable): it is then a named region in the
// tab order, with a visible focus ring; a table that fits adds no tab stop.
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';

export function TableScroll({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false); // visual: whether the table is wider than its box (measured)
  useLayoutEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setScrolls(box.scrollWidth > box.clientWidth + 1);
    check();
    const seen = new ResizeObserver(check);
    seen.observe(box);
    if (box.firstElementChild) seen.observe(box.firstElementChild);
    return () => seen.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      className="gh-table-scroll"
      data-testid={testId}
      role={scrolls ? 'region' : undefined}
      aria-label={scrolls ? label : undefined}
      tabIndex={scrolls ? 0 : undefined}
    >
      {children}
    </div>
  );
}
