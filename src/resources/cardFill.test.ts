import { describe, expect, it } from 'vitest';
import type { MyKad } from '../../contract';
import { cardValues, photoDataUrl, planFill, splitCardName, titleCaseName, type FieldNow } from './cardFill';

describe('splitCardName', () => {
  it("splits a Malay name at binti: given name first, the father's name with the marker last", () => {
    expect(splitCardName('NURUL AINI BINTI ISMAIL')).toEqual({ firstName: 'Nurul Aini', lastName: 'binti Ismail' });
    expect(splitCardName('MUHAMMAD HAFIZ BIN ABDUL RAHMAN')).toEqual({ firstName: 'Muhammad Hafiz', lastName: 'bin Abdul Rahman' });
  });
  it('splits an Indian Malaysian name at a/l or a/p', () => {
    expect(splitCardName('KUMAR A/L SUPPIAH')).toEqual({ firstName: 'Kumar', lastName: 'a/l Suppiah' });
    expect(splitCardName('PRIYA A/P RAMASAMY')).toEqual({ firstName: 'Priya', lastName: 'a/p Ramasamy' });
  });
  it('takes the last word as the last name when there is no marker', () => {
    expect(splitCardName('JOHN MICHAEL SMITH')).toEqual({ firstName: 'John Michael', lastName: 'Smith' });
  });
  it('does not treat a marker at either end as one', () => {
    expect(splitCardName('BIN LADEN')).toEqual({ firstName: 'Bin', lastName: 'Laden' });
    expect(splitCardName('AHMAD BIN')).toEqual({ firstName: 'Ahmad', lastName: 'Bin' });
  });
  it('leaves the last name empty for a single word instead of inventing one', () => {
    expect(splitCardName('SUKARNO')).toEqual({ firstName: 'Sukarno', lastName: '' });
    expect(splitCardName('   ')).toEqual({ firstName: '', lastName: '' });
  });
  it('collapses extra spaces', () => {
    expect(splitCardName('  SITI   AISYAH  BINTI   OMAR ')).toEqual({ firstName: 'Siti Aisyah', lastName: 'binti Omar' });
  });
});

describe('titleCaseName', () => {
  it('capitalises after hyphens and apostrophes', () => {
    expect(titleCaseName("MARY-JANE O'NEIL")).toBe("Mary-Jane O'Neil");
    expect(titleCaseName('NURUL AINI BINTI ISMAIL')).toBe('Nurul Aini binti Ismail');
  });
  it('keeps letters outside ASCII', () => {
    expect(titleCaseName('ÉLODIE ÅSTRÖM')).toBe('Élodie Åström');
  });
});

const card: MyKad = {
  name: 'NURUL AINI BINTI ISMAIL',
  idNumber: '900214-10-5566',
  dateOfBirth: '1990-02-14',
  address: 'KL',
  photo: { name: 'p.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
};

describe('cardValues', () => {
  it('gives first and last name, ID number and the photo as a data URL', () => {
    expect(cardValues(card)).toEqual({
      firstName: 'Nurul Aini',
      lastName: 'binti Ismail',
      idNumber: '900214-10-5566',
      photo: 'data:image/png;base64,iVBORw0KGgo=',
    });
  });
  it('leaves out what the card does not give', () => {
    expect(cardValues({ ...card, name: 'SUKARNO', photo: null })).toEqual({ firstName: 'Sukarno', idNumber: '900214-10-5566' });
  });
  it("photoDataUrl uses the payload's MIME type", () => {
    expect(photoDataUrl({ name: 'a.jpg', mimeType: 'image/jpeg', data: 'AAAA' })).toBe('data:image/jpeg;base64,AAAA');
  });
});

describe('planFill: a card read never overwrites what the operator edited without asking', () => {
  const form = (fields: Record<string, FieldNow>) => (name: string) => fields[name];
  const incoming = { firstName: 'Nurul Aini', lastName: 'binti Ismail', idNumber: '900214-10-5566' };

  it('fills untouched fields at once', () => {
    const plan = planFill(
      incoming,
      form({ firstName: { value: '', dirty: false }, lastName: { value: undefined, dirty: false }, idNumber: { value: '', dirty: false } }),
    );
    expect(plan).toEqual({ apply: incoming, conflicts: [] });
  });
  it('asks before replacing a field the operator typed into', () => {
    const plan = planFill(
      incoming,
      form({ firstName: { value: 'Nurul', dirty: true }, lastName: { value: '', dirty: false }, idNumber: { value: '', dirty: false } }),
    );
    expect(plan.conflicts).toEqual([{ name: 'firstName', current: 'Nurul', incoming: 'Nurul Aini' }]);
    expect(plan.apply).toEqual({ lastName: 'binti Ismail', idNumber: '900214-10-5566' });
  });
  it('replaces without asking what an earlier read filled and nobody edited since', () => {
    const previous = { firstName: 'Kumar', lastName: 'a/l Suppiah', idNumber: '800101-14-1234' };
    const plan = planFill(
      incoming,
      form({ firstName: { value: 'Kumar', dirty: true }, lastName: { value: 'a/l Suppiah', dirty: true }, idNumber: { value: '800101-14-1234', dirty: true } }),
      previous,
    );
    expect(plan).toEqual({ apply: incoming, conflicts: [] });
  });
  it('asks when the operator edited a field after a read filled it', () => {
    const previous = { firstName: 'Nurul Aini' };
    const plan = planFill({ firstName: 'Siti' }, form({ firstName: { value: 'Nurul A.', dirty: true } }), previous);
    expect(plan.conflicts).toEqual([{ name: 'firstName', current: 'Nurul A.', incoming: 'Siti' }]);
  });
  it("does not ask about a field already holding the card's value, nor one the operator emptied", () => {
    const plan = planFill(
      incoming,
      form({ firstName: { value: 'Nurul Aini', dirty: true }, lastName: { value: '  ', dirty: true }, idNumber: { value: '', dirty: true } }),
    );
    expect(plan).toEqual({ apply: { lastName: 'binti Ismail', idNumber: '900214-10-5566' }, conflicts: [] });
  });
  it('fills a saved value that the operator has not touched (dirty is per edit, not per value)', () => {
    const plan = planFill({ idNumber: '900214-10-5566' }, form({ idNumber: { value: 'OLD-1', dirty: false } }));
    expect(plan).toEqual({ apply: { idNumber: '900214-10-5566' }, conflicts: [] });
  });
});
