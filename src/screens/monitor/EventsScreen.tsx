// /monitor/events: the live event stream. Messages are buffered outside React and flushed once per animation
// frame, and only the newest MAX_ROWS rows are rendered, so thousands of events per second stay smooth.
import { memo, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { isDeniedSwipe, WhyButton, WhyDrawer } from '../configure/WhyDrawer';
import { Button, HTMLSelect, HTMLTable, InputGroup, ProgressBar, Switch, Tag } from '@blueprintjs/core';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { hasPrivilege, MOBILE_BREAKPOINT_PX, PRIV, TABLE_MAX_HEIGHT_VH, type Event } from '../../../contract';
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
import { useT, tx } from '../../i18n';
import { useReading } from '../../hooks/useReading';
import { useEventResync } from './eventResync';
import { BURST_CALM_MS, farAfterFrame, isBurst } from './eventsBurst';
import { MAX_ROWS, mergeEvents } from './eventOrder';

/** A row's height on a wide screen (app.css: .gh-events-table tbody tr). */
const EVENT_ROW_PX = 30;

/** A row: rendered once per event (memo), with the words it may show translated once per table, not per row. */
const EventRow = memo(function EventRow({ e, alarmWord, onWhy, far }: { e: Event; alarmWord: string; onWhy: (eventId: number) => void; far: boolean }) {
  const { dateTime } = useTime();
  const className = [e.alert ? 'gh-row-alert' : '', far ? 'gh-row-far' : ''].join(' ').trim() || undefined;
  return (
    <tr role="row" data-testid="event-row" className={className}>
      <td role="cell" className="gh-nowrap">
        {dateTime(e.time)}
      </td>
      <td role="cell">{String(e.eventCode)}</td>
      <td role="cell">{e.eventPointName ?? String(e.eventPointId ?? e.eventSourceId)}</td>
      <td role="cell" title={e.message}>
        {e.message}
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
  const history = useReading<{ items: Event[] }>('eventHistoryReading');
  const historyDone = !history.busy && !history.failed && history.output !== null;
  const [rows, setRows] = useState<Event[]>([]);
  const [paused, setPaused] = useState(false);
  const [filter, setFilter] = useState('');
  const [alertsOnly, setAlertsOnly] = useState(false);
  const [waiting, setWaiting] = useState(0); // events held back while paused
  const [why, setWhy] = useState<number | null>(null); // the denied swipe whose "Why?" drawer is open (it outlives its row)
  const { zoneName } = useTime();
  const t = useT();
  const buffer = useRef<Event[]>([]);
  const pausedRef = useRef(paused);
  pausedRef.current = paused;
  // A burst (more new rows in a frame than the table shows) on a wide screen scrolled to the top: the rows below
  // the fold are marked far (app.css: not rendered) until the stream slows or the operator scrolls. The browser
  // would otherwise lay every new row out twice a frame, once to find it off screen (content-visibility: auto).
  const scroller = useRef<HTMLDivElement>(null);
  const [far, setFar] = useState<number | null>(null);
  const calm = useRef<number | undefined>(undefined);
  useEffect(() => () => clearTimeout(calm.current), []);

  useEffect(() => {
    if (historyDone && history.output) setRows((r) => mergeEvents(r, history.output!.items));
  }, [historyDone, history.output]);

  useEffect(() => {
    let frame = 0;
    const flush = () => {
      frame = 0;
      if (pausedRef.current) {
        setWaiting(buffer.current.length);
        return;
      }
      const batch = buffer.current;
      buffer.current = [];
      const box = scroller.current;
      const fold = box && box.scrollTop === 0 && window.innerWidth >= MOBILE_BREAKPOINT_PX ? Math.ceil(box.clientHeight / EVENT_ROW_PX) + 2 : null;
      setFar((current) => farAfterFrame(current, batch.length, fold));
      // a burst that ends with no frame after it: every row is rendered again shortly after the last one
      if (isBurst(batch.length, fold)) {
        clearTimeout(calm.current);
        calm.current = window.setTimeout(() => setFar(null), BURST_CALM_MS);
      }
      setRows((r) => mergeEvents(r, batch));
    };
    const sub = socket.on('socket.message', (m) => {
      if (m.destination !== '/events') return;
      buffer.current.push(m.body as Event); // the socket machine emits a body only once it is valid for its destination
      if (buffer.current.length > MAX_ROWS * 2) buffer.current = buffer.current.slice(-MAX_ROWS);
      if (!frame) frame = requestAnimationFrame(flush);
    });
    return () => {
      sub.unsubscribe();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [socket]);

  // after a reconnect or wake: the events stored meanwhile join the list (or wait in the buffer while paused)
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const historyLoaded = useRef(false);
  historyLoaded.current = historyDone;
  // the newest id the screen knows: before the history has loaded there is none (the load covers the gap)
  const newestId = () => (historyLoaded.current ? Math.max(0, ...rowsRef.current.map((e) => Number(e.id))) : null);
  // the history load cut off by a server going away is read again once the console is back (nothing else fills the list)
  const historyNow = useRef(history);
  historyNow.current = history;
  useEventResync(
    socket,
    newestId,
    (missed) => {
      if (pausedRef.current) {
        buffer.current.push(...missed);
        setWaiting(buffer.current.length);
      } else setRows((r) => mergeEvents(r, missed));
    },
    () => {
      if (historyNow.current.failed) historyNow.current.reload();
    },
  );

  const resume = () => {
    setPaused(false);
    const batch = buffer.current;
    buffer.current = [];
    setWaiting(0);
    setRows((r) => mergeEvents(r, batch));
  };

  // jump to history: the event report with what this screen filters (a number is an event code)
  const navigate = useNavigate();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canHistory = hasPrivilege(held, [PRIV.eventReport]);
  const openHistory = () => {
    const q = new URLSearchParams();
    const text = filter.trim();
    if (/^\d+$/.test(text)) q.set('eventCode', text);
    else if (text) q.set('q', text);
    if (alertsOnly) q.set('alert', 'true');
    navigate(`/report/event${q.size ? `?${q}` : ''}`);
  };

  // export: the stored history with this screen's filter, streamed with progress and saved as a file
  const [exportFormat, setExportFormat] = useState<ExportFormat>('csv');
  // the export runs in a download actor, a child of the system; the file it makes is saved here
  const download = useViewActor('eventExportLogic');
  const progress = useSelector(download, selectDownloadProgress);
  const exportFailed = useSelector(download, selectDownloadError);
  const exporting: { done: number; total: number; failed?: string } | null =
    progress ?? (exportFailed !== null ? { done: 0, total: 0, failed: exportFailed } : null);
  useEffect(() => {
    const sub = download.on('download.ready', ({ blob, filename }) => saveFile({ blob, filename }));
    return () => sub.unsubscribe();
  }, [download]);
  const startExport = () => {
    const filters: Record<string, string> = {};
    const text = filter.trim();
    if (/^\d+$/.test(text)) filters.eventCode = text;
    else if (text) filters.q = text;
    if (alertsOnly) filters.alert = 'true';
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
            {exporting.failed}
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
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return rows.filter(
      (e) =>
        (!alertsOnly || e.alert) &&
        (!q || e.message.toLowerCase().includes(q) || String(e.eventCode) === q || (e.eventPointName ?? '').toLowerCase().includes(q)),
    );
  }, [rows, filter, alertsOnly]);

  return (
    <div className="gh-page" data-testid="events-screen">
      <PageHeader
        title={tx('Events')}
        icon="pulse"
        description={
          <>
            The live event stream (newest {MAX_ROWS}).{' '}
            <Tag minimal data-testid="socket-status">
              {status}
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
              <Button icon="play" intent="primary" onClick={resume} data-testid="events-resume">
                Resume{waiting ? ` (${waiting} new)` : ''}
              </Button>
            ) : (
              <Button icon="pause" onClick={() => setPaused(true)} data-testid="events-pause">
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
          onChange={(e) => setFilter(e.currentTarget.value)}
          data-testid="events-filter"
        />
        <Switch checked={alertsOnly} label={tx('Alarms only')} onChange={(e) => setAlertsOnly(e.currentTarget.checked)} />
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
