// A record's own panel on its page (declaration screens.recordSummary and screens.recordActions): what the server
// set on it — a status, who decided and when, in the user's zone — and the named actions its holders may take now
// (Approve, Decline with a reason). The form actor runs them (form.act) and shows the record as the server answers.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { Button, Card, Dialog, DialogBody, DialogFooter, FormGroup, H5, Tag, TextArea } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { actionCodes, hasPrivilege, isFilled, labelOf, mayOnRow, resourceByName, type Fields, type RecordAction, type Violation } from '../../contract';
import { selectHeldPrivileges } from '../../machines/session.selectors';
import { useSystemActor } from '../hooks/useSystemActor';
import { tCat, tx, useLocale } from '../i18n';
import { catKey, resourceBase } from '../i18n/catalogue';
import { labelled, violationText } from '../i18n/violations';
import { useTime } from '../ui/time';
import { cellValueOf, detailPath, isInstant, type Resource } from './consoleResource';

export function RecordPanel({
  resource,
  row,
  busy,
  violations,
  onAct,
}: {
  resource: Resource<any>;
  row: Record<string, unknown>;
  busy: boolean;
  violations: Violation[];
  onAct: (action: string, input: Record<string, unknown>) => void;
}) {
  const d = resource.declaration;
  const time = useTime(); // times in the user's zone, the zone named beside them
  const locale = useLocale();
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  // visual: the action asking for its reason, and the reason as typed (kept when the server refuses it)
  const [asking, setAsking] = useState<RecordAction | null>(null);
  const [reason, setReason] = useState('');
  const [sent, setSent] = useState(false); // visual: the reason was sent, so the question closes with the answer
  const refused = violations.find((v) => v.field === 'reason');
  // the action ran (or was refused for another reason than the text): the question closes
  useEffect(() => {
    if (sent && !busy) {
      setSent(false);
      if (!refused) {
        setAsking(null);
        setReason('');
      }
    }
  }, [sent, busy, refused]);
  if (!d) return null;
  const fields = d.fields as Fields;
  const summary = d.screens?.recordSummary ?? [];
  // (privilege families: an action of the edit code needs the edit code of the record's own family)
  const may = (a: RecordAction) =>
    d.privileges.families && actionCodes(d, 'edit').includes(a.privilege) ? mayOnRow(d, 'edit', held, row) : hasPrivilege(held, [a.privilege]);
  const actions = (d.screens?.recordActions ?? []).filter((a) => may(a) && (!a.when || a.when.values.includes(String(row[a.when.field]))));
  if (!summary.length && !actions.length) return null;
  const base = resourceBase(d.name);
  const label = (k: string) => {
    const f = fields[k];
    const text = f ? tCat(catKey.field(base, k), labelOf(k, f)) : tx(k === 'createdAt' ? 'Created' : 'Updated');
    return isInstant(k, f) ? `${text} (${time.zoneName()})` : text;
  };
  const value = (k: string) => {
    const f = fields[k];
    const v = row[k];
    if (v === null || v === undefined || v === '') return <span className="bp6-text-muted">—</span>;
    // a reference to a record with a page of its own (the registration an approval made): a link to it
    const target = f?.kind === 'ref' ? resourceByName(f.target!) : undefined;
    if (target?.screens?.detailsRoute)
      return (
        <Link to={detailPath(target.screens.detailsRoute, { id: v })} data-testid={`record-link-${k}`}>
          {tx('Open')}
        </Link>
      );
    const text = cellValueOf(d.name, k, f)?.(row) ?? String(v);
    return f?.kind === 'choice' ? (
      <Tag minimal round>
        {text}
      </Tag>
    ) : (
      text
    );
  };
  const run = (a: RecordAction) => {
    if (a.reason) {
      setAsking(a);
      return;
    }
    onAct(a.action, {});
  };
  return (
    <Card className="gh-form__section gh-record" compact data-testid="record-panel">
      <H5>{tx('Record')}</H5>
      <dl className="gh-record__facts">
        {summary.map((k) => (
          <div key={k} className="gh-record__fact" data-testid={`record-${k}`}>
            <dt>{label(k)}</dt>
            <dd>{value(k)}</dd>
          </div>
        ))}
      </dl>
      {actions.length > 0 && (
        <div className="gh-record__actions">
          {actions.map((a) => {
            // an action that needs a field saved first: disabled, and saying what to do (the server refuses it too)
            const wanting = a.needs && !isFilled(row[a.needs.field]) ? tx(a.needs.hint) : null;
            return (
              <span key={a.action} className="gh-record__action">
                <Button
                  icon={(a.icon ?? 'play') as never}
                  intent={a.intent}
                  text={tx(a.label)}
                  disabled={busy || wanting !== null}
                  loading={busy && !asking}
                  onClick={() => run(a)}
                  data-testid={`record-action-${a.action}`}
                />
                {wanting && (
                  <span className="bp6-text-muted gh-record__needs" data-testid={`record-action-${a.action}-needs`}>
                    {wanting}
                  </span>
                )}
              </span>
            );
          })}
        </div>
      )}
      <Dialog
        isOpen={!!asking}
        title={asking ? tx(asking.label) : ''}
        icon={(asking?.icon ?? 'edit') as never}
        onClose={() => {
          if (!busy) {
            setAsking(null);
          }
        }}
      >
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!asking) return;
            setSent(true);
            onAct(asking.action, { reason: reason.trim() || null });
          }}
          data-testid="record-reason-form"
        >
          <DialogBody>
            <FormGroup
              label={asking?.reason ? tx(asking.reason.label) : ''}
              labelFor="record-reason"
              intent={refused ? 'danger' : 'none'}
              helperText={
                refused
                  ? labelled(
                      tx(asking?.reason?.label ?? ''),
                      violationText(refused, locale, (k, e) => tCat(k, e, locale)),
                      locale,
                    )
                  : tx('At most {n} characters', { n: asking?.reason?.max ?? 0 })
              }
            >
              <TextArea
                id="record-reason"
                fill
                autoFocus
                value={reason}
                maxLength={asking?.reason?.max}
                placeholder={asking?.reason?.placeholder ? tx(asking.reason.placeholder) : undefined}
                onChange={(e) => setReason(e.target.value)}
                intent={refused ? 'danger' : 'none'}
                data-testid="record-reason"
              />
            </FormGroup>
          </DialogBody>
          <DialogFooter
            actions={
              <>
                <Button text={tx('Cancel')} onClick={() => setAsking(null)} disabled={busy} />
                <Button
                  type="submit"
                  intent={asking?.intent}
                  icon={(asking?.icon ?? 'tick') as never}
                  text={asking ? tx(asking.label) : ''}
                  loading={busy}
                  disabled={asking?.reason?.required && !reason.trim()}
                  data-testid="record-reason-confirm"
                />
              </>
            }
          />
        </form>
      </Dialog>
    </Card>
  );
}
