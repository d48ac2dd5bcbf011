// Integrations in Manage (issue 11): service accounts with their API key (shown once after it is issued, with a
// copy button), web hooks, and one hook's delivery history with filters and redelivery. Lists and forms are the
// catalogue's; the key and history commands run through the command machine (one at a time, result kept).
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useCommand } from '../../hooks/useCommand';
import { PRIV, TOAST_MS, WEB_HOOK_EVENTS, hasPrivilege, type WebHookAttemptPage } from '../../../contract';
import { selectCommandError, selectCommandResult, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useRouteInfo } from '../../app/RouteContext';
import { routeTitle, say, tx } from '../../i18n';
import { useSystemActor } from '../../hooks/useSystemActor';
import { ResourceForm } from '../../resources';
import { serviceAccounts, webHooks, type ServiceAccount, type WebHook } from '../../resources/integrations';
import { notify } from '../../hooks/console';
import { ListScreen } from '../../ui/ListScreen';
import { PageHeader } from '../../ui/PageHeader';
import { useTime } from '../../ui/time';

type KeyAnswer = { id: number; name: string; apiKey?: string };

const keySaid = (command: string, result: unknown) => {
  const r = result as KeyAnswer;
  return command.startsWith('revoke')
    ? { title: 'Key revoked', message: `${r.name}'s API key no longer works.` }
    : { title: 'New API key issued', message: `${r.name}'s previous key no longer works. Copy the new one now.` };
};

export function ServiceAccountsScreen() {
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const mayEdit = hasPrivilege(held, [PRIV.serviceAccounts.edit]);
  const keys = useCommand('apiKeyCommands', keySaid);
  const running = useSelector(keys, selectRunningCommand);
  const result = useSelector(keys, selectCommandResult) as KeyAnswer | null;
  const [seen, setSeen] = useState<string | null>(null); // visual: the dialog of a key already closed
  const shown = result?.apiKey && result.apiKey !== seen ? result : null;
  return (
    <>
      <ListScreen<ServiceAccount>
        testId="service-accounts"
        resource={serviceAccounts}
        refreshAfter={keys}
        rowTag={(a) =>
          !a.active ? (
            <Tag minimal round>
              {tx('Disabled')}
            </Tag>
          ) : a.keyRevokedAt || !a.keyPrefix ? (
            <Tag minimal round intent="warning">
              {tx('No working key')}
            </Tag>
          ) : null
        }
        rowActions={
          mayEdit
            ? (a) => (
                <>
                  <Button
                    size="small"
                    variant="outlined"
                    icon="key"
                    loading={running === `rotate:${a.id}`}
                    disabled={!!running}
                    onClick={() => keys.send({ type: 'command.run', command: `rotate:${a.id}` })}
                  >
                    {a.keyPrefix && !a.keyRevokedAt ? tx('New key') : tx('Issue key')}
                  </Button>
                  <Button
                    size="small"
                    variant="minimal"
                    intent="danger"
                    icon="disable"
                    disabled={!!running || !a.keyPrefix || !!a.keyRevokedAt}
                    loading={running === `revoke:${a.id}`}
                    onClick={() => keys.send({ type: 'command.run', command: `revoke:${a.id}` })}
                  >
                    {tx('Revoke')}
                  </Button>
                </>
              )
            : undefined
        }
      />
      <Dialog isOpen={!!shown} title={tx('API key of {name}', { name: shown?.name ?? '' })} icon="key" onClose={() => setSeen(shown?.apiKey ?? null)}>
        <DialogBody>
          <Callout intent="warning" icon="warning-sign" title={tx('Shown only now')}>
            {tx("Copy this key into the integration's secret store. It will not be shown again; if it is lost, issue a new one.")}
          </Callout>
          <InputGroup
            readOnly
            value={shown?.apiKey ?? ''}
            data-testid="api-key"
            className={Classes.MONOSPACE_TEXT}
            style={{ marginTop: 12 }}
            rightElement={
              <Button
                icon="duplicate"
                variant="minimal"
                aria-label={tx('Copy key')}
                onClick={() => {
                  void navigator.clipboard?.writeText(shown?.apiKey ?? '');
                  notify({ intent: 'success', title: tx('Copied'), message: tx('The key is on the clipboard.'), timeoutMs: TOAST_MS });
                }}
              />
            }
          />
        </DialogBody>
        <DialogFooter
          actions={
            <Button intent="primary" onClick={() => setSeen(shown?.apiKey ?? null)}>
              {tx('I have copied it')}
            </Button>
          }
        />
      </Dialog>
    </>
  );
}

export function ServiceAccountFormScreen() {
  const { route } = useRouteInfo();
  return (
    <div className="gh-page-wrap">
      <PageHeader title={routeTitle(route)} icon="key" description={tx('Saving a new account shows its API key once.')} />
      <ResourceForm resource={serviceAccounts} />
    </div>
  );
}

export function WebHooksScreen() {
  // the History link on each row is declared with the resource (screens.rowLinks), shown to whoever may open it
  return (
    <ListScreen<WebHook>
      testId="web-hooks"
      resource={webHooks}
      rowTag={(h) =>
        !h.active ? (
          <Tag minimal round>
            {tx('Disabled')}
          </Tag>
        ) : null
      }
    />
  );
}

export function WebHookFormScreen() {
  const { route } = useRouteInfo();
  return (
    <div className="gh-page-wrap">
      <PageHeader title={routeTitle(route)} icon="globe-network" />
      <ResourceForm resource={webHooks} />
    </div>
  );
}

const noToast = () => null;
/** `<hookId>|<attemptId>`: the toast names the delivery. */
const redeliverySaid = (c: string) => ({
  title: tx('Delivery queued again'),
  message: tx('Delivery {n} is sent again within a few seconds.', { n: c.split('|')[1] }),
});

interface HistoryFilter {
  page: number;
  outcome: '' | 'ok' | 'failed';
  eventType: string;
}

export function WebHookHistoryScreen() {
  const { params } = useRouteInfo();
  const id = Number(params.id);
  const time = useTime();
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const mayRedeliver = hasPrivilege(held, [PRIV.webHooks.edit]);
  const loader = useCommand('webHookAttemptsReads', noToast);
  const page = useSelector(loader, selectCommandResult) as WebHookAttemptPage | null;
  const loadError = useSelector(loader, selectCommandError);
  const [filter, setFilter] = useState<HistoryFilter>({ page: 0, outcome: '', eventType: '' }); // visual: the inputs' values
  const reload = (f = filter) => loader.send({ type: 'command.run', command: JSON.stringify({ hookId: id, ...f }) });
  useEffect(() => {
    reload(filter);
  }, [filter]); // eslint-disable-line react-hooks/exhaustive-deps
  const sender = useCommand('webHookRedeliveries', redeliverySaid);
  const sending = useSelector(sender, selectRunningCommand);
  const sent = useSelector(sender, selectCommandResult);
  useEffect(() => {
    if (sent) {
      const t = setTimeout(() => reload(), 1500);
      return () => clearTimeout(t);
    }
  }, [sent]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className="gh-page" data-testid="web-hook-history">
      <PageHeader
        title={tx('Web hook history')}
        icon="history"
        description={tx("Every delivery attempt of this web hook: when, answer, time taken and the start of the receiver's reply.")}
      />
      <div className="gh-list__toolbar" style={{ display: 'flex', gap: 8, flexWrap: 'wrap', marginBottom: 12 }}>
        <HTMLSelect
          aria-label={tx('Outcome')}
          value={filter.outcome}
          onChange={(e) => setFilter({ ...filter, page: 0, outcome: e.target.value as HistoryFilter['outcome'] })}
          options={[
            { value: '', label: tx('All outcomes') },
            { value: 'ok', label: tx('Delivered') },
            { value: 'failed', label: tx('Failed') },
          ]}
        />
        <HTMLSelect
          aria-label={tx('Event type')}
          value={filter.eventType}
          onChange={(e) => setFilter({ ...filter, page: 0, eventType: e.target.value })}
          options={[{ value: '', label: tx('All events') }, ...WEB_HOOK_EVENTS.map((e) => ({ value: e.type, label: tx(e.label) }))]}
        />
        <Button icon="refresh" variant="minimal" onClick={() => reload()}>
          {tx('Refresh')}
        </Button>
        <Link to="/manage/web-hooks">
          <Button icon="arrow-left" variant="minimal">
            {tx('Web hooks')}
          </Button>
        </Link>
      </div>
      {loadError ? (
        <Callout intent="danger" title={tx('The history could not be loaded')}>
          {say(loadError)}
        </Callout>
      ) : null}
      {page && page.items.length === 0 ? (
        <NonIdealState icon="history" title={tx('No deliveries yet')} description={tx('Attempts appear here as soon as a subscribed event happens.')} />
      ) : null}
      {page && page.items.length > 0 ? (
        <div style={{ overflowX: 'auto' }}>
          <HTMLTable compact striped style={{ width: '100%' }} data-testid="attempts">
            <thead>
              <tr>
                <th>{tx('Time ({zone})', { zone: time.zoneName(Date.now()) })}</th>
                <th>{tx('Event')}</th>
                <th>{tx('Delivery')}</th>
                <th>{tx('Attempt')}</th>
                <th>{tx('Answer')}</th>
                <th>{tx('Took')}</th>
                <th>{tx('Reply')}</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {page.items.map((a) => (
                <tr key={a.id} data-testid="attempt">
                  <td>{time.dateTime(a.at)}</td>
                  <td>{tx(WEB_HOOK_EVENTS.find((e) => e.type === a.eventType)?.label ?? a.eventType)}</td>
                  <td>
                    #{a.deliveryId}{' '}
                    <Tag minimal round intent={a.deliveryState === 'delivered' ? 'success' : a.deliveryState === 'failed' ? 'danger' : 'warning'}>
                      {tx(a.deliveryState)}
                    </Tag>
                  </td>
                  <td>{a.attempt}</td>
                  <td>
                    <Tag minimal intent={a.ok ? 'success' : 'danger'}>
                      {a.status ?? tx('no answer')}
                    </Tag>
                    {a.error ? <div className={Classes.TEXT_MUTED}>{a.error}</div> : null}
                  </td>
                  <td>{a.latencyMs} ms</td>
                  <td className={Classes.TEXT_OVERFLOW_ELLIPSIS} style={{ maxWidth: 240 }} title={a.response ?? ''}>
                    {a.response ?? ''}
                  </td>
                  <td>
                    {mayRedeliver ? (
                      <Button
                        size="small"
                        variant="outlined"
                        icon="send-message"
                        loading={sending === `${id}|${a.deliveryId}`}
                        disabled={!!sending}
                        onClick={() => sender.send({ type: 'command.run', command: `${id}|${a.deliveryId}` })}
                      >
                        {tx('Redeliver')}
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
          <div style={{ display: 'flex', gap: 8, alignItems: 'center', marginTop: 8 }}>
            <Button size="small" disabled={filter.page === 0} onClick={() => setFilter({ ...filter, page: filter.page - 1 })}>
              {tx('Previous')}
            </Button>
            <span>
              {tx('{n} attempts · page {page} of {pages}', { n: page.total, page: filter.page + 1, pages: Math.max(1, Math.ceil(page.total / page.size)) })}
            </span>
            <Button size="small" disabled={(filter.page + 1) * page.size >= page.total} onClick={() => setFilter({ ...filter, page: filter.page + 1 })}>
              {tx('Next')}
            </Button>
          </div>
        </div>
      ) : null}
    </div>
  );
}
