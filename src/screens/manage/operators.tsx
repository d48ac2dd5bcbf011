// The operators of the client (issues 11 and 27): /manage/operators [0.3.3.0]. An operator account is one sign-in
// across clients, so the list tags the accounts that also work for other clients, and offers a password reset,
// disable and enable only where the server allows them (the row's `accountLocked` says why not: a platform
// operator's account, or one of clients this administrator does not administer). Any account that also works
// elsewhere may be removed from this client: its roles, groups and sessions here go, the account stays.
import { useState } from 'react';
import { Alert, Button, Dialog, DialogBody, Tag, Tooltip } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { PRIV, ResetPasswordRequest, hasPrivilege } from '../../../contract';
import { selectRunningCommand } from '../../../machines/command';
import { selectHeldPrivileges, selectUser } from '../../../machines/session.selectors';
import { useSystemActor } from '../../hooks/useSystemActor';
import { useCommand } from '../../hooks/useCommand';
import { say, tx } from '../../i18n';
import { operators, type Operator } from '../../resources';
import { ListScreen } from '../../ui/ListScreen';
import { PasswordForm } from '../auth/PasswordForm';

const nameOf = (o: Operator) => o.name ?? o.username ?? `#${o.id}`;
const DONE: Record<string, string> = { disable: '{name} is disabled', enable: '{name} is enabled again', remove: '{name} no longer works for this client' };

export function OperatorsScreen() {
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  const me = useSelector(session, selectUser);
  const mayEdit = hasPrivilege(held, [PRIV.operatorGroups.edit]);
  const [names] = useState(() => new Map<string, string>()); // visual: the toast's name of each command sent
  const commands = useCommand('operatorCommands', (command) => ({
    title: tx(DONE[command.split(':')[0]] ?? 'Done', { name: names.get(command) ?? '' }),
    message: '',
  }));
  const running = useSelector(commands, selectRunningCommand);
  const [resetting, setResetting] = useState<Operator | null>(null); // visual: the password dialog's operator
  const [removing, setRemoving] = useState<Operator | null>(null); // visual: the confirm of a removal
  const run = (action: 'disable' | 'enable' | 'remove', o: Operator) => {
    const command = `${action}:${o.id}`;
    names.set(command, nameOf(o));
    commands.send({ type: 'command.run', command });
  };

  return (
    <>
      <ListScreen<Operator>
        testId="operators"
        resource={operators}
        refreshAfter={commands}
        rowTag={(o) => (
          <>
            {o.shared && (
              <Tooltip content={tx('This account signs in to other clients too')}>
                <Tag minimal round intent="warning" icon="people" data-testid="operator-shared">
                  {tx('Also in other clients')}
                </Tag>
              </Tooltip>
            )}
            {o.disabled && (
              <Tag minimal round className="gh-ml">
                {tx('Disabled')}
              </Tag>
            )}
          </>
        )}
        rowActions={
          mayEdit
            ? (o) => (
                <>
                  {o.accountLocked ? (
                    // what the server would refuse is not offered: the reason instead
                    <Tooltip content={say(o.accountLocked)}>
                      <Tag minimal round icon="lock" data-testid="operator-locked">
                        {tx('A platform operator manages this account')}
                      </Tag>
                    </Tooltip>
                  ) : (
                    <>
                      <Button size="small" variant="outlined" icon="key" disabled={!!running} data-testid="operator-reset" onClick={() => setResetting(o)}>
                        {tx('Reset password')}
                      </Button>
                      {o.disabled ? (
                        <Button
                          size="small"
                          variant="minimal"
                          icon="unlock"
                          disabled={!!running}
                          loading={running === `enable:${o.id}`}
                          onClick={() => run('enable', o)}
                        >
                          {tx('Enable')}
                        </Button>
                      ) : (
                        <Button
                          size="small"
                          variant="minimal"
                          intent="danger"
                          icon="disable"
                          disabled={!!running || o.id === me?.id}
                          loading={running === `disable:${o.id}`}
                          onClick={() => run('disable', o)}
                        >
                          {tx('Disable')}
                        </Button>
                      )}
                    </>
                  )}
                  {o.shared && o.id !== me?.id && (
                    <Button
                      size="small"
                      variant="minimal"
                      icon="log-out"
                      disabled={!!running}
                      loading={running === `remove:${o.id}`}
                      data-testid="operator-remove"
                      onClick={() => setRemoving(o)}
                    >
                      {tx('Remove from this client')}
                    </Button>
                  )}
                </>
              )
            : undefined
        }
      />
      <Dialog
        isOpen={!!resetting}
        title={tx('New password for {name}', { name: resetting ? nameOf(resetting) : '' })}
        icon="key"
        onClose={() => setResetting(null)}
      >
        <DialogBody>
          {resetting && (
            <PasswordForm
              machine="operatorPasswordMachine"
              schema={ResetPasswordRequest}
              fixed={{ id: String(resetting.id) }}
              fields={[{ name: 'password', label: tx('New password'), type: 'password', autoComplete: 'new-password' }]}
              confirm={{ name: 'confirmPassword', label: tx('Confirm password'), of: 'password' }}
              submitText={tx('Set password')}
              done={tx('The password is set. Tell {name} to change it when they next sign in.', { name: nameOf(resetting) })}
            />
          )}
        </DialogBody>
      </Dialog>
      <Alert
        isOpen={!!removing}
        intent="warning"
        icon="log-out"
        cancelButtonText={tx('Cancel')}
        confirmButtonText={tx('Remove from this client')}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) run('remove', removing);
          setRemoving(null);
        }}
      >
        {tx('{name} loses their roles and groups in this client and their sessions here end. The account keeps working for its other clients.', {
          name: removing ? nameOf(removing) : '',
        })}
      </Alert>
    </>
  );
}
