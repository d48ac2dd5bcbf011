// The privilege catalogue in the console (issue 11): /manage/privileges [0.3.5.0] lists every code of the product
// grouped by its parent code, searchable, with the client's roles that hold it (and where, when ticked for one
// division); /manage/roles/assign-privileges/{id} [0.3.6.4] ticks a role's codes — a group at once, each code
// everywhere the role's grant reaches or in one division — and saves the whole set (audited by the server).
// Privileges themselves come with the product: /manage/privileges/add and /edit/{id} say so and lead to the roles.
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, Button, Callout, Card, Checkbox, H5, HTMLSelect, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PLATFORM_PRIVILEGES, PRIV, PRIVILEGES, hasPrivilege, type Division } from '../../../contract';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { selectCommandError, selectRunningCommand, type CommandSnapshot } from '../../../machines/command';
import type { PrivilegeHoldersRow, Tick } from '../../hooks/answers';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { getLocale, routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { privilegeLabel, withoutView } from '../../i18n/privileges';
import { divisionTree, flatten } from '../../resources/divisionTree';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import './privileges.css';

const parentOf = (code: string) => code.split('.').slice(0, -1).join('.') || code;
/** A group's name: its parent code's own "View …" privilege without the verb, else the parent code. */
function groupName(parent: string): string {
  const view = PRIVILEGES.find((p) => p.code === `${parent}.0`) ?? PRIVILEGES.find((p) => p.code === parent);
  if (!view) return parent;
  return withoutView(privilegeLabel(view.code, view.label, getLocale()));
}
/** A code's label in the console's language. */
const labelOf = (p: { code: string; label: string }) => privilegeLabel(p.code, p.label, getLocale());
function grouped<T extends { code: string }>(items: readonly T[]): { parent: string; name: string; items: T[] }[] {
  const out = new Map<string, T[]>();
  for (const i of items) out.set(parentOf(i.code), [...(out.get(parentOf(i.code)) ?? []), i]);
  // a code alone under a parent that is no privilege itself (0.1 Dashboard) is named by its own label
  return [...out].map(([parent, list]) => ({
    parent,
    name:
      groupName(parent) === parent && list.length === 1
        ? list[0].code === parent
          ? groupName(parent)
          : list[0]
            ? labelOf(PRIVILEGES.find((p) => p.code === list[0].code) ?? { code: list[0].code, label: parent })
            : parent
        : groupName(parent),
    items: list,
  }));
}
const matches = (q: string, code: string, label: string) =>
  !q || code.startsWith(q) || label.toLowerCase().includes(q.toLowerCase()) || privilegeLabel(code, label, getLocale()).includes(q);

export function PrivilegesScreen() {
  useLocale();
  const { route } = useRouteInfo();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const canAssign = hasPrivilege(held, [PRIV.roles.assign]);
  const holders = useReading<PrivilegeHoldersRow[]>('privilegeHoldersReading');
  const divisions = useReading<{ items: Division[] }>('divisionsReading');
  const names = new Map((divisions.output?.items ?? []).map((d) => [d.id, d.name]));
  const [q, setQ] = useState(''); // visual: the search box
  const rows = (holders.output ?? []).filter((p) => matches(q.trim(), p.code, p.label));
  return (
    <div className="gh-page" data-testid="privileges">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={
          <InputGroup
            leftIcon="search"
            placeholder={tx('Code or words')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            aria-label={tx('Search privileges')}
            data-testid="privileges-search"
          />
        }
      />
      {holders.failed && (
        <Callout intent="danger" icon="error">
          {tx('The privileges could not be loaded')}
        </Callout>
      )}
      {!holders.output && !holders.failed && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
      {holders.output && rows.length === 0 && <NonIdealState icon="search" title={tx('No privilege matches')} />}
      {grouped(rows).map((g) => (
        <Card key={g.parent} className="gh-mb gh-privs__group" data-testid="privilege-group">
          <H5>
            {g.name} <span className="bp6-text-muted">{g.parent}</span>
          </H5>
          <table className="gh-privs__table">
            <tbody>
              {g.items.map((p) => (
                <tr key={p.code} data-testid="privilege" data-code={p.code}>
                  <td className="gh-privs__code">
                    <code>{p.code}</code>
                  </td>
                  <td>
                    {labelOf(p)}
                    {p.platform && (
                      <Tag minimal intent="warning" className="gh-ml">
                        {tx('Platform operators only')}
                      </Tag>
                    )}
                  </td>
                  <td className="gh-privs__holders">
                    {p.roles.length === 0 ? (
                      <span className="bp6-text-muted">{tx('No role')}</span>
                    ) : (
                      p.roles.map((r) => (
                        <Tag key={`${r.id}-${r.divisionId ?? ''}`} minimal round className="gh-mr" data-testid="privilege-holder">
                          {canAssign ? <Link to={`/manage/roles/assign-privileges/${r.id}`}>{r.name}</Link> : r.name}
                          {r.divisionId !== null && ` · ${tx('in {division}', { division: names.get(r.divisionId) ?? `#${r.divisionId}` })}`}
                        </Tag>
                      ))
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      ))}
    </div>
  );
}

/** /manage/privileges/add and /edit/{id}: privileges are the product's; they are granted through roles. */
export function PrivilegesFixedScreen() {
  useLocale();
  const { route } = useRouteInfo();
  return (
    <div className="gh-page" data-testid="privileges-fixed">
      <PageHeader title={routeTitle(route)} icon={route.icon} description={routeDescription(route)} />
      <NonIdealState
        icon="lock"
        title={tx('Privileges come with Gatehouse')}
        description={tx(
          'Each screen and action checks its own code, so codes are not added or changed here. Give people what they need by ticking codes on a role and granting the role.',
        )}
        action={
          <>
            <Link to="/manage/roles" className="bp6-button bp6-intent-primary">
              {tx('Roles')}
            </Link>{' '}
            <Link to="/manage/privileges" className="bp6-button">
              {tx('Privileges')}
            </Link>
          </>
        }
      />
    </div>
  );
}

type Reach = 'all' | number;

export function AssignPrivilegesScreen() {
  useLocale();
  const { route, params, path } = useRouteInfo();
  const id = Number(params.id);
  const navigate = useNavigate();
  const tabs = useSystemActor('tabs');
  const role = useReading<{ id: number; name: string }>('roleNameReading', { input: id, key: id });
  const ticks = useReading<{ privileges: Tick[] }>('roleTicksReading', { input: id, key: id });
  const divisions = useReading<{ items: Division[] }>('divisionsReading');
  const tree = useMemo(() => flatten(divisionTree(divisions.output?.items ?? [])), [divisions.output]);
  const [edits, setEdits] = useState<Map<string, Reach> | null>(null); // visual: the ticks as changed here (null: as loaded)
  const [q, setQ] = useState(''); // visual: the filter typed over the privileges shown
  // the whole set of ticks is saved by the command actor: `<roleId>|<ticks>`
  const saver = useViewActor('assignPrivilegeCommands');
  const saving = useSelector(saver, (s: CommandSnapshot) => selectRunningCommand(s) !== null);
  const problem = useSelector(saver, (s: CommandSnapshot) => selectCommandError(s));
  const [asking, setAsking] = useState(false); // visual: the question open
  const loaded = useMemo(
    () => new Map((ticks.output?.privileges ?? []).map((t) => [t.code, t.divisionId === null ? ('all' as Reach) : t.divisionId])),
    [ticks.output],
  );
  const now = edits ?? loaded;
  const dirty = edits !== null;
  const codes = PRIVILEGES.filter((p) => !PLATFORM_PRIVILEGES.includes(p.code));
  const visible = codes.filter((p) => matches(q.trim(), p.code, p.label));
  const set = (code: string, reach: Reach | null) =>
    setEdits(() => {
      const m = new Map(now);
      if (reach === null) m.delete(code);
      else m.set(code, reach);
      return m;
    });
  const setMany = (list: readonly string[], on: boolean) =>
    setEdits(() => {
      const m = new Map(now);
      for (const c of list) {
        if (on) {
          if (!m.has(c)) m.set(c, 'all');
        } else m.delete(c);
      }
      return m;
    });
  const leave = () => {
    navigate('/manage/roles');
    const watch = tabs.subscribe((st) => {
      if (st.context.currentPath !== path) {
        watch.unsubscribe();
        tabs.send({ type: 'tab.close', path });
      }
    });
  };
  useEffect(() => {
    const sub = saver.on('command.done', ({ command, result }) => {
      const n = (JSON.parse(command.slice(command.indexOf('|') + 1)) as Tick[]).length;
      notify({
        intent: 'success',
        title: tx('Privileges of {role} saved', { role: (result as { name: string }).name }),
        message: tx('{n} privileges ticked.', { n }),
        timeoutMs: 3000,
      });
      leave();
    });
    return () => sub.unsubscribe();
  }); // every render: `leave` closes over this render's path
  const save = () => {
    const body: Tick[] = [...now].map(([code, reach]) => ({ code, divisionId: reach === 'all' ? null : reach }));
    saver.send({ type: 'command.run', command: `${id}|${JSON.stringify(body)}` });
  };

  const header = (
    <PageHeader
      title={role.output ? `${routeTitle(route)}: ${role.output.name}` : routeTitle(route)}
      icon={route.icon}
      description={routeDescription(route)}
      actions={
        <InputGroup
          leftIcon="search"
          placeholder={tx('Code or words')}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          aria-label={tx('Search privileges')}
        />
      }
    />
  );
  if (role.failed || ticks.failed)
    return (
      <div className="gh-page">
        {header}
        <NonIdealState
          icon="search"
          title={tx('Role not found')}
          description={tx('It may have been deleted, or it belongs to another client.')}
          action={<Link to="/manage/roles">{tx('Roles')}</Link>}
        />
      </div>
    );
  if (!role.output || !ticks.output)
    return (
      <div className="gh-page">
        {header}
        <NonIdealState icon={<Spinner />} title={tx('Loading…')} />
      </div>
    );
  return (
    <div className="gh-page" data-testid="assign-privileges">
      {header}
      <p className="bp6-text-muted">{tx('{n} of {total} privileges ticked.', { n: now.size, total: codes.length })}</p>
      {problem && (
        <Callout intent="danger" icon="error" className="gh-mb" data-testid="assign-problem">
          {say(problem)}
        </Callout>
      )}
      {grouped(visible).map((g) => {
        const on = g.items.filter((p) => now.has(p.code)).length;
        return (
          <Card key={g.parent} className="gh-mb gh-privs__group" data-testid="assign-group" data-parent={g.parent}>
            <Checkbox
              checked={on === g.items.length}
              indeterminate={on > 0 && on < g.items.length}
              onChange={(e) =>
                setMany(
                  g.items.map((p) => p.code),
                  e.currentTarget.checked,
                )
              }
              labelElement={
                <strong>
                  {g.name} <span className="bp6-text-muted">{g.parent}</span>
                </strong>
              }
              data-testid="assign-group-box"
            />
            {g.items.map((p) => {
              const reach = now.get(p.code);
              return (
                <div key={p.code} className="gh-privs__tick" data-testid="assign-code" data-code={p.code}>
                  <Checkbox
                    checked={reach !== undefined}
                    onChange={(e) => set(p.code, e.currentTarget.checked ? 'all' : null)}
                    label={`${p.code} · ${labelOf(p)}`}
                    className="gh-privs__box"
                  />
                  {reach !== undefined && (
                    <HTMLSelect
                      value={String(reach)}
                      onChange={(e) => set(p.code, e.currentTarget.value === 'all' ? 'all' : Number(e.currentTarget.value))}
                      aria-label={tx('Where {code} applies', { code: p.code })}
                      data-testid="assign-reach"
                    >
                      <option value="all">{tx('Wherever the grant reaches')}</option>
                      {tree.map((n) => (
                        <option key={n.row.id} value={n.row.id}>{`${'\u00a0\u00a0'.repeat(n.depth)}${n.row.name}`}</option>
                      ))}
                    </HTMLSelect>
                  )}
                </div>
              );
            })}
          </Card>
        );
      })}
      <div className="gh-form-actions gh-sticky-actions">
        <Button intent="primary" icon="floppy-disk" loading={saving} onClick={save} data-testid="assign-save">
          {tx('Save')}
        </Button>
        <Button variant="minimal" onClick={() => (dirty ? setAsking(true) : leave())} data-testid="assign-cancel">
          {tx('Cancel')}
        </Button>
      </div>
      <Alert
        isOpen={asking}
        intent="danger"
        icon="trash"
        cancelButtonText={tx('Keep editing')}
        confirmButtonText={tx('Discard changes')}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          leave();
        }}
      >
        <p>{tx('Discard your changes to the privileges of {role}?', { role: role.output.name })}</p>
      </Alert>
    </div>
  );
}
