// Issue 48: a value too long is said in Chinese by its key, whether the form's own check (the contract's schema in the
// browser) or the server's 400 found it: the violation travels whole (field, message, key, values) to the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, IdentityInput, identitiesResource, type Violation } from '../../contract';
import { startTestServer, type TestServer } from '../../server/testkit';
import { identities } from '../resources/identities';
import { validateForm, type FieldError } from '../resources/formValues';
import { isRepeat, type FieldDef } from '../resources/consoleResource';
import { sayError, sayViolation, serverErrorsOf } from '../resources/formMessages';
import { setLocale, tCat } from './index';
import { labelled } from './violations';

const firstName = identities.form.flatMap((s) => s.fields).find((f): f is FieldDef => !isRepeat(f) && f.name === 'firstName')!;
const MAX = identitiesResource.fields.firstName.max!;
const tooLong = 'x'.repeat(MAX + 1);
const identity = { firstName: tooLong, lastName: 'Lovelace', employeeNo: 'E-48', divisionId: 1, status: 'active', credentials: [] };

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
}, 60_000);
afterAll(async () => {
  await s?.close();
});

describe('a value too long, said in zh-CN', () => {
  const zh = () => labelled(tCat(firstName.keys!.label, firstName.label, 'zh-CN'), `不能超过 ${MAX} 个字符`, 'zh-CN');

  it('from the form’s own check (the contract’s schema in the browser)', async () => {
    const errors = validateForm(identity, identities.form, IdentityInput) as { firstName?: FieldError };
    expect(errors.firstName?.text).toBe(`First name must be at most ${MAX} characters`);
    // the violation itself, with its key and values, beside the English: said by them, not by its English
    expect(errors.firstName?.violation).toMatchObject({ code: 'text.tooLong', values: { max: MAX } });
    expect(sayError(errors.firstName!, firstName, 'en')).toBe(`First name must be at most ${MAX} characters`);
    await setLocale('zh-CN');
    expect(sayError(errors.firstName!, firstName, 'zh-CN')).toBe(zh());
    await setLocale('en');
  });

  it('from the server’s 400, its key and values in the answer', async () => {
    const token = await s.login('harbour'); // Harbour's administrator (a client of their own)
    const r = await s.call('POST', API.identities, { token, body: identity });
    expect(r.status).toBe(400);
    const v = (r.body.violations as Violation[]).find((x) => x.field === 'firstName');
    expect(v).toEqual({ field: 'firstName', message: `must be at most ${MAX} characters`, code: 'text.tooLong', values: { max: MAX } });
    const said = serverErrorsOf(r.body.violations as Violation[]).firstName;
    expect(labelled(tCat(firstName.keys!.label, firstName.label, 'zh-CN'), sayViolation(said, 'zh-CN'), 'zh-CN')).toBe(zh());
    expect(sayViolation(said, 'en')).toBe(`must be at most ${MAX} characters`);
  });
});
