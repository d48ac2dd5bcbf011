// The generic add/edit form of a resource: react-final-form for the input, the contract schema for the rules,
// the resourceForm actor for load/save. Errors show per field with the mapped message; on submit the first
// invalid field is focused (repeated rows too); server violations (400) land on their fields.
import { useMemo, useState } from 'react';
import { Button, Callout, Card, H5, NonIdealState, Spinner } from '@blueprintjs/core';
import { ConfirmAlert } from '../ui/ConfirmAlert';
import { useSelector } from '@xstate/react';
import { familyValues, hasPrivilege, mayOnRow, type Division } from '../../contract';
import { selectHeldPrivileges, selectOwnIdentity } from '../../machines/session.selectors';
import { getClientToday } from '../ui/time';
import { useReading } from '../hooks/useReading';
import { useChangeNotices } from '../hooks/useChangeNotices';
import { useRouteInfo } from '../app/RouteContext';
import { useSystemActor } from '../hooks/useSystemActor';
import { tCat, say, tx, useLocale, useT } from '../i18n';
import { divisionTree, flatten } from './divisionTree';
import { isRepeat, resourceWords, type FieldDef, type Resource } from './consoleResource';
import { fieldError, toBody, validateForm, type FieldError } from './formValues';
import { FocusForm } from '../ui/FocusForm';
import { ReadCardPanel } from './ReadCardPanel';
import { RecordPanel } from './RecordPanel';
import { WhatIfButton } from './WhatIf';
import { udfBody, udfFieldDefs, useUserFieldDefs } from './userFieldDefs';
import { RecordPanelNamed } from './recordPanels';
import { FieldInput, RepeatRows, ShownWhen } from './FieldInput';
import { KEEP_SECRET, isFormField, sayViolation, serverErrorsOf } from './formMessages';
import { ShownOnceDialog } from './ShownOnceDialog';
import { useFormRecord } from './useFormRecord';

export { isFormField } from './formMessages';

function zones(): { label: string; value: string }[] {
  const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  return (list.includes('UTC') ? list : ['UTC', ...list]).map((z) => ({ label: z, value: z }));
}

export function ResourceForm<T extends { id: number }>({ resource }: { resource: Resource<T> }) {
  const t = useT();
  const locale = useLocale();
  const words = resourceWords(resource);
  const { params } = useRouteInfo();
  // a tenant's settings (a singleton) are one record, read and saved at the resource's path: the id only says "a record"
  const singleton = !!resource.declaration?.singleton;
  const id = singleton ? 1 : params.id !== undefined ? Number(params.id) : undefined;
  const editing = id !== undefined;
  const { form, loaded, violations, error, busy, loading, failed, saving, once, setOnce, leave, close } = useFormRecord(resource, id, singleton);
  // issue 50: the server changed this record (a firmware roll-out's progress, a status): it is read again, typed values stay
  useChangeNotices(
    editing ? { resource: resource.name } : null,
    form,
    (body) => (singleton || (body as { id?: unknown } | null)?.id === id ? { type: 'form.refresh' as const } : null),
    { shownAgain: false },
  );
  // a view holder on an edit route that opens to viewers (declaration screens.viewersOpen): the record, read-only
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
  // issue 50: a holder of only the resource's own code (3.8.3 Request own leave) files for themselves: the form's
  // `mine` person starts as the member of staff they are (the server holds them to it anyway)
  const ownIdentity = useSelector(session, selectOwnIdentity);
  const mine = resource.declaration?.scopes?.find((x) => x.kind === 'mine');
  const ownCode = resource.declaration?.privileges.own;
  const ownField =
    mine && ownCode && ownIdentity !== null && hasPrivilege(held, [ownCode]) && !(resource.privileges.add && hasPrivilege(held, [resource.privileges.add]))
      ? mine.person
      : null;
  // (or a record route without an edit code at all: a visit request's details, changed only by its named actions)
  // (privilege families: the edit code of the record's own family — a security job needs 0.6.5.2, an attendance one 3.9.2)
  const family = resource.declaration?.privileges.families;
  const readOnly =
    editing &&
    (!resource.privileges.edit ||
      (family ? !mayOnRow(resource.declaration!, 'edit', held, loaded as Record<string, unknown> | null) : !hasPrivilege(held, [resource.privileges.edit])));
  // the family field offers only the families the user may write (the server refuses the others, 403 on the field)
  const writableKey = family ? (familyValues(resource.declaration!, editing ? 'edit' : 'add', held) ?? []).join('|') : null;
  const writable = useMemo(() => (writableKey === null ? null : writableKey.split('|').filter(Boolean)), [writableKey]);
  const familyDef = (f: FieldDef): FieldDef =>
    writable && f.name === family!.field && f.kind === 'select' && !readOnly
      ? { ...f, options: (f.options ?? []).filter((o) => writable.includes(o.value)) }
      : f;
  // visual: the "discard your changes?" question is open
  const [asking, setAsking] = useState(false);

  const needsDivisions = resource.form.some((s) => s.fields.some((f) => !isRepeat(f) && f.source === 'divisions'));
  const divisions = useReading<{ items: Division[] }>(needsDivisions ? 'divisionChoices' : 'nothingToRead').output;
  const options = useMemo(
    () => ({
      // the tree, depth-first, each name indented by its depth (a division is known by where it sits)
      divisions: flatten(divisionTree(divisions?.items ?? [])).map((n) => ({
        label: `${'\u00a0\u00a0\u00a0'.repeat(n.depth)}${n.row.name}`,
        value: String(n.row.id),
      })),
      timezones: zones(),
    }),
    [divisions],
  );

  // an extensible resource (identities): the client's user-defined fields, in a section of their own
  const extensible = !!resource.declaration?.extensible;
  const defs = useUserFieldDefs(extensible);
  const udfInputs = useMemo(() => udfFieldDefs(defs), [defs]);
  // the address this form opened with (a kept-alive form must not re-read it when the user moves elsewhere)
  const [search] = useState(() => window.location.search); // visual: the address the form opened with
  const initialValues = useMemo(() => {
    if (editing) {
      const base = loaded && resource.toForm ? resource.toForm(loaded) : ((loaded as Record<string, unknown> | null) ?? undefined);
      const udf = (loaded as { udf?: Record<string, unknown> | null } | null)?.udf ?? {};
      return base && extensible ? { ...base, udf: Object.fromEntries(Object.entries(udf).map(([k, x]) => [k, x === null ? '' : String(x)])) } : base;
    }
    const v: Record<string, unknown> = { ...resource.initial?.() };
    // a link may choose a reference for the new row (`/configure/division/add?parentId=4`: Add inside)
    const given = new URLSearchParams(search);
    for (const s of resource.form)
      for (const f of s.fields) {
        if (!isRepeat(f) && (f.kind === 'ref' || f.kind === 'select' || f.kind === 'number') && /^\d{1,10}$/.test(given.get(f.name) ?? ''))
          v[f.name] = given.get(f.name);
        // a found device's words (a discovered board's serial number and name), checked on save like anything typed
        if (!isRepeat(f) && (f.kind === 'text' || f.kind === undefined) && (given.get(f.name) ?? '') !== '' && given.get(f.name)!.length <= 200)
          v[f.name] = given.get(f.name);
        if (!isRepeat(f) && f.kind === 'select' && f.options?.some((o) => o.value === given.get(f.name))) v[f.name] = given.get(f.name);
        // a day chosen on the calendar (`/configure/special-date/add?date=2026-12-25`)
        if (!isRepeat(f) && f.kind === 'date' && /^\d{4}-\d{2}-\d{2}$/.test(given.get(f.name) ?? '')) v[f.name] = given.get(f.name);
      }
    for (const s of resource.form)
      for (const f of s.fields) {
        if (isRepeat(f)) v[f.repeat] = [];
        else if (f.name in v) continue;
        else if (f.kind === 'refs') v[f.name] = [];
        else if (f.kind === 'switch') v[f.name] = f.default === undefined ? true : !!f.default;
        else if (f.kind === 'datetime' && f.fromNow !== undefined)
          v[f.name] = new Date(Math.floor(Date.now() / 60_000) * 60_000 + f.fromNow * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
        else if (f.default !== undefined && f.default !== null) v[f.name] = f.kind === 'number' ? String(f.default) : f.default;
        else if (f.kind === 'select' && f.options?.length && f.required) v[f.name] = f.options[0].value;
      }
    if (ownField && !v[ownField]) v[ownField] = String(ownIdentity);
    // a new row starts in a family the user may add
    if (writable && family && !writable.includes(String(v[family.field] ?? '')) && writable.length) v[family.field] = writable[0];
    return v;
  }, [editing, loaded, resource, extensible, search, writable, family, ownField, ownIdentity]);

  const serverErrors = useMemo(() => serverErrorsOf(violations), [violations]);
  // issue 10: a refused field shows on that field only; what names no field of this form is said here in words
  const unplaced = useMemo(
    () => violations.filter((v) => !isFormField(v.field, resource.form as Resource<{ id: number }>['form']) && !udfInputs.some((f) => f.name === v.field)),
    [violations, resource.form, udfInputs],
  );

  if (loading)
    return (
      <div className="gh-page">
        <NonIdealState icon={<Spinner />} title={t('loading')} />
      </div>
    );
  if (failed)
    return (
      <div className="gh-page">
        <NonIdealState
          icon="error"
          title={tx('Could not load this {what}', { what: words.one.toLowerCase() })}
          description={error ? say(error) : undefined}
          action={<Button icon="refresh" text={tx('Try again')} onClick={() => form.send({ type: 'form.reload' })} />}
        />
      </div>
    );

  return (
    <div className="gh-page gh-form-page" data-testid={`${resource.name}-form`}>
      {/* the first invalid field takes the focus, on a refused save and when the server's violations arrive */}
      <FocusForm
        violations={violations}
        onSubmit={(values) => {
          // the edit sends back the updatedAt it loaded: if someone saved since, the server answers 409 and the typed values stay
          const stamp = editing ? (loaded as { updatedAt?: unknown } | null)?.updatedAt : undefined;
          const loadedAt = typeof stamp === 'string' ? { updatedAt: stamp } : {};
          const udf = extensible && defs.length ? { udf: udfBody(defs, values.udf as Record<string, unknown> | undefined).value } : {};
          form.send({ type: 'form.submit', values: { ...toBody(values, resource.form), ...udf, ...loadedAt } });
        }}
        validate={(values) => {
          // a new record's day rules (a visit's day: today or later) count from today in the client's zone, as the
          // server does (contract clientToday), whatever zone the viewer reads times in
          const errors = validateForm(values, resource.form, resource.input, resource.declaration, editing ? undefined : getClientToday());
          // a secret is required when the record is created (an edit keeps the stored one when it is left empty)
          if (!editing)
            for (const s of resource.form)
              for (const f of s.fields) {
                if (!isRepeat(f) && f.writeOnly && f.required && !String(values[f.name] ?? '').trim() && !errors[f.name])
                  errors[f.name] = fieldError(f.label, { field: f.name, message: 'is required' });
              }
          if (defs.length) {
            const udf: Record<string, FieldError> = {};
            for (const v of udfBody(defs, values.udf as Record<string, unknown> | undefined).violations) {
              const f = udfInputs.find((x) => x.name === v.field);
              if (f) udf[f.name.slice(4)] = fieldError(f.label, v);
            }
            if (Object.keys(udf).length) errors.udf = udf;
          }
          return errors;
        }}
        initialValues={initialValues}
        keepDirtyOnReinitialize
        subscription={{ submitting: false }}
        render={({ handleSubmit, form: ff }) => (
          <form
            noValidate
            aria-label={editing ? tx('Edit {what}', { what: words.one.toLowerCase() }) : tx('Add {what}', { what: words.one.toLowerCase() })}
            onSubmit={(e) => {
              void handleSubmit(e);
            }}
          >
            {error && (
              <Callout intent="danger" icon="error" className="gh-form__error" data-testid="form-error">
                {say(error)}
              </Callout>
            )}
            {unplaced.length > 0 && (
              <Callout intent="warning" icon="warning-sign" className="gh-form__error" data-testid="form-violations">
                {tx('Not saved:')} {unplaced.map((v) => sayViolation(v, locale)).join('; ')}
              </Callout>
            )}
            {readOnly && resource.privileges.edit && (
              <Callout intent="primary" icon="eye-open" className="gh-form__error" data-testid="form-read-only">
                {tx('You may look at this {what}; changing it needs the privilege to edit it.', { what: words.one.toLowerCase() })}
              </Callout>
            )}
            {editing && loaded && (
              <RecordPanel
                resource={resource}
                row={loaded as unknown as Record<string, unknown>}
                busy={busy}
                violations={violations}
                onAct={(action, input) => form.send({ type: 'form.act', action, input })}
              />
            )}
            {editing && loaded && resource.declaration?.screens?.recordPanel && (
              <RecordPanelNamed name={resource.declaration.screens.recordPanel} row={loaded as unknown as Record<string, unknown>} />
            )}
            {!readOnly && resource.devices && <ReadCardPanel purpose={resource.devices.purpose} />}
            <fieldset disabled={readOnly} className="gh-form__fields">
              {resource.form.map((section) => (
                <Card key={section.title} className="gh-form__section" compact>
                  <H5>{section.keys ? tCat(section.keys.title, section.title) : tx(section.title)}</H5>
                  {section.description && (
                    <p className="bp6-text-muted gh-form__desc">
                      {section.keys ? tCat(section.keys.description, section.description) : tx(section.description)}
                    </p>
                  )}
                  <div className="gh-form__grid">
                    {section.fields.map((f) =>
                      isRepeat(f) ? (
                        <RepeatRows key={f.repeat} def={f} serverErrors={serverErrors} options={options} />
                      ) : f.shownWhen ? (
                        <ShownWhen key={f.name} when={f.shownWhen}>
                          <FieldInput def={familyDef(f)} name={f.name} serverErrors={serverErrors} options={options} />
                        </ShownWhen>
                      ) : (
                        <FieldInput
                          key={f.name}
                          def={familyDef(editing && f.writeOnly ? { ...f, required: false, placeholder: KEEP_SECRET } : f)}
                          name={f.name}
                          serverErrors={serverErrors}
                          options={options}
                        />
                      ),
                    )}
                  </div>
                </Card>
              ))}
              {!readOnly && resource.formPanel && <resource.formPanel />}
              {udfInputs.length > 0 && (
                <Card className="gh-form__section" compact data-testid="udf-section">
                  <H5>{tx('More fields')}</H5>
                  <p className="bp6-text-muted gh-form__desc">{tx('Fields this client added to every {what}.', { what: words.one.toLowerCase() })}</p>
                  <div className="gh-form__grid">
                    {udfInputs.map((f) => (
                      <FieldInput key={f.name} def={f} name={f.name} serverErrors={serverErrors} options={options} />
                    ))}
                  </div>
                </Card>
              )}
            </fieldset>
            <div className="gh-form__actions">
              {!readOnly && (
                <Button type="submit" intent="primary" icon="floppy-disk" loading={saving} disabled={busy} data-testid="form-save">
                  {t('save')}
                </Button>
              )}
              {!readOnly && (
                <Button
                  icon="reset"
                  onClick={() => {
                    ff.reset();
                    form.send({ type: 'form.reset' });
                  }}
                  disabled={busy}
                >
                  {t('reset')}
                </Button>
              )}
              {resource.declaration?.screens?.whatIf && <WhatIfButton resource={resource} id={id} />}
              {!singleton && (
                <Button variant="minimal" data-testid="form-cancel" onClick={() => (ff.getState().dirty ? setAsking(true) : close())}>
                  {readOnly ? tx('Back to the list') : t('cancel')}
                </Button>
              )}
            </div>
            <ShownOnceDialog
              resource={resource}
              once={once}
              onDone={(id) => {
                const stay = once?.stay;
                setOnce(null);
                if (!stay) leave(id);
              }}
            />
            <ConfirmAlert
              open={asking}
              intent="danger"
              icon="trash"
              cancel={tx('Keep editing')}
              confirm={tx('Discard changes')}
              onClose={() => setAsking(false)}
              onConfirm={close}
              testId="discard-alert"
            >
              <p>{tx('Discard your changes to this {what}? What you typed is lost.', { what: words.one.toLowerCase() })}</p>
            </ConfirmAlert>
          </form>
        )}
      />
    </div>
  );
}
