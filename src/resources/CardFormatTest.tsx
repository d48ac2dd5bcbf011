// "Test a raw value" on the card format form (issue 12): the layout as typed so far decodes a raw Wiegand value —
// bits (0 and 1) or hex (0x…) — into its facility code and card number, or says which parity bit or length does not
// match. The same code decodes swipes on the server (contract/cardFormat.ts).
import { useState } from 'react';
import { Button, Callout, Card, FormGroup, H5, InputGroup } from '@blueprintjs/core';
import { useFormState } from 'react-final-form';
import { decodeWith, formatViolations, type CardFormat } from '../../contract/cardFormat';
import { getLocale, tCat, tx } from '../i18n';
import { violationText } from '../i18n/violations';

const num = (v: unknown) => (v === '' || v === null || v === undefined ? NaN : Number(v));

/** The form's values as a layout, or null while a number is missing. */
function layoutOf(values: Record<string, unknown>): Omit<CardFormat, 'id'> | null {
  const bits = num(values.bits);
  const card = { start: num(values.cardStart), length: num(values.cardLength) };
  if (![bits, card.start, card.length].every(Number.isInteger)) return null;
  const fs = num(values.facilityStart);
  const fl = num(values.facilityLength);
  const parity = ((values.parity as Record<string, unknown>[] | undefined) ?? []).map((p) => ({
    bit: num(p.bit),
    type: (p.type === 'odd' ? 'odd' : 'even') as 'even' | 'odd',
    over: { start: num(p.overStart), length: num(p.overLength) },
  }));
  if (parity.some((p) => ![p.bit, p.over.start, p.over.length].every(Number.isInteger))) return null;
  return {
    name: String(values.name || tx('This layout')),
    bits,
    facility: Number.isInteger(fs) && Number.isInteger(fl) ? { start: fs, length: fl } : null,
    card,
    parity,
  };
}

/** `0x…` hex as `bits` bits (leading zeros kept), else the text itself. */
export function rawBits(raw: string, bits: number): string {
  const t = raw.replace(/\s+/g, '');
  const hex = /^0x([0-9a-f]+)$/i.exec(t);
  if (!hex) return t;
  return BigInt(`0x${hex[1]}`).toString(2).padStart(bits, '0');
}

export function CardFormatTest() {
  const { values } = useFormState({ subscription: { values: true } });
  const [raw, setRaw] = useState(''); // visual: the raw card data typed
  const [answer, setAnswer] = useState<ReturnType<typeof decodeWith> | { ok: false; problem: string } | null>(null); // visual: the decode of what was typed (in the console, no request), shown until the next Test
  const test = () => {
    const layout = layoutOf(values as Record<string, unknown>);
    if (!layout) {
      setAnswer({ ok: false, problem: tx('Fill in the layout first') });
      return;
    }
    const wrong = formatViolations(layout);
    // the layout's own mistake, in the console's language (the form shows it on its field as well)
    if (wrong.length) {
      setAnswer({ ok: false, problem: tx('Fix the layout first: {problem}', { problem: violationText(wrong[0], getLocale(), (k, e) => tCat(k, e)) }) });
      return;
    }
    setAnswer(decodeWith(layout, rawBits(raw, layout.bits)));
  };
  return (
    <Card className="gh-form__section" compact data-testid="card-format-test">
      <H5>{tx('Test a raw value')}</H5>
      <p className="bp6-text-muted gh-form__desc">
        {tx('A value as a reader sends it, in bits (0 and 1) or hex (0x…), decoded with the layout above as it is now.')}
      </p>
      <FormGroup label={tx('Raw value')} labelFor="card-format-raw">
        <InputGroup
          id="card-format-raw"
          value={raw}
          onChange={(e) => {
            setRaw(e.currentTarget.value);
            setAnswer(null);
          }}
          className="bp6-monospace-text"
          placeholder="0x2D4E2B1 / 10110…"
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              test();
            }
          }}
          rightElement={
            <Button variant="minimal" icon="play" onClick={test} data-testid="card-format-decode">
              {tx('Decode')}
            </Button>
          }
        />
      </FormGroup>
      {answer &&
        (answer.ok ? (
          <Callout intent="success" icon="tick" data-testid="card-format-result">
            {tx('Facility code {facility}, card number {card}', { facility: answer.facility ?? '—', card: answer.card })}
          </Callout>
        ) : (
          <Callout intent="danger" icon="cross" data-testid="card-format-result">
            {'why' in answer && answer.why ? tx(answer.why.text, answer.why.vars) : answer.problem}
          </Callout>
        ))}
    </Card>
  );
}
