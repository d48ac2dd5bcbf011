// /configure/division [0.4.9.0] (issue 12): the client's division tree as the user may see it — every division with
// how many divisions sit inside it, a name that opens its edit form [0.4.9.2] (rename, or move it by choosing where
// it sits), "Add inside" [0.4.9.1] opening the add form with the parent chosen, and Delete [0.4.9.3] after a question;
// a division still in use is refused by the server with what uses it, said in a toast and under the tree. The tree
// follows changes made anywhere in the client (`/changes/divisions`).
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Alert, Button, Callout, NonIdealState, Spinner, Tag, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { hasPrivilege, PRIV } from '../../../contract';
import { selectCommandError, selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges } from '../../../machines/session.selectors';
import { useReading } from '../../hooks/useReading';
import { useViewActor } from '../../hooks/useViewActor';
import { useRouteInfo } from '../../app/RouteContext';
import { useSystemActor } from '../../hooks/useSystemActor';
import { routeDescription, routeTitle, say, tx, useLocale } from '../../i18n';
import { notify } from '../../hooks/console';
import { PageHeader } from '../../ui/PageHeader';
import { divisionTree, flatten, type DivisionNode } from '../../resources/divisionTree';
import './divisions.css';

type Row = { id: number; name: string; parentId: number | null };

export function DivisionsScreen() {
  useLocale();
  const { route } = useRouteInfo();
  const navigate = useNavigate();
  const held = useSelector(useSystemActor('session'), selectHeldPrivileges);
  const can = {
    add: hasPrivilege(held, [PRIV.divisions.add]),
    edit: hasPrivilege(held, [PRIV.divisions.edit]),
    delete: hasPrivilege(held, [PRIV.divisions.delete]),
  };
  // the last tree stays on screen while the next is read; another client's goes
  // read again on every change notice of the divisions, and after every reconnect of the live connection
  const task = useReading<{ items: Row[] }>('divisionsReading', { notices: { resource: 'divisions' } });
  const { reload } = task;
  const rows = task.output?.items ?? null;
  const tree = useMemo(() => divisionTree(rows ?? []), [rows]);
  const names = useRef(new Map<number, string>()); // visual: the division names a toast says
  for (const r of rows ?? []) names.current.set(r.id, r.name);

  // one delete at a time; its answer is said in a toast and the tree is read again
  const commands = useViewActor('divisionCommands');
  useEffect(() => {
    const sub = commands.on('command.done', ({ command }) => {
      notify({
        intent: 'success',
        title: tx('Division deleted'),
        message: tx('{name} is deleted.', { name: names.current.get(Number(command)) ?? `#${command}` }),
        timeoutMs: 3000,
      });
      reload();
    });
    return () => sub.unsubscribe();
  }, [commands, reload]);
  const running = useSelector(commands, selectRunningCommand);
  const error = useSelector(commands, selectCommandError);
  const [collapsed, setCollapsed] = useState<Set<number>>(new Set()); // visual: branches the user folded
  const [asking, setAsking] = useState<Row | null>(null); // visual: which division's delete is being confirmed

  const toNode = (n: DivisionNode<Row>): TreeNodeInfo<Row> => {
    const inside = flatten(n.children).length;
    return {
      id: n.row.id,
      nodeData: n.row,
      icon: n.children.length ? (collapsed.has(n.row.id) ? 'folder-close' : 'folder-open') : 'diagram-tree',
      hasCaret: n.children.length > 0,
      isExpanded: !collapsed.has(n.row.id),
      label: (
        <span className="gh-divisions__name" data-testid="division" data-id={n.row.id} aria-label={n.row.name}>
          {can.edit ? (
            <Link to={`/configure/division/edit/${n.row.id}`} data-testid="division-edit">
              {n.row.name}
            </Link>
          ) : (
            n.row.name
          )}
          {n.row.parentId === null && (
            <Tag minimal round className="gh-divisions__top">
              {tx('Top')}
            </Tag>
          )}
        </span>
      ),
      secondaryLabel: (
        <span className="gh-divisions__actions">
          {inside > 0 && (
            <span className="bp6-text-muted gh-mr gh-divisions__wide" data-testid="division-inside">
              {tx('{n} inside', { n: inside })}
            </span>
          )}
          {can.add && (
            <Button
              size="small"
              variant="minimal"
              icon="plus"
              data-testid="division-add-inside"
              title={tx('Add a division inside {name}', { name: n.row.name })}
              aria-label={`${tx('Add inside')}: ${n.row.name}`}
              onClick={() => navigate(`/configure/division/add?parentId=${n.row.id}`)}
            >
              <span className="gh-divisions__wide">{tx('Add inside')}</span>
            </Button>
          )}
          {can.delete && n.row.parentId !== null && (
            <Button
              size="small"
              variant="minimal"
              intent="danger"
              icon="trash"
              aria-label={tx('Delete {name}', { name: n.row.name })}
              data-testid="division-delete"
              loading={running === String(n.row.id)}
              disabled={running !== null}
              onClick={() => setAsking(n.row)}
            />
          )}
        </span>
      ),
      childNodes: n.children.map(toNode),
    };
  };
  const toggle = (node: TreeNodeInfo<Row>) =>
    setCollapsed((c) => {
      const next = new Set(c);
      if (next.has(Number(node.id))) next.delete(Number(node.id));
      else next.add(Number(node.id));
      return next;
    });

  return (
    <div className="gh-page" data-testid="divisions">
      <PageHeader
        title={routeTitle(route)}
        icon={route.icon}
        description={routeDescription(route)}
        actions={
          <>
            <Button icon="refresh" variant="outlined" loading={task.busy} onClick={reload}>
              {tx('Refresh')}
            </Button>
            {can.add && (
              <Button intent="primary" icon="plus" data-testid="add-button" onClick={() => navigate('/configure/division/add')}>
                {tx('Add {what}', { what: tx('Division').toLowerCase() })}
              </Button>
            )}
          </>
        }
      />
      {error && (
        <Callout intent="danger" icon="error" className="gh-mb" data-testid="division-error">
          {say(error)}
        </Callout>
      )}
      {task.failed && !rows && (
        <NonIdealState
          icon="error"
          title={tx('The divisions could not be loaded')}
          action={<Button icon="refresh" text={tx('Try again')} onClick={reload} />}
        />
      )}
      {!rows && !task.failed && <NonIdealState icon={<Spinner />} title={tx('Loading…')} />}
      {rows && rows.length === 0 && <NonIdealState icon="diagram-tree" title={tx('No divisions you may see')} />}
      {rows && rows.length > 0 && <Tree contents={tree.map(toNode)} onNodeExpand={toggle} onNodeCollapse={toggle} className="gh-divisions" />}
      <Alert
        isOpen={asking !== null}
        intent="danger"
        icon="trash"
        cancelButtonText={tx('Cancel')}
        confirmButtonText={tx('Delete')}
        onCancel={() => setAsking(null)}
        onConfirm={() => {
          if (asking) commands.send({ type: 'command.run', command: String(asking.id) });
          setAsking(null);
        }}
      >
        <p data-testid="division-delete-question">
          {tx('Delete the division {name}? A division that still holds identities, doors, divisions or grants is kept.', { name: asking?.name ?? '' })}
        </p>
      </Alert>
    </div>
  );
}
