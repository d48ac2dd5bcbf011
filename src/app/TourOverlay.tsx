// The guided tour's card (§1, §4), anchored beside the element the current step points at (`data-tour` marks
// in the layout). It reads the tour actor and sends its events; it never blocks the page: the highlight lets
// clicks through, and the card is a non-modal dialog. "Skip tour" turns the tour off for good.
import { useEffect, useLayoutEffect, useRef, useState, type CSSProperties } from 'react';
import { Button, ButtonGroup, Card, Classes, Elevation, H5, Portal } from '@blueprintjs/core';
import { shallowEqual, useSelector } from '@xstate/react';
import { TOAST_MS } from '../../contract';
import { selectTourIsFirst, selectTourIsLast, selectTourProgress, selectTourStep } from '../../machines/tour.selectors';
import { notify } from '../hooks/console';
import { CARD_W, CARD_H, placeCardClear, type Box } from './tourPlacement';
import { useSystemActor } from '../hooks/useSystemActor';
import { sectionTitle, tx, useLocale, type Locale } from '../i18n';
import { SECTIONS } from './routeTable';
import { tourFactsOf } from './tourFacts';
import type { SessionSnapshot } from '../../machines/session';
import './tour.css';

/** The step in the console's language: the tour machine words it in English from the user's facts. */
function localStep(step: { target: string; title: string; text: string }, loc: Locale, session: SessionSnapshot): { title: string; text: string } {
  if (loc === 'en') return step;
  const facts = tourFactsOf(session);
  let text = tx(step.text);
  if (step.target === '[data-tour="sidebar"]') {
    const names = facts.sections.map((n) => {
      const s = SECTIONS.find((x) => x.title === n);
      return s ? sectionTitle(s, loc) : n;
    });
    text = names.length
      ? tx('Every section you may use is in the sidebar: {sections}.', { sections: names.join('、') })
      : tx('Every screen you may use is in the sidebar.');
  } else if (step.target === '[data-tour="profile"]') {
    text = facts.multiClient
      ? tx('Edit your profile, switch client, sign out, or restart this tour from the profile menu.')
      : tx('Edit your profile, sign out, or restart this tour from the profile menu.');
  }
  return { title: tx(step.title), text };
}

const sameBox = (a: Box | null, b: Box | null) =>
  a === b || (!!a && !!b && a.top === b.top && a.left === b.left && a.width === b.width && a.height === b.height);

/** The on-screen box of the first visible element matching `selector`, followed while the layout moves. */
function useTargetBox(selector: string | null): Box | null {
  const [box, setBox] = useState<Box | null>(null); // visual: where the step's target is on screen (measured)
  useLayoutEffect(() => {
    if (!selector) {
      setBox(null);
      return;
    }
    let frame = 0;
    let last: Box | null = null;
    const measure = () => {
      const el = [...document.querySelectorAll<HTMLElement>(selector)].find((e) => e.getClientRects().length > 0) ?? null;
      const r = el?.getBoundingClientRect();
      const next = r && r.width > 0 && r.height > 0 ? { top: r.top, left: r.left, width: r.width, height: r.height } : null;
      if (!sameBox(last, next)) {
        last = next;
        setBox(next);
      }
      frame = requestAnimationFrame(measure);
    };
    measure();
    return () => cancelAnimationFrame(frame);
  }, [selector]);
  return box;
}

export function TourOverlay() {
  const tour = useSystemActor('tour');
  const step = useSelector(tour, selectTourStep);
  const progress = useSelector(tour, selectTourProgress, shallowEqual);
  const first = useSelector(tour, selectTourIsFirst);
  const last = useSelector(tour, selectTourIsLast);
  const locale = useLocale();
  const session = useSystemActor('session');
  const box = useTargetBox(step?.target ?? null);
  const cardRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState(() => ({ w: window.innerWidth, h: window.innerHeight })); // visual: the window's size (measured)
  const showing = step !== null;

  useEffect(() => {
    const onResize = () => setViewport({ w: window.innerWidth, h: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);

  // skipping is for good: say where the tour can be found again
  useEffect(() => {
    const sub = tour.on('tour.closed', (e) => {
      if (e.how === 'skipped')
        notify({
          intent: 'primary',
          title: tx('Tour skipped'),
          message: tx('It will not show again. Restart it any time from your profile menu.'),
          timeoutMs: TOAST_MS,
        });
    });
    return () => sub.unsubscribe();
  }, [tour]);

  // keyboard: arrows step, Escape stops (only while the tour is up)
  useEffect(() => {
    if (!showing) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      if (e.key === 'Escape') tour.send({ type: 'tour.stop' });
      else if (e.key === 'ArrowRight' && cardRef.current?.contains(document.activeElement)) tour.send({ type: 'tour.next' });
      else if (e.key === 'ArrowLeft' && cardRef.current?.contains(document.activeElement)) tour.send({ type: 'tour.back' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [showing, tour]);

  // the card's real height, once rendered, for placing it above a target
  const [cardH, setCardH] = useState(CARD_H); // visual: the card's height (measured)
  // eslint-disable-next-line react-hooks/exhaustive-deps -- measured after every render on purpose; it settles, as it sets only a changed height
  useLayoutEffect(() => {
    const h = cardRef.current?.offsetHeight;
    if (h && h !== cardH) setCardH(h);
  });

  // the card takes focus when the tour opens, so a keyboard user lands in it
  useEffect(() => {
    if (showing) cardRef.current?.focus({ preventScroll: true });
  }, [showing]);

  if (!step) return null;
  const avoid = [...document.querySelectorAll<HTMLElement>('[data-tour-avoid]')]
    .filter((e) => e.getClientRects().length > 0)
    .map((e) => {
      const r = e.getBoundingClientRect();
      return { top: r.top, left: r.left, width: r.width, height: r.height };
    });
  const at = placeCardClear(box, viewport.w, viewport.h, cardH, avoid);
  const ring: CSSProperties | undefined = box ? { top: box.top - 4, left: box.left - 4, width: box.width + 8, height: box.height + 8 } : undefined;
  const titleId = 'gh-tour-title';
  const shown = localStep(step, locale, session.getSnapshot());
  return (
    <Portal className="gh-tour-portal">
      {ring && <div className="gh-tour__ring" style={ring} aria-hidden data-testid="tour-highlight" />}
      <Card
        ref={cardRef}
        elevation={Elevation.FOUR}
        className="gh-tour"
        style={{ top: at.top, left: at.left, width: CARD_W }}
        role="dialog"
        aria-modal={false}
        aria-labelledby={titleId}
        tabIndex={-1}
        data-testid="tour"
        data-step={progress.index}
        data-target={step.target}
      >
        <div className={`gh-tour__progress ${Classes.TEXT_MUTED}`} data-testid="tour-progress">
          {tx('Step {n} of {count}', { n: progress.index + 1, count: progress.count })}
        </div>
        <H5 id={titleId} data-testid="tour-title">
          {shown.title}
        </H5>
        <p className="gh-tour__text" data-testid="tour-text">
          {shown.text}
        </p>
        <div className="gh-tour__actions">
          <Button
            variant="minimal"
            size="small"
            text={tx('Skip tour')}
            title={tx('Do not show this tour again (restart it from the profile menu)')}
            onClick={() => tour.send({ type: 'tour.skip' })}
            data-testid="tour-skip"
          />
          <Button
            variant="minimal"
            size="small"
            text={tx('Stop')}
            title={tx('Close the tour; it shows again at your next sign-in')}
            onClick={() => tour.send({ type: 'tour.stop' })}
            data-testid="tour-stop"
          />
          <span className="gh-tour__spacer" />
          <ButtonGroup>
            <Button icon="arrow-left" text={tx('Back')} disabled={first} onClick={() => tour.send({ type: 'tour.back' })} data-testid="tour-back" />
            {last ? (
              <Button intent="primary" icon="tick" text={tx('Finish')} onClick={() => tour.send({ type: 'tour.finish' })} data-testid="tour-finish" />
            ) : (
              <Button intent="primary" endIcon="arrow-right" text={tx('Next')} onClick={() => tour.send({ type: 'tour.next' })} data-testid="tour-next" />
            )}
          </ButtonGroup>
        </div>
      </Card>
    </Portal>
  );
}
