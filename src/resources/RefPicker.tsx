// Pickers of catalogue references (a door's schedule, an access group's doors and members): the target's
// `<api>/options` answers up to 50 rows by search text and the labels of chosen ids, so a picker works the same
// over ten doors or 200,000 identities. The look-ups are the options actor's (machines/options.ts, systemId
// 'options'): the chosen ids of every picker on the page go in one request per target, a search is sent when typing
// pauses and a newer one stops it, labels are kept for the signed-in client only. A picker reads it through
// selectors and sends it events.
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { Button, ControlGroup, MenuItem } from '@blueprintjs/core';
import { MultiSelect, Select, type ItemRenderer } from '@blueprintjs/select';
import { useSelector } from '@xstate/react';
import { resourceByName } from '../../contract';
import type { PickOption } from '../../machines/options';
import {
  chosenApart,
  labelOf,
  optionRows,
  selectDetailsOf,
  selectEpoch,
  selectLabelsOf,
  selectNaming,
  selectSearchOf,
  shownOptions,
} from '../../machines/options.selectors';
import { useSystemActor } from '../hooks/useSystemActor';
import { tx } from '../i18n';

function apiOf(target: string): string {
  const d = resourceByName(target);
  if (!d) throw new Error(`No catalogue resource ${target}`);
  return d.api;
}

/** What is typed, the rows matching it (only while the list is open), and the labels of the chosen ids. */
function useOptions(target: string, open: boolean, chosen: readonly number[]) {
  const api = apiOf(target);
  const options = useSystemActor('options');
  const key = useId();
  const [query, setQuery] = useState(''); // visual: the text in the search box
  const typed = useRef(query); // latest: the search text, for the options subscription made once
  typed.current = query;
  const chosenKey = chosen.join(',');
  // named again after the cache is dropped (sign-out, another client) while this picker is still on screen
  const epoch = useSelector(options, selectEpoch);
  useEffect(() => {
    if (chosen.length) options.send({ type: 'options.label', api, ids: chosen });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [options, api, chosenKey, epoch]);
  useEffect(() => {
    if (!open) return;
    options.send({ type: 'options.open', key, api, q: typed.current });
    return () => options.send({ type: 'options.close', key });
  }, [options, open, key, api]);
  const labels = useSelector(
    options,
    useMemo(() => selectLabelsOf(api), [api]),
  );
  const details = useSelector(
    options,
    useMemo(() => selectDetailsOf(api), [api]),
  );
  const naming = useSelector(
    options,
    // eslint-disable-next-line react-hooks/exhaustive-deps -- chosenKey stands for chosen's ids (a new array each render)
    useMemo(() => selectNaming(api, chosen), [api, chosenKey]),
  );
  const search = useSelector(
    options,
    useMemo(() => selectSearchOf(key), [key]),
  );
  const { items, loading } = shownOptions(open ? search : undefined, query);
  const type = (q: string) => {
    setQuery(q);
    if (open) options.send({ type: 'options.search', key, api, q });
  };
  return { query, type, items, loading, labelOf: (id: number) => labelOf(labels, naming, id), apartOf: (id: number) => chosenApart(labels, details, id) };
}

// a title two rows share ('Abdullah, Priya' twice) shows what tells them apart beside it (employee no., division)
/** A chosen row's title, and what tells it apart when a namesake is known (issue 29: on the button, not only in the list). */
const chosenText = (label: string, apart: string | null) =>
  apart ? (
    <>
      {label}{' '}
      <span className="bp6-text-muted" data-testid="chosen-apart">
        {apart}
      </span>
    </>
  ) : (
    label
  );

const renderItem = (chosen: readonly number[], items: readonly PickOption[]): ItemRenderer<PickOption> => {
  const apart = new Map(optionRows(items).map((r) => [r.option.id, r.apart]));
  return (o, { handleClick, handleFocus, modifiers, ref }) => {
    const detail = apart.get(o.id);
    return modifiers.matchesPredicate ? (
      <MenuItem
        key={o.id}
        ref={ref}
        active={modifiers.active}
        disabled={modifiers.disabled}
        roleStructure="listoption"
        text={
          detail ? (
            <>
              {o.label}{' '}
              <span className="bp6-text-muted" data-testid="option-apart">
                {detail}
              </span>
            </>
          ) : (
            o.label
          )
        }
        selected={chosen.includes(o.id)}
        onClick={handleClick}
        onFocus={handleFocus}
      />
    ) : null;
  };
};

/** One reference: a button with the chosen row's name that opens a searchable list. */
export function RefSelect({
  id,
  target,
  value,
  onChange,
  onBlur,
  required,
  invalid,
}: {
  id: string;
  target: string;
  value: string | number | null | undefined;
  onChange: (v: string) => void;
  onBlur: () => void;
  required?: boolean;
  invalid?: boolean;
}) {
  const [open, setOpen] = useState(false); // visual: the list is open
  const chosen = value === '' || value === null || value === undefined ? null : Number(value);
  const chosenIds = useMemo(() => (chosen === null ? [] : [chosen]), [chosen]);
  const { query, type, items, loading, labelOf, apartOf } = useOptions(target, open, chosenIds);
  // Blueprint's filterable Select puts aria-expanded and aria-haspopup on its role-less wrapper <div>, where ARIA does
  // not allow them (axe aria-allowed-attr), with aria-controls naming a list that is not there while closed: they are
  // taken off there and said by the button that opens the list (which says no aria-required: a button has none)
  const box = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const wrapper = box.current?.firstElementChild;
    if (wrapper && !wrapper.getAttribute('role'))
      for (const a of ['aria-expanded', 'aria-haspopup', 'aria-disabled', 'aria-controls']) wrapper.removeAttribute(a);
  });
  const picker = (
    <span ref={box} className="gh-contents">
      <Select<PickOption>
        items={items}
        itemRenderer={renderItem(chosenIds, items)}
        filterable
        query={query}
        onQueryChange={type}
        onItemSelect={(o) => {
          onChange(String(o.id));
          onBlur();
        }}
        itemListPredicate={(_, xs) => xs}
        noResults={<MenuItem disabled roleStructure="listoption" text={loading ? tx('Loading…') : tx('No match')} />}
        inputProps={{ placeholder: tx('Search…') }}
        popoverProps={{
          minimal: true,
          matchTargetWidth: true,
          onOpening: () => setOpen(true),
          onClosed: () => {
            setOpen(false);
            onBlur();
          },
        }}
        fill
      >
        <Button
          id={id}
          fill
          alignText="start"
          endIcon="caret-down"
          intent={invalid ? 'danger' : 'none'}
          aria-invalid={invalid}
          aria-haspopup="listbox"
          aria-expanded={open}
          text={chosen === null ? tx('Choose…') : chosenText(labelOf(chosen), apartOf(chosen))}
          data-ref-target={target}
        />
      </Select>
    </span>
  );
  if (required || chosen === null) return picker;
  return (
    <ControlGroup fill>
      {picker}
      <Button
        icon="cross"
        variant="outlined"
        aria-label={tx('Clear')}
        onClick={() => {
          onChange('');
          onBlur();
        }}
      />
    </ControlGroup>
  );
}

/** Many references: tags of the chosen rows and a search box that adds more. */
export function RefsPicker({
  id,
  target,
  value,
  onChange,
  onBlur,
  invalid,
}: {
  id: string;
  target: string;
  value: unknown;
  onChange: (v: number[]) => void;
  onBlur: () => void;
  invalid?: boolean;
}) {
  const chosen = useMemo(() => (Array.isArray(value) ? value.map(Number) : []), [value]);
  const [open, setOpen] = useState(false); // visual: the list is open
  const { query, type, items, loading, labelOf, apartOf } = useOptions(target, open, chosen);
  const toggle = (o: PickOption) => onChange(chosen.includes(o.id) ? chosen.filter((x) => x !== o.id) : [...chosen, o.id]);
  return (
    <MultiSelect<PickOption>
      items={items}
      selectedItems={chosen.map((x) => ({ id: x, label: labelOf(x) }))}
      itemsEqual="id"
      itemRenderer={renderItem(chosen, items)}
      tagRenderer={(o) => chosenText(o.label, apartOf(o.id))}
      onItemSelect={toggle}
      query={query}
      onQueryChange={type}
      itemListPredicate={(_, xs) => xs}
      resetOnSelect={false}
      fill
      placeholder={tx('Search to add…')}
      onRemove={(o) => {
        onChange(chosen.filter((x) => x !== o.id));
        onBlur();
      }}
      onClear={chosen.length ? () => onChange([]) : undefined}
      noResults={<MenuItem disabled roleStructure="listoption" text={loading ? tx('Loading…') : tx('No match')} />}
      tagInputProps={{ inputProps: { id, 'aria-invalid': invalid } as never, intent: invalid ? 'danger' : 'none', tagProps: { minimal: true } }}
      popoverProps={{
        minimal: true,
        onOpening: () => setOpen(true),
        onClosed: () => {
          setOpen(false);
          onBlur();
        },
      }}
    />
  );
}
