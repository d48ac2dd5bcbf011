// Monitor → Operator sessions [0.2.4.x] and Service account sessions [0.2.5.x] (issue 4): who is signed in,
// from where, since when; end one session or the selected ones after a confirmation. The list is the generic
// resourceList machine over the sessions endpoint, ending is the sessionEnd machine; this view reads both.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, ButtonGroup, Callout, Checkbox, HTMLTable, Icon, InputGroup, NonIdealState, SegmentedControl, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PRIV, hasPrivilege, shortUserAgent, signInMethodLabel, type SessionKind, type SessionSummary, type SortSpec } from '../../../contract';
import { sameListView, selectListView } from '../../../machines/resourceList.selectors';
import { selectEndError, selectIsEnding, selectPendingIds } from '../../../machines/sessionEnd';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { PageHeader } from '../../ui/PageHeader';
import { useTime, type TimeFormat } from '../../ui/time';
import { useT, say, tx } from '../../i18n';
import './sessions.css';
import { useViewActor } from '../../hooks/useViewActor';
import { useChangeNotices } from '../../hooks/useChangeNotices';

interface Kind {
  title: string;
  icon: string;
  description: string;
  who: string;
  privileges: { view: string; end: string };
  /** What ending does, for one session and for several. */
  afterEnd: [string, string];
}
const KINDS: Record<SessionKind, Kind> = {
  operator: {
    title: 'Operator sessions',
    icon: 'person',
    who: 'operator',
    privileges: PRIV.operatorSessions,
    description: 'Who is signed in to the console in this client, from where and since when.',
    afterEnd: [
      'Its token stops working at once: that console is sent to the sign-in page on its next request.',
      'Their tokens stop working at once: those consoles are sent to the sign-in page on their next request.',
    ],
  },
  service: {
    title: 'Service account sessions',
    icon: 'key',
    who: 'service account',
    privileges: PRIV.serviceSessions,
    description: 'Sessions that integrations hold through service accounts of this client.',
    afterEnd: [
      'Its token stops working at once: the integration must open a new session.',
      'Their tokens stop working at once: the integrations must open new sessions.',
    ],
  },
};

const STATES = [
  { label: 'Open', value: 'open' },
  { label: 'Ended', value: 'ended' },
  { label: 'All', value: 'all' },
];
const DEFAULT_SORT: SortSpec[] = [{ field: 'startedAt', dir: 'desc' }];

/** A session that may be ended here: not the caller's own, not ended already. */
const endable = (r: SessionSummary) => !r.current && r.state !== 'ended';

export const OperatorSessionsScreen = () => <SessionsScreen kind="operator" />;
export const ServiceAccountSessionsScreen = () => <SessionsScreen kind="service" />;

export function SessionsScreen({ kind }: { kind: SessionKind }) {
  const k = KINDS[kind];
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const time = useTime();
  const t = useT();
  const zone = time.zone;
  const canEnd = hasPrivilege(held, [k.privileges.end]);

  const list = useViewActor(`list:${kind}-sessions`, { input: { resource: `${kind}-sessions`, sort: DEFAULT_SORT, filters: { state: 'open' } } });
  const ender = useViewActor(kind === 'operator' ? 'operatorSessionEnd' : 'serviceSessionEnd');
  const view = useSelector(list, selectListView, sameListView);
  const { total, page, size, sort, filters, selection, error, busy } = view;
  const items = view.items as SessionSummary[];
  const pending = useSelector(ender, selectPendingIds);
  const ending = useSelector(ender, selectIsEnding);
  const endError = useSelector(ender, selectEndError);

  // ended sessions leave the open list: clear the marks and read the page again
  useEffect(() => {
    const sub = ender.on('sessions.ended', () => {
      list.send({ type: 'list.selectionChanged', ids: [] });
      list.send({ type: 'list.refresh' });
    });
    return () => sub.unsubscribe();
  }, [ender, list]);

  // a kept-alive screen shown again reads its page again (people signed in or out meanwhile)
  useChangeNotices(null, list, { type: 'list.refresh' });

  // the search box: what is typed is visual until it settles, then it becomes the list's filter
  const [text, setText] = useState(filters.q ?? ''); // visual: the search text as typed (sent to the list actor when typing stops)
  useEffect(() => {
    if ((filters.q ?? '') === text.trim()) return;
    const id = setTimeout(() => list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } }), 300);
    return () => clearTimeout(id);
  }, [text, filters, list]);

  const selected = useMemo(() => new Set(selection), [selection]);
  const markable = items.filter(endable);
  const allMarked = markable.length > 0 && markable.every((r) => selected.has(r.id));
  const setSelection = (ids: number[]) => list.send({ type: 'list.selectionChanged', ids });
  const toggle = (id: number) => setSelection(selected.has(id) ? selection.filter((x) => x !== id) : [...selection, id]);

  const sortOf = (field: string) => sort.find((s) => s.field === field)?.dir;
  const sortBy = (field: string) => list.send({ type: 'list.sorted', sort: [{ field, dir: sortOf(field) === 'desc' ? 'asc' : 'desc' }] });
  const sortHead = (field: string, title: string) => (
    <th key={field} aria-sort={sortOf(field) === 'asc' ? 'ascending' : sortOf(field) === 'desc' ? 'descending' : 'none'}>
      <button type="button" className="gh-sessions__sort" onClick={() => sortBy(field)} title={tx('Sort by {what}', { what: title.toLowerCase() })}>
        {title}
        <Icon icon={sortOf(field) === 'asc' ? 'sort-asc' : sortOf(field) === 'desc' ? 'sort-desc' : 'double-caret-vertical'} size={12} />
      </button>
    </th>
  );

  const now = Date.now();
  const byId = new Map(items.map((r) => [r.id, r]));
  const pendingRows = pending.map((id) => byId.get(id)).filter((r): r is SessionSummary => !!r);
  const lastPage = Math.max(0, Math.ceil(total / size) - 1);
  const state = filters.state ?? 'open';

  return (
    <div className="gh-page" data-testid={`${kind}-sessions`}>
      <PageHeader
        title={tx(k.title)}
        icon={k.icon}
        description={
          <>
            {tx(k.description)} {tx('Times are in your time zone, {zone}.', { zone })}
          </>
        }
      />
      <div className="gh-list">
        <div className="gh-list__toolbar">
          <InputGroup
            className="gh-list__filter"
            leftIcon="search"
            type="search"
            placeholder={tx('Search user, name, address or browser…')}
            aria-label={tx('Filter {what}', { what: tx(k.title).toLowerCase() })}

            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') list.send({ type: 'list.filtered', filters: { ...filters, q: text.trim() } });
            }}
            rightElement={busy ? <Spinner size={16} /> : undefined}
          />
          <SegmentedControl
            aria-label={tx('Session state')}
            options={STATES.map((o) => ({ ...o, label: tx(o.label) }))}
            value={state}
            onValueChange={(v) => list.send({ type: 'list.filtered', filters: { ...filters, state: v } })}
          />
          <div className="gh-list__spacer" />
          <ButtonGroup>
            {canEnd && (
              <Button
                icon="log-out"
                intent="danger"
                variant="outlined"
                disabled={selection.length === 0 || ending}
                onClick={() => ender.send({ type: 'sessions.end', ids: selection })}
                data-testid="end-selected"
              >
                {selection.length ? tx('End selected ({n})', { n: selection.length }) : tx('End selected')}
              </Button>
            )}
            <Button icon="refresh" variant="outlined" aria-label={tx('Refresh')} onClick={() => list.send({ type: 'list.refresh' })} />
          </ButtonGroup>
        </div>

        {error && (
          <Callout intent="danger" icon="error" className="gh-list__error">
            {say(error)}
          </Callout>
        )}
        {endError && (
          <Callout intent="danger" icon="error" className="gh-list__error" data-testid="end-error">
            {say(endError)}
          </Callout>
        )}

        <div className="gh-sessions__scroll">
          <HTMLTable compact interactive className="gh-sessions__table">
            <thead>
              <tr>
                {canEnd && (
                  <th className="gh-sessions__check">
                    <Checkbox
                      checked={allMarked}
                      indeterminate={!allMarked && markable.some((r) => selected.has(r.id))}
                      disabled={markable.length === 0}
                      onChange={() =>
                        setSelection(
                          allMarked ? selection.filter((id) => !markable.some((r) => r.id === id)) : [...new Set([...selection, ...markable.map((r) => r.id)])],
                        )
                      }
                      aria-label={tx('Mark every session on this page')}
                    />
                  </th>
                )}
                {sortHead('username', kind === 'operator' ? tx('User') : tx('Service account'))}
                <th>{tx('Address')}</th>
                <th>{kind === 'operator' ? tx('Browser') : tx('Agent')}</th>
                <th>{tx('Signed in with')}</th>
                {sortHead('startedAt', t('startedColumn', { zone: time.zoneName() }))}
                {sortHead('lastSeenAt', tx('Last seen'))}
                <th>{tx('State')}</th>
                {canEnd && <th aria-label={tx('Actions')} />}
              </tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr
                  key={r.id}
                  data-testid="session-row"
                  data-id={r.id}
                  aria-label={`${r.name} (${r.username})`}
                  className={r.current ? 'gh-sessions__current' : undefined}
                >
                  {canEnd && (
                    <td className="gh-sessions__check">
                      <Checkbox
                        checked={selected.has(r.id)}
                        disabled={!endable(r)}
                        onChange={() => toggle(r.id)}
                        aria-label={`Mark the session of ${r.username}`}
                      />
                    </td>
                  )}
                  <td>
                    <div className="gh-sessions__user">
                      <strong>{r.name}</strong>
                      <span className="bp6-text-muted">{r.username}</span>
                      {r.current && (
                        <Tag intent="primary" minimal round icon="locate">
                          {tx('This session')}
                        </Tag>
                      )}
                    </div>
                  </td>
                  <td className="gh-sessions__mono">{r.ip ?? '—'}</td>
                  <td title={r.userAgent ?? undefined}>{shortUserAgent(r.userAgent)}</td>
                  <td data-testid="sign-in-method">
                    {tx(signInMethodLabel(r.signInMethod))}
                    {r.signInProvider ? ` (${r.signInProvider})` : ''}
                  </td>
                  <td>{time.dateTime(r.startedAt)}</td>
                  <td title={time.dateTime(r.lastSeenAt, true)}>{time.ago(r.lastSeenAt, now)}</td>
                  <td>
                    <StateTag row={r} time={time} />
                  </td>
                  {canEnd && (
                    <td className="gh-sessions__action">
                      {endable(r) && (
                        <Button
                          size="small"
                          variant="outlined"
                          intent="danger"
                          icon="log-out"
                          disabled={ending}
                          onClick={() => ender.send({ type: 'sessions.end', ids: [r.id] })}
                        >
                          {tx('End session')}
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          {!busy && items.length === 0 && !error && (
            <NonIdealState
              className="gh-sessions__empty"
              icon={k.icon as never}
              title={state === 'open' ? `No open ${k.who} sessions` : `No ${k.who} sessions`}
              description={filters.q ? `Nothing matches “${filters.q}”.` : undefined}
            />
          )}
        </div>

        <div className="gh-list__footer">
          <span data-testid="list-range">
            {total === 0 ? 0 : page * size + 1}–{Math.min(total, (page + 1) * size)} of {total}
          </span>
          {selection.length > 0 && (
            <Tag minimal round intent="primary">
              {selection.length} selected
            </Tag>
          )}
          <div className="gh-list__spacer" />
          <ButtonGroup variant="minimal">
            <Button
              icon="chevron-left"
              aria-label={tx('Previous page')}
              disabled={page === 0}
              onClick={() => list.send({ type: 'list.pageChanged', page: page - 1 })}
            />
            <span className="gh-list__page">{tx('Page {page} of {pages}', { page: page + 1, pages: lastPage + 1 })}</span>
            <Button
              icon="chevron-right"
              aria-label={tx('Next page')}
              disabled={page >= lastPage}
              onClick={() => list.send({ type: 'list.pageChanged', page: page + 1 })}
            />
          </ButtonGroup>
        </div>
      </div>

      <Alert
        isOpen={pending.length > 0}
        loading={ending}
        intent="danger"
        icon="log-out"
        confirmButtonText={pending.length === 1 ? 'End session' : `End ${pending.length} sessions`}
        cancelButtonText={tx('Cancel')}
        onConfirm={() => ender.send({ type: 'sessions.confirm' })}
        onCancel={() => ender.send({ type: 'sessions.cancel' })}
      >
        {pendingRows.length === 1 ? (
          <p>
            {tx('End the session of')} <strong>{pendingRows[0].name}</strong> ({pendingRows[0].username}) from {pendingRows[0].ip ?? 'an unknown address'},
            started {time.dateTime(pendingRows[0].startedAt, true)}?
          </p>
        ) : (
          <>
            <p>End {pending.length} sessions?</p>
            <ul className="gh-sessions__pending">
              {pendingRows.map((r) => (
                <li key={r.id}>
                  {r.name} ({r.username}), {r.ip ?? 'unknown address'}
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="bp6-text-muted">{k.afterEnd[pending.length === 1 ? 0 : 1]}</p>
      </Alert>
    </div>
  );
}

function StateTag({ row, time }: { row: SessionSummary; time: TimeFormat }) {
  if (row.state === 'open')
    return (
      <Tag intent="success" minimal round>
        {tx('Open')}
      </Tag>
    );
  if (row.state === 'expired')
    return (
      <Tag minimal round title={tx('Its token timed out without a sign-out')}>
        {tx('Expired')}
      </Tag>
    );
  return (
    <span className="gh-sessions__ended" title={time.dateTime(row.endedAt, true)}>
      <Tag minimal round>
        {tx('Ended')}
      </Tag>{' '}
      <span className="bp6-text-muted">
        {row.endedBy ? `by ${row.endedBy}` : 'by its user'}, {time.dateTime(row.endedAt)}
      </span>
    </span>
  );
}
