// Pickers of catalogue references (a door's schedule, an access group's doors and members): the target's
// `<api>/options` answers up to 50 rows by search text and the labels of chosen ids, so a picker works the same
// over ten doors or 200,000 identities. One answer per typed pause (debounced); labels seen once are kept per
// target so chosen rows show their names without asking again.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, ControlGroup, MenuItem } from '@blueprintjs/core';
import { MultiSelect, Select, type ItemRenderer } from '@blueprintjs/select';
import { resourceByName } from '../../contract';
import { optionsOf, type PickOption } from '../api/endpoints';
import { createOptionLabels } from '../api/optionLabels';
import { tx } from '../i18n';
import { useTask } from '../ui/useTask';

// the chosen rows' labels of every picker on the page, asked for in batches (one request per target per tick)
const optionLabels = createOptionLabels((api, ids) => optionsOf(api, { ids }));

function apiOf(target: string): string {
  const d = resourceByName(target);
  if (!d) throw new Error(`No catalogue resource ${target}`);
  return d.api;
}

function useDebounced<T>(value: T, ms: number): T {
  const [v, setV] = useState(value);
  useEffect(() => { const t = setTimeout(() => setV(value), ms); return () => clearTimeout(t); }, [value, ms]);
  return v;
}

/** The rows matching what is typed (only while the list is open), and the labels of the chosen ids. */
function useOptions(target: string, query: string, open: boolean, chosen: readonly number[]) {
  const api = apiOf(target);
  const q = useDebounced(query, 200);
  const found = useTask(open ? () => optionsOf(api, { q }).then((r) => { optionLabels.remember(api, r.items); return r.items; }) : null, [api, q, open]);
  const missing = chosen.filter((id) => optionLabels.label(api, id) === undefined);
  const named = useTask(missing.length ? () => optionLabels.load(api, missing) : null, [api, missing.join(',')]);
  const labelOf = (id: number) => optionLabels.label(api, id) ?? (named.status === 'active' ? '…' : `#${id}`);
  // while the answer for the new text is on its way, the last answer stays, narrowed to the rows whose label holds
  // what is typed: the list never blinks to "Loading…" under a pointer about to click a row that is still right
  const last = useRef<PickOption[]>([]);
  if (found.output) last.current = found.output;
  const typed = query.trim().toLowerCase();
  const items = found.output && q === query ? found.output : last.current.filter((o) => o.label.toLowerCase().includes(typed));
  return { items, loading: found.status === 'active' || q !== query, labelOf };
}

const renderItem = (chosen: readonly number[]): ItemRenderer<PickOption> => (o, { handleClick, handleFocus, modifiers, ref }) => (
  modifiers.matchesPredicate
    ? <MenuItem key={o.id} ref={ref} text={o.label} active={modifiers.active} disabled={modifiers.disabled} roleStructure="listoption"
        selected={chosen.includes(o.id)} onClick={handleClick} onFocus={handleFocus} />
    : null
);

/** One reference: a button with the chosen row's name that opens a searchable list. */
export function RefSelect({ id, target, value, onChange, onBlur, required, invalid }: {
  id: string; target: string; value: string | number | null | undefined; onChange: (v: string) => void; onBlur: () => void; required?: boolean; invalid?: boolean;
}) {
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const chosen = value === '' || value === null || value === undefined ? null : Number(value);
  const chosenIds = useMemo(() => (chosen === null ? [] : [chosen]), [chosen]);
  const { items, loading, labelOf } = useOptions(target, query, open, chosenIds);
  const picker = (
    <Select<PickOption> items={items} itemRenderer={renderItem(chosenIds)} filterable query={query} onQueryChange={setQuery}
      onItemSelect={(o) => { onChange(String(o.id)); onBlur(); }} itemListPredicate={(_, xs) => xs}
      noResults={<MenuItem disabled roleStructure="listoption" text={loading ? tx('Loading…') : tx('No match')} />}
      inputProps={{ placeholder: tx('Search…') }} popoverProps={{ minimal: true, matchTargetWidth: true, onOpening: () => setOpen(true), onClosed: () => { setOpen(false); onBlur(); } }} fill>
      <Button id={id} fill alignText="start" endIcon="caret-down" intent={invalid ? 'danger' : 'none'} aria-invalid={invalid} aria-required={required}
        text={chosen === null ? tx('Choose…') : labelOf(chosen)} data-ref-target={target} />
    </Select>
  );
  if (required || chosen === null) return picker;
  return (
    <ControlGroup fill>
      {picker}
      <Button icon="cross" variant="outlined" aria-label={tx('Clear')} onClick={() => { onChange(''); onBlur(); }} />
    </ControlGroup>
  );
}

/** Many references: tags of the chosen rows and a search box that adds more. */
export function RefsPicker({ id, target, value, onChange, onBlur, invalid }: {
  id: string; target: string; value: unknown; onChange: (v: number[]) => void; onBlur: () => void; invalid?: boolean;
}) {
  const chosen = useMemo(() => (Array.isArray(value) ? value.map(Number) : []), [value]);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const { items, loading, labelOf } = useOptions(target, query, open, chosen);
  const toggle = (o: PickOption) => onChange(chosen.includes(o.id) ? chosen.filter((x) => x !== o.id) : [...chosen, o.id]);
  return (
    <MultiSelect<PickOption> items={items} selectedItems={chosen.map((x) => ({ id: x, label: labelOf(x) }))} itemsEqual="id"
      itemRenderer={renderItem(chosen)} tagRenderer={(o) => o.label} onItemSelect={toggle} query={query} onQueryChange={setQuery}
      itemListPredicate={(_, xs) => xs} resetOnSelect={false} fill placeholder={tx('Search to add…')}
      onRemove={(o) => { onChange(chosen.filter((x) => x !== o.id)); onBlur(); }}
      onClear={chosen.length ? () => onChange([]) : undefined}
      noResults={<MenuItem disabled roleStructure="listoption" text={loading ? tx('Loading…') : tx('No match')} />}
      tagInputProps={{ inputProps: { id, 'aria-invalid': invalid } as never, intent: invalid ? 'danger' : 'none', tagProps: { minimal: true } }}
      popoverProps={{ minimal: true, onOpening: () => setOpen(true), onClosed: () => { setOpen(false); onBlur(); } }} />
  );
}
