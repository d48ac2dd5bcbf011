// Visitor management screens (issue 5): register a visitor (Read card and Take photo fill the form), the
// visitor list, and one visitor's details, where the front desk prints the badge through the companion.
import { say, tx } from '../../i18n';
import { useEffect, useMemo } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Button, Callout, Card, H4, HTMLTable, Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { DESTINATIONS, hasPrivilege, PRIV, TOAST_MS, visitorsResource, type Visitor } from '../../../contract';
import { WatchlistCallout } from './WatchlistCallout';
import { notify } from '../../hooks/console';
import { selectBadgeError, selectBadgeIsPrinting, selectBadgePrintedAt } from '../../../machines/badgePrint';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { selectCanPrintBadge, selectCompanionStatus } from '../../../machines/companion.selectors';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useSystemActor } from '../../hooks/useSystemActor';
import { ResourceForm } from '../../resources';
import { purposeLabel, today, visitorStatusLabel, visitors } from '../../resources/visitors';
import { ListScreen } from '../../ui/ListScreen';
import { PageHeader } from '../../ui/PageHeader';
import { showDate, useTime } from '../../ui/time';
import './visitor.css';

export function VisitorRegisterScreen() {
  return (
    <div className="gh-page-wrap">
      <PageHeader
        title={tx('Register visitor')}
        icon="new-person"
        description={tx("Read the visitor's identity card or type their details; after saving, print their badge.")}
      />
      <ResourceForm resource={visitors} />
    </div>
  );
}

export const VisitorListScreen = () => (
  <ListScreen
    testId="visitors"
    title={tx('Visitors')}
    icon="people"
    resource={visitors}
    description={tx('Everyone registered at the front desk, newest visit first.')}
  />
);

const CLOCKINGS = { destinations: [DESTINATIONS.clocking] };

/** /visitor: the front desk's day — today's visits, whoever is expected, on site or gone. */
export function VisitorTodayScreen() {
  const day = useMemo(() => today(), []);
  // a visitor signed in or out at any front desk of the client (`/clocking`): the list reads the server again
  return (
    <ListScreen
      notices={CLOCKINGS}
      testId="visitors-today"
      title={tx("Today's visits")}
      icon="id-number"
      resource={visitors}
      filters={{ visitDate: day }}
      description={tx('Visitors registered for {day}. Register walk-ins with “Register visitor”; every visit is in Visitors.', { day: showDate(day) })}
    />
  );
}

const SOONEST_FIRST = [
  { field: 'visitDate', dir: 'asc' as const },
  { field: 'lastName', dir: 'asc' as const },
];

/** /visitor/upcoming-visits [1.0.0]: everyone registered for a day after today (in the user's zone), soonest first —
 *  the front desk prepares badges and tells security who is coming. Approved visit requests land here too. */
export function VisitorUpcomingScreen() {
  const from = useMemo(() => new Date(Date.parse(`${today()}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), []);
  return (
    <ListScreen
      testId="visitors-upcoming"
      resource={visitors}
      filters={{ visitDateFrom: from }}
      sort={SOONEST_FIRST}
      description={tx('Visitors registered for {day} or later, soonest first. Today’s visits are on Visitor management.', { day: showDate(from) })}
    />
  );
}

/** A details page names the zone beside each time (issue 10). */
function useTimeFormat() {
  const { dateTime } = useTime();
  return (iso: string | null) => dateTime(iso, true);
}

export function VisitorDetailsScreen() {
  const { params, route } = useRouteInfo();
  // /visitor/sign-in/:id/:bucketStartDate and /visitor/sign-out/…: the same page with that action offered first
  const intent = route.path.startsWith('/visitor/sign-in') ? 'sign-in' : route.path.startsWith('/visitor/sign-out') ? 'sign-out' : null;
  const id = Number(params.id);
  const valid = Number.isInteger(id) && id > 0;
  const task = useReading<Visitor | { notFound: true }>('visitorReading', { input: valid ? id : null, key: id });
  if (!valid)
    return (
      <div className="gh-page" data-testid="visitor-not-found">
        <NonIdealState icon="search" title={tx('Visitor not found')} />
      </div>
    );
  if (task.output && 'notFound' in task.output) {
    // a visitor of another client, or one that was removed: an expected answer, shown as such (issue 10)
    return (
      <div className="gh-page" data-testid="visitor-not-found">
        <NonIdealState
          icon="search"
          title={tx('Visitor not found')}
          description={tx('There is no such visitor in this client. It may belong to another client or have been removed.')}
          action={<Link to="/visitor/list">{tx('All visitors')}</Link>}
        />
      </div>
    );
  }
  if (task.failed) {
    return (
      <div className="gh-page">
        <NonIdealState
          icon="error"
          title={tx('Could not load this visitor')}
          description={task.error ? say(task.error) : undefined}
          action={<Button icon="refresh" text={tx('Try again')} onClick={task.reload} />}
        />
      </div>
    );
  }
  if (!task.output)
    return (
      <div className="gh-page">
        <NonIdealState icon={<Spinner />} title={tx('Loading…')} />
      </div>
    );
  return <VisitorDetails loaded={task.output} key={task.output.id} intent={intent} />;
}

const MOVES = {
  'sign-in': { from: 'expected', label: 'Sign in', icon: 'log-in', privilege: PRIV.visitors.signIn },
  'sign-out': { from: 'on-site', label: 'Sign out', icon: 'log-out', privilege: PRIV.visitors.signOut },
} as const;

function VisitorDetails({ loaded, intent }: { loaded: Visitor; intent: 'sign-in' | 'sign-out' | null }) {
  const navigate = useNavigate();
  const time = useTimeFormat();
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const companion = useSystemActor('companion');
  const canPrint = useSelector(companion, selectCanPrintBadge);
  const companionStatus = useSelector(companion, selectCompanionStatus);
  // sign in / sign out (`<id>|sign-in`): one command at a time; the visitor shown is the server's latest answer
  const mover = useViewActor('visitorMoves');
  // issue 10: a sign-in or sign-out says what happened, beside the status tag that changes
  useEffect(() => {
    let before = mover.getSnapshot();
    const sub = mover.subscribe((s) => {
      if (s.matches('done') && !before.matches('done')) {
        const v = s.context.result as Visitor | null;
        const who = v ? `${v.firstName} ${v.lastName}` : 'The visitor';
        const decided = s.context.command?.split('|')[1];
        if (decided === 'watchlist-admit' || decided === 'watchlist-refuse') {
          // issue 50: the front desk's watchlist decision, in the declaration's words
          const done = visitorsResource.screens?.recordActions?.find((a) => a.action === decided)?.done ?? '';
          notify({
            intent: decided === 'watchlist-admit' ? 'success' : 'warning',
            title: tx('Watchlist check'),
            message: tx(done, { name: who }),
            timeoutMs: TOAST_MS,
          });
          before = s;
          return;
        }
        const out = s.context.command?.endsWith('|sign-out');
        notify({
          intent: 'success',
          title: out ? 'Visitor signed out' : 'Visitor signed in',
          message: `${who} is ${out ? 'signed out' : 'on site'}.`,
          timeoutMs: TOAST_MS,
        });
      }
      before = s;
    });
    return () => sub.unsubscribe();
  }, [mover]);
  const moving = useSelector(mover, selectRunningCommand);
  const moveError = useSelector(mover, selectCommandError);
  const visitor = (useSelector(mover, selectCommandResult) as Visitor | null) ?? loaded;
  const name = `${visitor.firstName} ${visitor.lastName}`;
  const badge = useViewActor('badgePrintLogic', {
    input: {
      visitorId: visitor.id,
      visitor: { name, company: visitor.company, host: visitor.hostName, validUntil: visitor.validUntil, issuer: visitor.issuer, siteCode: visitor.siteCode },
      printedAt: visitor.badgePrintedAt,
    },
  });
  const printing = useSelector(badge, selectBadgeIsPrinting);
  const error = useSelector(badge, selectBadgeError);
  const printedAt = useSelector(badge, selectBadgePrintedAt);
  const mayPrint = hasPrivilege(held, [PRIV.visitors.add]);
  const rows: [string, string][] = [
    ['Company', visitor.company ?? '—'],
    ['ID number', visitor.idNumber ?? '—'],
    ['Visiting', visitor.hostName],
    ['Purpose', purposeLabel(visitor.purpose)],
    ['Date of visit', showDate(visitor.visitDate)],
    // valid until midnight after the visit day: shown as the last minute of that day
    ['Badge valid until', time(new Date(Date.parse(visitor.validUntil) - 60_000).toISOString())],
    ['Email', visitor.email ?? '—'],
    ['Phone', visitor.phone ?? '—'],
    ['Registered', `${time(visitor.createdAt)}${visitor.createdBy ? ` by ${visitor.createdBy}` : ''}`],
    ['Signed in', time(visitor.signedInAt)],
    ['Signed out', time(visitor.signedOutAt)],
  ];
  // issue 50: no sign-in while a watchlist match waits for the front desk's decision, or after a refusal
  const heldBack = visitor.watchlist === 'open' || visitor.watchlist === 'refused';
  const offered = (Object.keys(MOVES) as (keyof typeof MOVES)[]).filter(
    (m) => visitor.status === MOVES[m].from && hasPrivilege(held, [MOVES[m].privilege]) && !(m === 'sign-in' && heldBack),
  );
  return (
    <div className="gh-page" data-testid="visitor-details">
      <PageHeader
        title={name}
        icon="person"
        description={
          <>
            {tx('Visitor ·')}{' '}
            <Tag minimal round data-testid="visitor-status" intent={visitor.status === 'on-site' ? 'success' : 'none'}>
              {visitorStatusLabel(visitor.status)}
            </Tag>
          </>
        }
        actions={
          <>
            {offered.map((m) => (
              <Button
                key={m}
                intent={m === intent || offered.length === 1 ? 'primary' : 'none'}
                icon={MOVES[m].icon}
                loading={moving === `${loaded.id}|${m}`}
                disabled={moving !== null}
                onClick={() => mover.send({ type: 'command.run', command: `${loaded.id}|${m}` })}
                data-testid={`visitor-${m}`}
              >
                {MOVES[m].label}
              </Button>
            ))}
            {mayPrint && (
              <Button icon="new-person" onClick={() => navigate('/visitor/register')}>
                {tx('Register another')}
              </Button>
            )}
            {hasPrivilege(held, [PRIV.printRecord]) && (
              <a href={`/print-record?id=${visitor.id}`} target="_blank" rel="noopener" className="bp6-button bp6-minimal" data-testid="print-record-link">
                <Icon icon="document" />
                <span className="bp6-button-text">{tx('Print record')}</span>
              </a>
            )}
            <Link to="/visitor/list" className="bp6-button bp6-minimal">
              <Icon icon="people" />
              <span className="bp6-button-text">{tx('All visitors')}</span>
            </Link>
          </>
        }
      />
      {moveError && (
        <Callout intent="danger" icon="error" className="gh-mb" data-testid="visitor-move-error">
          {say(moveError)}
        </Callout>
      )}
      <WatchlistCallout
        visitor={visitor}
        held={held}
        busy={moving !== null}
        onDecide={(action, reason) => mover.send({ type: 'command.run', command: `${loaded.id}|${action}|${reason}` })}
      />
      {intent && !offered.includes(intent) && (
        <Callout intent="warning" icon="info-sign" className="gh-mb" data-testid="visitor-move-unavailable">
          {name} cannot be {intent === 'sign-in' ? 'signed in' : 'signed out'} now: the visit is {visitorStatusLabel(visitor.status).toLowerCase()}.
        </Callout>
      )}
      <div className="gh-visitor">
        <Card compact className="gh-visitor__photo">
          {visitor.photo ? (
            <img src={visitor.photo} alt="Visitor photo" data-testid="visitor-photo" />
          ) : (
            <NonIdealState icon="person" description={tx('No photo')} />
          )}
        </Card>
        <Card compact className="gh-visitor__facts">
          <HTMLTable compact className="gh-facts">
            <tbody>
              {rows.map(([k, v]) => (
                <tr key={k}>
                  <th scope="row">{k}</th>
                  <td>{v}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        </Card>
        <Card compact className="gh-visitor__badge" data-testid="badge-card">
          <H4>
            <Icon icon="id-number" /> {tx('Badge')}
          </H4>
          <p data-testid="badge-status">{printedAt ? `Printed ${time(printedAt)}` : 'Not printed yet.'}</p>
          {error && (
            <Callout intent="danger" icon="error" data-testid="badge-error">
              {say(error)}
            </Callout>
          )}
          {!canPrint && (
            <Callout intent="warning" icon="offline" data-testid="badge-companion">
              {companionStatus === 'connected'
                ? 'The desktop companion on this computer cannot print badges.'
                : 'Badges print through the desktop companion on this computer. Start it and wait for the companion icon in the header to turn green.'}
            </Callout>
          )}
          {mayPrint && (
            <Button
              intent="primary"
              icon="print"
              loading={printing}
              disabled={!canPrint || printing}
              data-testid="print-badge"
              onClick={() => badge.send({ type: 'badge.print' })}
            >
              {printedAt ? 'Print again' : 'Print badge'}
            </Button>
          )}
        </Card>
      </div>
    </div>
  );
}

export { VisitorCredentialBatchScreen } from './VisitorCredentialBatchScreen';
