import { describe, expect, it } from 'vitest';
import { IdentityInput } from '../../contract';
import { errorsFrom, fieldName, toBody, validateForm } from './formValues';
import { identities } from './identities';

describe('form values and the contract', () => {
  it('names nested fields the way final-form does', () => {
    expect(fieldName('credentials.0.number')).toBe('credentials[0].number');
    expect(fieldName('firstName')).toBe('firstName');
  });

  it('builds the body from declared fields only, empty optionals as null and numbers as numbers', () => {
    const body = toBody({ firstName: ' Ada ', lastName: 'Lovelace', employeeNo: 'E-1', email: '', divisionId: '3', status: 'active', extra: 'x',
      credentials: [{ type: 'card', number: 'ABC', facilityCode: '' }] }, identities.form);
    expect(body).toMatchObject({ firstName: 'Ada', email: null, divisionId: 3, credentials: [{ type: 'card', number: 'ABC', facilityCode: null }] });
    expect(body).not.toHaveProperty('extra');
  });

  it('maps violations to nested errors with the field label and the mapped message', () => {
    const errors = errorsFrom([{ field: 'credentials.1.number', message: 'has the wrong format' }, { field: 'firstName', message: 'is required' }], identities.form);
    expect(errors).toEqual({ firstName: 'First name is required', credentials: [undefined, { number: 'Number has the wrong format' }] });
  });

  it('validates with the schema: a bad credential number is an error on its row', () => {
    const errors = validateForm({ firstName: 'A', lastName: 'B', employeeNo: 'E1', divisionId: 1, status: 'active',
      credentials: [{ type: 'card', number: 'ok-1' }] }, identities.form, IdentityInput) as { credentials?: { number?: string }[] };
    expect(errors.credentials?.[0]?.number).toMatch(/Number/);
  });
});
