// The generic add/edit form of a resource: react-final-form for the input, the contract schema for the rules,
// the resourceForm actor for load/save. Errors show per field with the mapped message; on submit the first
// invalid field is focused (repeated rows too); server violations (400) land on their fields.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Button,
  Callout,
  Card,
  Classes,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  H5,
  HTMLSelect,
  InputGroup,
  NonIdealState,
  Spinner,
  Switch,
  TextArea,
} from '@blueprintjs/core';
import { useField, useForm, useFormState } from 'react-final-form';
import { getIn } from 'final-form';
import { useSelector } from '@xstate/react';
import { TOAST_MS, familyValues, hasPrivilege, mayOnRow, zoneLabel, type Division, type Violation } from '../../contract';
import { selectHeldPrivileges, selectPhonePlaceholder } from '../../machines/session.selectors';
import { getClientToday, useDisplayZone } from '../ui/time';
import { DateField } from '../ui/DateField';
import { DateTimeField, dateTimeProblem } from '../ui/DateTimeField';
import type { ResourceFormSnapshot } from '../../machines/resourceForm';
import { useReading } from '../hooks/useReading';
import { useRouteInfo } from '../app/RouteContext';
import { useSystemActor } from '../hooks/useSystemActor';
import { tCat, say, tx, useLocale, useT, type Locale } from '../i18n';
import { labelled, violationText } from '../i18n/violations';
import { divisionTree, flatten } from './divisionTree';
import { isRepeat, labelOfField, resourceWords, type FieldDef, type RepeatDef, type Resource } from './defineResource';
import { fieldName, toBody, validateForm } from './formValues';
import { FocusForm } from '../ui/FocusForm';
import { FileUpload, ImageUpload, PinBoard } from './PlanFields';
import { ReadCardPanel } from './ReadCardPanel';
import { RecordPanel } from './RecordPanel';
import { WhatIfButton } from './WhatIf';
import { RefSelect, RefsPicker } from './RefPicker';
import { udfBody, udfFieldDefs, useUserFieldDefs } from './userFieldDefs';
import { RecordPanelNamed } from './recordPanels';
import { notify } from '../hooks/console';
import { useViewActor } from '../hooks/useViewActor';

const selValues = (s: ResourceFormSnapshot) => s.context.values;
const selViolations = (s: ResourceFormSnapshot) => s.context.violations;
const selError = (s: ResourceFormSnapshot) => s.context.error;
const selBusy = (s: ResourceFormSnapshot) => s.hasTag('busy');
const selLoading = (s: ResourceFormSnapshot) => s.matches('loading');
const selFailed = (s: ResourceFormSnapshot) => s.matches('failed');
const selSaving = (s: ResourceFormSnapshot) => s.matches('saving');

type ServerErrors = Record<string, string>;
const serverErrorsOf = (violations: Violation[]): ServerErrors => Object.fromEntries(violations.map((v) => [fieldName(v.field), v.message]));
/** What a date-time field says of a typed text that is no moment of the user's zone. */
const NOT_DATE_TIME = 'is not a date and time (e.g. 28 Nov 2026 14:05)';
const DATE_TIME_SKIPPED = 'is not a time in this time zone: the clocks skip it';
/** A violation message (server or schema, English) in the console's language. */
const sayViolation = (message: string, loc: Locale) => violationText(message, loc, (k, e) => tCat(k, e, loc));
/** A form-level error "<Label> <message>" (see formValues.errorsFrom) in the console's language. */
function sayError(text: string, def: FieldDef, loc: Locale): string {
  if (loc === 'en' || !text.startsWith(`${def.label} `)) return text;
  return labelled(labelOfField(def), sayViolation(text.slice(def.label.length + 1), loc), loc);
}

/** Whether a server violation lands on a field of this form (a plain field, or one of a repeated row's). */
export function isFormField(path: string, sections: Resource<{ id: number }>['form']): boolean {
  const name = fieldName(path);
  return sections.some((s) =>
    s.fields.some((f) =>
      isRepeat(f) ? f.fields.some((rf) => new RegExp(`^${f.repeat}\\[\\d+\\]\\.${rf.name}$`).test(name)) : f.name === name && f.kind !== 'hidden',
    ),
  );
}

/** The placeholder of a secret on an edit form (shown through tx). */
const KEEP_SECRET = 'Unchanged: type a new one to replace it';

function zones(): { label: string; value: string }[] {
  const list = (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.('timeZone') ?? ['UTC'];
  return (list.includes('UTC') ? list : ['UTC', ...list]).map((z) => ({ label: z, value: z }));
}

export function ResourceForm<T extends { id: number }>({ resource }: { resource: Resource<T> }) {
  const t = useT();
  const locale = useLocale();
  const words = resourceWords(resource);
  const navigate = useNavigate();
  const tabs = useSystemActor('tabs');
  const { params, path } = useRouteInfo();
  // a tenant's settings (a singleton) are one record, read and saved at the resource's path: the id only says "a record"
  const singleton = !!resource.declaration?.singleton;
  const id = singleton ? 1 : params.id !== undefined ? Number(params.id) : undefined;
  const editing = id !== undefined;
  const form = useViewActor(`form:${resource.name}`, { input: { id, resource: resource.name } });
  const loaded = useSelector(form, selValues) as T | null;
  const violations = useSelector(form, selViolations);
  const error = useSelector(form, selError);
  const busy = useSelector(form, selBusy);
  const loading = useSelector(form, selLoading);
  const failed = useSelector(form, selFailed);
  const saving = useSelector(form, selSaving);
  // a view holder on an edit route that opens to viewers (declaration screens.viewersOpen): the record, read-only
  const session = useSystemActor('session');
  const held = useSelector(session, selectHeldPrivileges);
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

  // a value the save answered once (a new API key): shown here to be copied; the form leaves when it is closed
  const [once, setOnce] = useState<{ shown: Record<string, string>; id: number } | null>(null);
  // saved: say so, back to the list, and this form's tab closes once the list is the current view
  const leave = useCallback(
    (id: number) => {
      navigate(!editing && resource.savedPath ? resource.savedPath(id) : resource.path);
      const watch = tabs.subscribe((s) => {
        if (s.context.currentPath !== path) {
          watch.unsubscribe();
          tabs.send({ type: 'tab.close', path });
        }
      });
    },
    [tabs, navigate, resource, path, editing],
  );
  // cancelled: back to the list, and this form's tab closes (a cancelled form is done with, like a saved one)
  const close = useCallback(() => {
    navigate(resource.path);
    const watch = tabs.subscribe((st) => {
      if (st.context.currentPath !== path) {
        watch.unsubscribe();
        tabs.send({ type: 'tab.close', path });
      }
    });
  }, [tabs, navigate, resource, path]);
  useEffect(() => {
    const sub = form.on('form.saved', (e) => {
      const w = resourceWords(resource);
      notify({
        intent: 'success',
        title: tx('{what} saved', { what: w.one }),
        message: editing ? tx('Your changes are saved.') : tx('The new {what} is saved.', { what: w.one.toLowerCase() }),
        timeoutMs: TOAST_MS,
      });
      if (e.shown) setOnce({ shown: e.shown, id: e.id });
      // settings stay open, read again as the server keeps them (their next save sends the new updatedAt)
      else if (singleton) form.send({ type: 'form.reload' });
      else leave(e.id);
    });
    return () => sub.unsubscribe();
  }, [form, resource, editing, leave, singleton]);
  // a record action done (Approve): say so, named by the record; the page shows the record as the server answered
  useEffect(() => {
    const sub = form.on('form.acted', (e) => {
      const declared = resource.declaration?.screens?.recordActions?.find((a) => a.action === e.action);
      const row = form.getSnapshot().context.values as T | null;
      if (declared) notify({ intent: 'success', title: tx(declared.done, { name: row ? resource.primary.value(row) : '' }), message: '', timeoutMs: TOAST_MS });
    });
    return () => sub.unsubscribe();
  }, [form, resource]);

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
  const [search] = useState(() => window.location.search);
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
    // a new row starts in a family the user may add
    if (writable && family && !writable.includes(String(v[family.field] ?? '')) && writable.length) v[family.field] = writable[0];
    return v;
  }, [editing, loaded, resource, extensible, search, writable, family]);

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
          description={error ?? undefined}
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
                  errors[f.name] = `${f.label} is required`;
              }
          if (defs.length) {
            const udf: Record<string, string> = {};
            for (const v of udfBody(defs, values.udf as Record<string, unknown> | undefined).violations) {
              const f = udfInputs.find((x) => x.name === v.field);
              if (f) udf[f.name.slice(4)] = `${f.label} ${v.message}`;
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
                {tx('Not saved:')} {unplaced.map((v) => sayViolation(v.message, locale)).join('; ')}
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
            <Dialog
              isOpen={!!once}
              title={tx('Shown only now')}
              icon="key"
              onClose={() => {
                const id = once!.id;
                setOnce(null);
                leave(id);
              }}
            >
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
                    <Button
                      intent="primary"
                      data-testid="shown-once-done"
                      onClick={() => {
                        const id = once!.id;
                        setOnce(null);
                        leave(id);
                      }}
                    >
                      {tx('I have copied it')}
                    </Button>
                  }
                />
              </div>
            </Dialog>
            <Alert
              isOpen={asking}
              intent="danger"
              icon="trash"
              cancelButtonText={tx('Keep editing')}
              confirmButtonText={tx('Discard changes')}
              onCancel={() => setAsking(false)}
              onConfirm={() => {
                setAsking(false);
                close();
              }}
              data-testid="discard-alert"
            >
              <p>{tx('Discard your changes to this {what}? What you typed is lost.', { what: words.one.toLowerCase() })}</p>
            </Alert>
          </form>
        )}
      />
    </div>
  );
}

type Options = Record<'divisions' | 'timezones', { label: string; value: string }[]>;

function FieldInput({
  def,
  name,
  serverErrors,
  options,
  compact,
}: {
  def: FieldDef;
  name: string;
  serverErrors: ServerErrors;
  options: Options;
  compact?: boolean;
}) {
  const kind = def.kind ?? 'text';
  const locale = useLocale(); // date pickers and their placeholder follow the console's language
  const phoneShape = useSelector(useSystemActor('session'), selectPhonePlaceholder); // one example number on every screen
  const zone = useDisplayZone(); // a date-time field is typed in the user's zone
  const { input, meta } = useField(name, {
    type: kind === 'switch' ? 'checkbox' : undefined,
    parse: def.upper ? (v: string) => (v ?? '').toUpperCase() : (v) => v,
    subscription: { value: true, error: true, touched: true, submitFailed: true, dirtySinceLastSubmit: true },
  });
  if (kind === 'hidden') return null;
  const clientError = meta.touched || meta.submitFailed ? (meta.error as string | undefined) : undefined;
  const shownLabel = labelOfField(def);
  const serverError = !meta.dirtySinceLastSubmit && serverErrors[name] ? labelled(shownLabel, sayViolation(serverErrors[name], locale), locale) : undefined;
  // a date-time typed that is no moment says why in its own words (the schema would ask for ISO 8601)
  const typed = kind === 'datetime' && clientError ? dateTimeProblem(input.value, locale, zone) : null;
  const message = typed
    ? labelled(shownLabel, sayViolation(typed === 'not a time in the zone' ? DATE_TIME_SKIPPED : NOT_DATE_TIME, locale), locale)
    : clientError
      ? sayError(clientError, def, locale)
      : serverError;
  const intent = message ? 'danger' : 'none';
  const id = `field-${name}`;
  const label = (
    <>
      {shownLabel}
      {def.required && (
        <span className="gh-required" aria-hidden>
          {' '}
          *
        </span>
      )}
    </>
  );
  const help = def.help ? (def.keys ? tCat(def.keys.help, def.help) : tx(def.help)) : undefined;
  const placeholder = def.phone
    ? phoneShape
    : def.placeholder === KEEP_SECRET
      ? tx('Unchanged: type a new one to replace it')
      : def.placeholder
        ? def.keys
          ? tCat(def.keys.placeholder, def.placeholder)
          : def.placeholder
        : undefined;
  let control;
  if (kind === 'switch') {
    control = <Switch {...input} id={id} checked={!!input.checked} label={shownLabel} />;
    return (
      <FormGroup className={`gh-field gh-field--switch${def.wide ? ' gh-field--wide' : ''}`} helperText={message} intent={intent}>
        {control}
      </FormGroup>
    );
  } else if (kind === 'select') {
    const opts = def.source ? options[def.source] : (def.options ?? []);
    control = (
      <HTMLSelect
        name={input.name}
        value={input.value ?? ''}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        id={id}
        fill
        aria-invalid={!!message}
        aria-required={def.required}
      >
        {(!def.required || def.source) && <option value="">{def.source ? tx('Choose…') : '—'}</option>}
        {opts.map((o) => (
          <option key={o.value} value={o.value}>
            {def.keys && !def.source ? tCat(def.keys.choice(o.value), o.label) : o.label}
          </option>
        ))}
      </HTMLSelect>
    );
  } else if (kind === 'ref') {
    control = (
      <RefSelect id={id} target={def.target!} value={input.value} onChange={input.onChange} onBlur={input.onBlur} required={def.required} invalid={!!message} />
    );
  } else if (kind === 'refs') {
    control = <RefsPicker id={id} target={def.target!} value={input.value} onChange={input.onChange} onBlur={input.onBlur} invalid={!!message} />;
  } else if (kind === 'image') {
    control = <ImageUpload id={id} value={input.value} onChange={input.onChange} maxBytes={def.maxBytes} invalid={!!message} />;
  } else if (kind === 'file') {
    control = <FileUpload id={id} value={input.value} onChange={input.onChange} maxBytes={def.maxBytes} invalid={!!message} />;
  } else if (kind === 'textarea') {
    control = <TextArea {...input} id={id} fill rows={3} intent={intent} aria-invalid={!!message} />;
  } else if (kind === 'datetime') {
    // the one date-time field: '28 Nov 2026 14:05' in the user's zone, never the browser's own picker
    control = (
      <DateTimeField
        name={input.name}
        value={input.value}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        id={id}
        intent={intent}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-required={def.required}
      />
    );
  } else if (kind === 'date') {
    // the one date field: '28 Nov 2026' as every screen shows dates, never the browser's own format
    control = (
      <DateField
        name={input.name}
        value={input.value}
        onChange={input.onChange}
        onBlur={input.onBlur}
        onFocus={input.onFocus}
        id={id}
        intent={intent}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-required={def.required}
      />
    );
  } else {
    control = (
      <InputGroup
        {...input}
        value={input.value ?? ''}
        id={id}
        type={def.writeOnly ? 'password' : kind === 'number' ? 'text' : kind === 'email' ? 'email' : 'text'}
        inputMode={kind === 'number' ? 'numeric' : undefined}
        intent={intent}
        placeholder={placeholder}
        aria-invalid={!!message}
        aria-required={def.required}
        className={def.upper ? 'gh-upper' : undefined}
        autoComplete="off"
      />
    );
  }
  return (
    <FormGroup
      label={label}
      labelFor={id}
      helperText={message ?? (compact ? undefined : (help ?? (kind === 'datetime' ? tx('In {zone}', { zone: zoneLabel(zone) }) : undefined)))}
      intent={intent}
      className={`gh-field${def.wide ? ' gh-field--wide' : ''}`}
    >
      {control}
    </FormGroup>
  );
}

/** A field shown only while another field of the form has one of `when.values` (it keeps its value when hidden). */
function ShownWhen({ when, children }: { when: { field: string; values: readonly string[] }; children: React.ReactNode }) {
  const { input } = useField(when.field, { subscription: { value: true } });
  return when.values.includes(String(input.value ?? '')) ? <>{children}</> : null;
}

/** Repeated rows without final-form-arrays: rows are the array value; add/remove rewrite it. */
function RepeatRows({ def, serverErrors, options }: { def: RepeatDef; serverErrors: ServerErrors; options: Options }) {
  const ff = useForm();
  const { values } = useFormState({ subscription: { values: true } });
  const rows = (getIn(values, def.repeat) as unknown[] | undefined) ?? [];
  const visible = def.fields.filter((f) => f.kind !== 'hidden');
  useLocale();
  const label = def.keys ? tCat(def.keys.label, def.label) : tx(def.label);
  const item = def.keys ? tCat(def.keys.itemLabel, def.itemLabel) : tx(def.itemLabel);
  return (
    <div className="gh-repeat gh-field--wide" data-testid={`repeat-${def.repeat}`}>
      {def.pins && typeof getIn(values, def.pins.image) === 'string' && getIn(values, def.pins.image) !== '' && (
        <PinBoard
          image={getIn(values, def.pins.image) as string}
          rows={rows as Record<string, unknown>[]}
          x={def.pins.x}
          y={def.pins.y}
          itemLabel={item}
          onPlace={(px, py) => ff.change(def.repeat, [...rows, { ...def.empty(), [def.pins!.x]: String(px), [def.pins!.y]: String(py) }])}
          onMove={(i, px, py) =>
            ff.batch(() => {
              ff.change(`${def.repeat}[${i}].${def.pins!.x}`, String(px));
              ff.change(`${def.repeat}[${i}].${def.pins!.y}`, String(py));
            })
          }
        />
      )}
      {rows.length === 0 && <p className="bp6-text-muted">{tx('No {what} yet.', { what: label.toLowerCase() })}</p>}
      {rows.map((_, i) => (
        <div className="gh-repeat__row" key={i} data-testid={`${def.repeat}-row`} role="group" aria-label={`${item} ${i + 1}`}>
          <span className="gh-repeat__index">{i + 1}</span>
          <div className="gh-repeat__fields" style={{ gridTemplateColumns: `repeat(${visible.length}, minmax(110px, 1fr))` }}>
            {def.fields.map((f) => (
              <FieldInput key={f.name} def={f} name={`${def.repeat}[${i}].${f.name}`} serverErrors={serverErrors} options={options} compact />
            ))}
          </div>
          <Button
            variant="minimal"
            intent="danger"
            icon="trash"
            aria-label={tx('Remove {what} {n}', { what: item.toLowerCase(), n: i + 1 })}
            onClick={() =>
              ff.change(
                def.repeat,
                rows.filter((__, j) => j !== i),
              )
            }
          />
        </div>
      ))}
      <Button icon="add" variant="outlined" onClick={() => ff.change(def.repeat, [...rows, def.empty()])} data-testid={`add-${def.repeat}`}>
        {tx('Add {what}', { what: item.toLowerCase() })}
      </Button>
    </div>
  );
}
