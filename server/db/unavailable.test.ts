// What answers 503 (the database cannot take the request now) and what is a fault of ours (500, to mend): a statement
// our code built wrong must not be said to the operator as a full disk (GET interface-settings?q=… was, 2026-12-04).
import { expect, it } from 'vitest';
import { isDatabaseUnavailable } from './db';

it('says a full disk, a read-only database and a lost connection are unavailability, and a protocol violation is not', () => {
  for (const code of ['53100', '58030', '57P01', '57P03', '08006', '08003', '25006', 'ENOSPC', 'ECONNRESET'])
    expect([code, isDatabaseUnavailable({ code, message: 'x' })]).toEqual([code, true]);
  for (const code of ['08P01', '42703', '22P02', '23505', '42883'])
    expect([code, isDatabaseUnavailable({ code, message: 'bind message supplies 2 parameters, but prepared statement "" requires 1' })]).toEqual([code, false]);
});
