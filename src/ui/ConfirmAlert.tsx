// The question a screen asks before a change it cannot take back (discard the typed values, disarm a zone, move a
// reader): the action's own words on the confirm button; either answer closes the question, and a yes then acts.
import type { ReactNode } from 'react';
import { Alert, type IconName, type Intent } from '@blueprintjs/core';

export function ConfirmAlert({
  open,
  intent = 'warning',
  icon,
  confirm,
  cancel,
  onClose,
  onConfirm,
  testId,
  children,
}: {
  open: boolean;
  intent?: Intent;
  icon: IconName;
  /** The confirm button: what happens (Disarm, Move reader, Discard changes). */
  confirm: string;
  /** The cancel button: what staying means (Cancel, Keep editing). */
  cancel: string;
  /** Closes the question (both answers). */
  onClose: () => void;
  /** What a yes does, after the question is closed. */
  onConfirm: () => void;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <Alert
      isOpen={open}
      intent={intent}
      icon={icon}
      confirmButtonText={confirm}
      cancelButtonText={cancel}
      onCancel={onClose}
      onConfirm={() => {
        onClose();
        onConfirm();
      }}
      data-testid={testId}
    >
      {children}
    </Alert>
  );
}
