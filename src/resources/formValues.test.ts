import { describe, expect, it } from 'vitest';
import { IdentityInput, clientToday, todayInZone } from '../../contract';
import { getClientToday, getDisplayZone, setClientZone, setDisplayZone } from '../ui/time';
import { today as visitorsToday } from './visitors';
import { errorsFrom, fieldName, toBody, validateForm, type FieldError } from './formValues';
import { identities } from './identities';
import { consoleResource } from './registry';

describe('form values and the contract', () => {
  it('names nested fields the way final-form does', () => {
    expect(fieldName('credentials.0.number')).toBe('credentials[0].number');
    expect(fieldName('firstName')).toBe('firstName');
  });

  it('builds the body from declared fields only, empty optionals as null and numbers as numbers', () => {
    const body = toBody(
      {
        firstName: ' Ada ',
        lastName: 'Lovelace',
        employeeNo: 'E-1',
        email: '',
        divisionId: '3',
        status: 'active',
        extra: 'x',
        credentials: [{ type: 'card', number: 'ABC', facilityCode: '' }],
      },
      identities.form,
    );
    expect(body).toMatchObject({ firstName: 'Ada', email: null, divisionId: 3, credentials: [{ type: 'card', number: 'ABC', facilityCode: null }] });
    expect(body).not.toHaveProperty('extra');
  });

  it('maps violations to nested errors with the field label and the mapped message', () => {
    const errors = errorsFrom(
      [
        { field: 'credentials.1.number', message: 'has the wrong format' },
        { field: 'firstName', message: 'is required' },
      ],
      identities.form,
    );
    // each error its English and the violation it says (issue 48: the field says it by the violation, not its English)
    expect(errors).toEqual({
      firstName: { text: 'First name is required', violation: { field: 'firstName', message: 'is required' } },
      credentials: [
        undefined,
        { number: { text: 'Number has the wrong format', violation: { field: 'credentials.1.number', message: 'has the wrong format' } } },
      ],
    });
  });

  it('validates with the schema: a bad credential number is an error on its row', () => {
    const errors = validateForm(
      { firstName: 'A', lastName: 'B', employeeNo: 'E1', divisionId: 1, status: 'active', credentials: [{ type: 'card', number: 'ok-1' }] },
      identities.form,
      IdentityInput,
    ) as { credentials?: { number?: FieldError }[] };
    expect(errors.credentials?.[0]?.number?.text).toMatch(/Number/);
  });

  it('refuses a required field left empty where the request may leave it out (a settings form): it would keep its old value', () => {
    const central = consoleResource('centralProperties');
    const values = { eventRetentionDays: '', visitorRetentionDays: '30' };
    expect(toBody(values, central.form)).not.toHaveProperty('eventRetentionDays');
    const errors = validateForm(values, central.form, central.input, central.declaration) as Record<string, FieldError>;
    expect(errors.eventRetentionDays.text).toBe('Keep events for (days) is required');
    expect(errors.visitorRetentionDays).toBeUndefined();
    // a repeated row's required field too, named on its row
    const schedules = consoleResource('schedules');
    const rows = validateForm({ name: 'S', windows: [{ day: 'mon', start: '09:00', end: '' }] }, schedules.form, schedules.input, schedules.declaration) as {
      windows?: { end?: FieldError }[];
    };
    expect(rows.windows?.[0]?.end?.text).toBe('End is required');
  });

  it('sends picked references as ids: one per row, many as a list, an optional one left empty as null', () => {
    const groups = consoleResource('accessGroups');
    const body = toBody({ name: 'Night crew', description: '', doors: [{ id: undefined, doorId: '4', scheduleId: '7' }], members: ['12', 15] }, groups.form);
    expect(body).toMatchObject({ name: 'Night crew', description: null, doors: [{ doorId: 4, scheduleId: 7 }], members: [12, 15] });
    const doors = consoleResource('doors');
    expect(toBody({ name: 'D', mode: 'card', entryZoneId: '', exitZoneId: '3' }, doors.form)).toMatchObject({ entryZoneId: null, exitZoneId: 3 });
  });

  it('starts a new row and a new record from the declared defaults', () => {
    const formats = consoleResource('cardFormats');
    const layout = formats.form[0].fields.find((f) => !('repeat' in f) && f.name === 'bits') as { default?: unknown };
    expect(layout.default).toBe(26);
    const parity = formats.form[1].fields[0] as { empty: () => Record<string, unknown> };
    expect(parity.empty()).toEqual({ bit: '0', type: 'even', overStart: '1', overLength: '12' });
    const dates = consoleResource('specialDates');
    expect((dates.form[0].fields.find((f) => !('repeat' in f) && f.name === 'yearly') as { default?: unknown }).default).toBe(false);
  });

  it("refuses a visit day before today on both visit forms, on the field, with the server's words; an edit is not held to it (issue 29)", () => {
    for (const name of ['visitors', 'visitRequests']) {
      const r = consoleResource(name);
      const values = { firstName: 'Ola', lastName: 'Berg', hostName: 'Ben Brown', purpose: 'meeting', visitDate: '2026-11-27' };
      const added = validateForm(values, r.form, r.input, r.declaration, '2026-11-28') as { visitDate?: FieldError };
      expect(added.visitDate?.text, name).toMatch(/must not be before today \(2026-11-28\)/);
      expect(
        (validateForm({ ...values, visitDate: '2026-11-28' }, r.form, r.input, r.declaration, '2026-11-28') as { visitDate?: FieldError }).visitDate,
        name,
      ).toBeUndefined();
      expect(
        (validateForm({ ...values, visitDate: '2028-01-01' }, r.form, r.input, r.declaration, '2026-11-28') as { visitDate?: FieldError }).visitDate?.text,
        name,
      ).toMatch(/within a year/);
      expect((validateForm(values, r.form, r.input, r.declaration) as { visitDate?: FieldError }).visitDate, name).toBeUndefined();
    }
  });

  it("counts a visit's day from today in the client's zone, as the server does, not the viewer's (issue 29)", () => {
    // the viewer reads times in Pago Pago (−11), the client keeps its days in Kiritimati (+14): always a day apart
    const viewing = getDisplayZone();
    setDisplayZone('Pacific/Pago_Pago');
    setClientZone('Pacific/Kiritimati');
    try {
      const now = Date.now();
      const clientDay = clientToday('Pacific/Kiritimati', now);
      const viewerDay = todayInZone('Pacific/Pago_Pago', now);
      expect(viewerDay < clientDay).toBe(true);
      expect(getClientToday(now)).toBe(clientDay);
      expect(visitorsToday()).toBe(clientDay); // Register visitor starts on the client's day too
      const r = consoleResource('visitors');
      const values = { firstName: 'Ola', lastName: 'Berg', hostName: 'Ben Brown', purpose: 'meeting', visitDate: viewerDay };
      expect((validateForm(values, r.form, r.input, r.declaration, getClientToday(now)) as { visitDate?: FieldError }).visitDate?.text).toMatch(
        new RegExp(`must not be before today \\(${clientDay}\\)`),
      );
    } finally {
      setClientZone(null);
      setDisplayZone(viewing);
    }
  });

  it("names each field whole in its message: two 'first bit' fields of a card format stay apart (issue 29)", () => {
    const formats = consoleResource('cardFormats');
    const errors = validateForm(
      {
        name: 'Odd',
        bits: '26',
        facilityStart: '200',
        facilityLength: '8',
        cardStart: '300',
        cardLength: '16',
        parity: [{ bit: '0', type: 'even', overStart: '999', overLength: '12' }],
      },
      formats.form,
      formats.input,
      formats.declaration,
    ) as Record<string, unknown>;
    const text = (e: unknown) => (e as FieldError | undefined)?.text;
    expect(text(errors.facilityStart)).toBe('Facility code: first bit must be at most 127');
    expect(text(errors.cardStart)).toBe('Card number: first bit must be at most 127');
    expect(text((errors.parity as Record<string, unknown>[])[0].overStart)).toBe('Over: first bit must be at most 127');
    // the server's violations land the same way
    expect(
      errorsFrom(
        [
          { field: 'facilityStart', message: 'must be at least 0' },
          { field: 'parity.0.bit', message: 'must be at most 127' },
        ],
        formats.form,
      ),
    ).toMatchObject({
      facilityStart: { text: 'Facility code: first bit must be at least 0' },
      parity: [{ bit: { text: expect.stringMatching(/ must be at most 127$/) } }],
    });
  });
});
