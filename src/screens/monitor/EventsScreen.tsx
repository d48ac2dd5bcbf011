// /monitor/events: the live event stream. The list is the screen's actor (machines/liveEvents.ts: live messages come
// in once per animation frame, the pause, the resync, the cap of MAX_ROWS rows); the view reads it and sends it the
// operator's commands, so thousands of events per second stay smooth.
import { memo, useEffect, useRef, useState, type CSSProperties } from 'react';
import { isDeniedSwipe, WhyButton, WhyDrawer } from '../configure/WhyDrawer';
import { Button, HTMLSelect, HTMLTable, InputGroup, ProgressBar, Switch, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { hasPrivilege, MOBILE_BREAKPOINT_PX, PRIV, TABLE_MAX_HEIGHT_VH, type Event, type Sentence } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectSocketStatus } from '../../../machines/socket.selectors';
import type { EventExportInput } from '../../hooks/answers';
import { saveFile } from '../../ui/saveFile';
import type { ExportFormat } from '../../hooks/answers';
import { selectDownloadError, selectDownloadProgress } from '../../../machines/download';
import { useViewActor } from '../../hooks/useViewActor';
import { useSystemActor } from '../../hooks/useSystemActor';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';
import { say, sayEvent, useLocale, useT, tx } from '../../i18n';
import { burstOver, calmAfterFrame, farAfterFrame, isBurst } from './eventsBurst';
import {
  MAX_ROWS,
  selectAlertsOnly,
  selectCarry,
  selectFilterText,
  selectHeldCount,
  selectHistoryFilters,
  selectPaused,
  selectShownEvents,
} from '../../../machines/liveEvents.selectors';
import './eventRows.css';

/** A row's height on a wide screen (app.css: .gh-events-table tbody tr). */
const EVENT_ROW_PX = 30;

/** A row: rendered once per event (memo), with the words it may show translated once per table, not per row. */
const EventRow = memo(function EventRow({ e, alarmWord, onWhy, far }: { e: Event; alarmWord: string; onWhy: (eventId: number) => void; far: boolean }) {
  const { dateTime } = useTime();
  const message = sayEvent(e, useLocale()); // issue 48: in the operator's language, by its key
  const className = [e.alert ? 'gh-row-alert' : '', far ? 'gh-row-far' : ''].join(' ').trim() || undefined;
  return (
    <tr role="row" data-testid="event-row" className={className}>
      <td role="cell" className="gh-nowrap">
        {dateTime(e.time)}
      </td>
      <td role="cell">{String(e.eventCode)}</td>
      <td role="cell">{e.eventPointName ?? String(e.eventPointId ?? e.eventSourceId)}</td>
      <td role="cell" title={message}>
        {message}
      </td>
      <td role="cell">
        {e.alert ? (
          <Tag intent="danger" minimal>
            {alarmWord}
          </Tag>
        ) : isDeniedSwipe(e.eventCode) && /^\d+$/.test(String(e.id)) ? (
          <WhyButton eventId={Number(e.id)} onWhy={onWhy} />
        ) : null}
      </td>
    </tr>
  );
});

export function EventsScreen() {
  const socket = useSystemActor('socket.events');
  const status = useSelector(socket, selectSocketStatus);
  // the list, its pause and filter live in the screen's actor (machines/liveEvents.ts); shown again after being kept
  // alive hidden, it comes back as it was left and reads what it missed
  const events = useViewActor('liveEvents', { carry: selectCarry });
  const shown = useSelector(events, selectShownEvents);
  const paused = useSelector(events, selectPaused);
  const waiting = useSelector(events, selectHeldCount);
  const filter = useSelector(events, selectFilterText);
  const alertsOnly = useSelector(events, selectAlertsOnly);
  const [why, setWhy] = useState<number | null>(null); // visual: the denied swipe whose "Why?" drawer is open (it outlives its row)
  const { zoneName } = useTime();
  const t = useT();
  // A burst (more new rows in a frame than the table shows) on a wide screen scrolled to the top: the rows below
  // the fold are marked far (app.css: not rendered) until the stream slows or the operator scrolls. The browser
  // would otherwise lay every new row out twice a frame, once to find it off screen (content-visibility: auto).
  // Purely visual: what the list holds is the actor's.
  const scroller = useRef<HTMLDivElement>(null);
  const [far, setFar] = useState<number | null>(null); // visual: the rows below the fold left unrendered
  // A burst ends when the page has painted BURST_CALM_FRAMES frames with no burst in them (eventsBurst.ts), counted
  // by one animation frame callback at a time while a burst is on: never by a timer, which a stalled main thread
  // fired between two frames of the same burst (the e2e flake on a loaded machine).
  const calm = useRef({ frames: 0, raf: 0 }); // visual: the frames painted since the last burst
  useEffect(() => {
    const c = calm.current;
    const tick = () => {
      c.frames = calmAfterFrame(c.frames, false);
      if (burstOver(c.frames)) {
        c.raf = 0;
        setFar(null);
      } else c.raf = requestAnimationFrame(tick);
    };
    const sub = events.on('events.added', ({ count }) => {
      const box = scroller.current;
      const fold = box && box.scrollTop === 0 && window.innerWidth >= MOBILE_BREAKPOINT_PX ? Math.ceil(box.clientHeight / EVENT_ROW_PX) + 2 : null;
      setFar((current) => farAfterFrame(current, count, fold));
      // a burst that ends with no frame after it: every row is rendered again after that many calm frames
      if (isBurst(count, fold)) {
        c.frames = calmAfterFrame(c.frames, true);
        if (!c.raf) c.raf = requestAnimationFrame(tick);
      }
    });
    return () => {
      sub.unsubscribe();
      cancelAnimationFrame(c.raf);
      c.raf = 0;
    };
  }, [events]);

  // jump to history: the event report with what this screen filters (a number is an event code)
  const navigate = useNavigate();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canHistory = hasPrivilege(held, [PRIV.eventReport]);
  const openHistory = () => {
    const q = new URLSearchParams(selectHistoryFilters(events.getSnapshot()));
    navigate(`/report/event${q.size ? `?${q}` : ''}`);
  };

  // export: the stored history with this screen's filter, streamed with progress and saved as a file
  const [exportFormat, setExportFormat] = useState<ExportFormat>('csv'); // visual: the export format chosen
  // the export runs in a download actor, a child of the system; the file it makes is saved here
  const download = useViewActor('eventExportLogic');
  const progress = useSelector(download, selectDownloadProgress);
  const exportFailed = useSelector(download, selectDownloadError);
  const exporting: { done: number; total: number; failed?: string | Sentence } | null =
    progress ?? (exportFailed !== null ? { done: 0, total: 0, failed: exportFailed } : null);
  useEffect(() => {
    const sub = download.on('download.ready', ({ blob, filename }) => saveFile({ blob, filename }));
    return () => sub.unsubscribe();
  }, [download]);
  const startExport = () => {
    const filters = selectHistoryFilters(events.getSnapshot());
    download.send({ type: 'download.start', input: { filters, format: exportFormat } satisfies EventExportInput });
  };
  const exportControls =
    exporting && !exporting.failed ? (
      <span style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }} data-testid="events-export-progress">
        <span style={{ width: 120 }}>
          <ProgressBar value={exporting.total ? exporting.done / exporting.total : undefined} intent="primary" />
        </span>
        {exporting.done.toLocaleString()} / {exporting.total.toLocaleString()}
        <Button size="small" variant="minimal" icon="cross" onClick={() => download.send({ type: 'download.cancel' })} data-testid="events-export-cancel">
          {tx('Cancel')}
        </Button>
      </span>
    ) : (
      <>
        {exporting?.failed && (
          <Tag intent="danger" minimal data-testid="events-export-error">
            {say(exporting.failed)}
          </Tag>
        )}
        <HTMLSelect
          value={exportFormat}
          onChange={(e) => setExportFormat(e.currentTarget.value as ExportFormat)}
          aria-label={tx('Export format')}
          data-testid="events-export-format"
          options={[
            { value: 'csv', label: 'CSV' },
            { value: 'ndjson', label: 'NDJSON' },
          ]}
        />
        <Button icon="export" variant="minimal" onClick={startExport} data-testid="events-export">
          {tx('Export')}
        </Button>
      </>
    );

  const alarmWord = tx('alarm');

  return (
    <div className="gh-page" data-testid="events-screen">
      <PageHeader
        title={tx('Events')}
        icon="pulse"
        description={
          <>
            {tx('The live event stream (newest {n}).', { n: MAX_ROWS })}{' '}
            <Tag minimal data-testid="socket-status">
              {tx(status)}
            </Tag>
          </>
        }
        actions={
          <>
            {exportControls}
            {canHistory && (
              <Button icon="history" variant="minimal" onClick={openHistory} data-testid="events-history">
                {tx('History')}
              </Button>
            )}
            {paused ? (
              <Button icon="play" intent="primary" onClick={() => events.send({ type: 'events.resume' })} data-testid="events-resume">
                {waiting ? tx('Resume ({n} new)', { n: waiting }) : tx('Resume')}
              </Button>
            ) : (
              <Button icon="pause" onClick={() => events.send({ type: 'events.pause' })} data-testid="events-pause">
                {tx('Pause')}
              </Button>
            )}
          </>
        }
      />
      <div className="gh-toolbar">
        <InputGroup
          leftIcon="filter"
          placeholder={tx('Filter by text, point or code')}
          value={filter}
          onChange={(e) => events.send({ type: 'events.filter', text: e.currentTarget.value })}
          data-testid="events-filter"
        />
        <Switch checked={alertsOnly} label={tx('Alarms only')} onChange={(e) => events.send({ type: 'events.alertsOnly', on: e.currentTarget.checked })} />
      </div>
      {/* at most 61% of the window high on a wide screen (SPEC §7), its own scroller: the header stays, and only the rows in it count as seen */}
      <div
        className="gh-events-scroll"
        ref={scroller}
        onScroll={(ev) => {
          if (ev.currentTarget.scrollTop > 0) setFar(null);
        }}
        style={{ '--gh-table-max': `${TABLE_MAX_HEIGHT_VH}vh` } as CSSProperties}
        data-testid="events-scroll"
        tabIndex={0}
        role="region"
        aria-label={tx('Events')}
      >
        {/* column widths set once; on a wide screen each row is its own layout boundary (app.css), so a batch of new rows never makes the browser lay out every row again */}
        <HTMLTable compact className="gh-table-full gh-events-table" data-testid="events-table" role="table" aria-label={tx('Events')}>
          <colgroup>
            <col style={{ width: 190 }} />
            <col style={{ width: 70 }} />
            <col style={{ width: 220 }} />
            <col />
            <col style={{ width: 80 }} />
          </colgroup>
          <thead role="rowgroup">
            <tr role="row">
              <th role="columnheader">{t('timeColumn', { zone: zoneName() })}</th>
              <th role="columnheader">{tx('Code')}</th>
              <th role="columnheader">{tx('Point')}</th>
              <th role="columnheader">{tx('Message')}</th>
              <th role="columnheader" />
            </tr>
          </thead>
          <tbody role="rowgroup">
            {shown.map((e, i) => (
              <EventRow key={String(e.id)} e={e} alarmWord={alarmWord} onWhy={setWhy} far={far !== null && i >= far} />
            ))}
          </tbody>
        </HTMLTable>
      </div>
      {why !== null && <WhyDrawer eventId={why} onClose={() => setWhy(null)} />}
    </div>
  );
}
