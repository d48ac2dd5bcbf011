// A value a save answered once (a new API key), shown to be copied: it is not shown again. Closing it (or "I have
// copied it") hands the saved record's id back, and the form leaves.
import { Button, Callout, Classes, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { TOAST_MS } from '../../contract';
import { tx } from '../i18n';
import { notify } from '../hooks/console';
import type { Resource } from './consoleResource';

/** `stay`: shown by a record action (the page stays); else by a save (the form leaves when it closes). */
export type ShownOnce = { shown: Record<string, string>; id: number; stay?: boolean };

export function ShownOnceDialog<T extends { id: number }>({
  resource,
  once,
  onDone,
}: {
  resource: Resource<T>;
  once: ShownOnce | null;
  onDone: (id: number) => void;
}) {
  return (
    <Dialog isOpen={!!once} title={tx('Shown only now')} icon="key" onClose={() => onDone(once!.id)}>
      <div data-testid="shown-once">
        <DialogBody>
          <Callout intent="warning" icon="warning-sign">
            {tx('Copy it now into the system that uses it: it is not shown again. If it is lost, issue a new one.')}
          </Callout>
          {Object.entries(once?.shown ?? {}).map(([k, v]) => (
            <FormGroup key={k} label={tx(resource.declaration?.screens?.shownOnce?.find((x) => x.field === k)?.label ?? k)} style={{ marginTop: 12 }}>
              <InputGroup
                readOnly
                value={v}
                data-testid={`shown-${k}`}
                className={Classes.MONOSPACE_TEXT}
                rightElement={
                  <Button
                    icon="duplicate"
                    variant="minimal"
                    aria-label={tx('Copy')}
                    onClick={() => {
                      void navigator.clipboard?.writeText(v);
                      notify({ intent: 'success', title: tx('Copied'), message: tx('It is on the clipboard.'), timeoutMs: TOAST_MS });
                    }}
                  />
                }
              />
            </FormGroup>
          ))}
        </DialogBody>
        <DialogFooter
          actions={
            <Button intent="primary" data-testid="shown-once-done" onClick={() => onDone(once!.id)}>
              {tx('I have copied it')}
            </Button>
          }
        />
      </div>
    </Dialog>
  );
}
