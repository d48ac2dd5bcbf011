// The record behind a resource form: its resourceForm actor (load, save, record actions) and what the form reads of
// it, the toasts of a save and of a record action, and where the form goes when it is done (saved or cancelled: back
// to the list, and the form's tab closes once the list is the current view).
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSelector } from '@xstate/react';
import { TOAST_MS } from '../../contract';
import type { ResourceFormSnapshot } from '../../machines/resourceForm';
import { useRouteInfo } from '../app/RouteContext';
import { useSystemActor } from '../hooks/useSystemActor';
import { useViewActor } from '../hooks/useViewActor';
import { notify } from '../hooks/console';
import { tx } from '../i18n';
import { resourceWords, type Resource } from './consoleResource';
import type { ShownOnce } from './ShownOnceDialog';

const selValues = (s: ResourceFormSnapshot) => s.context.values;
const selViolations = (s: ResourceFormSnapshot) => s.context.violations;
const selError = (s: ResourceFormSnapshot) => s.context.error;
const selBusy = (s: ResourceFormSnapshot) => s.hasTag('busy');
const selLoading = (s: ResourceFormSnapshot) => s.matches('loading');
const selFailed = (s: ResourceFormSnapshot) => s.matches('failed');
const selSaving = (s: ResourceFormSnapshot) => s.matches('saving');

export function useFormRecord<T extends { id: number }>(resource: Resource<T>, id: number | undefined, singleton: boolean) {
  const editing = id !== undefined;
  const navigate = useNavigate();
  const tabs = useSystemActor('tabs');
  const { path } = useRouteInfo();
  const form = useViewActor(`form:${resource.name}`, { input: { id, resource: resource.name } });
  const loaded = useSelector(form, selValues) as T | null;
  const violations = useSelector(form, selViolations);
  const error = useSelector(form, selError);
  const busy = useSelector(form, selBusy);
  const loading = useSelector(form, selLoading);
  const failed = useSelector(form, selFailed);
  const saving = useSelector(form, selSaving);

  // a value the save answered once (a new API key): shown here to be copied; the form leaves when it is closed
  const [once, setOnce] = useState<ShownOnce | null>(null); // visual: a secret the save answered, shown once to be copied; kept out of the actor so the journal never holds it
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
      // a value the action answered once (a controller's new edge key): shown to be copied, the page stays
      if (e.shown) setOnce({ shown: e.shown, id: Number((row as { id?: number } | null)?.id ?? 0), stay: true });
    });
    return () => sub.unsubscribe();
  }, [form, resource]);

  return { form, loaded, violations, error, busy, loading, failed, saving, once, setOnce, leave, close };
}
