import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MyKad, MyKadReader } from '../../contract';
import { SAMPLE_MYKAD } from '../simulator/cardConnector';
import { startTestServer, type TestServer } from '../testkit';

let s: TestServer;
let bare: TestServer;
let card: MyKad | null = null;
let readers: MyKadReader[] = [{ name: 'Reader', connected: true, cardPresent: false }];

beforeAll(async () => {
  s = await startTestServer({ cardReader: { readers: () => readers, readCard: () => card } });
  bare = await startTestServer();
});
afterAll(async () => {
  await Promise.all([s.close(), bare.close()]);
});

describe('card-reader service on the server (/MyKad/*)', () => {
  it('answers without a bearer token, as a no-token path of §7', async () => {
    const list = await s.call('GET', '/MyKad/getReaderList');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ readers });
  });
  it('returns the card in the reader, and 404 with a reason without one', async () => {
    expect((await s.call('GET', '/MyKad/myKad')).body).toMatchObject({ status: 404, message: 'Insert an identity card into the reader', code: 'mykad.noCard' });
    card = SAMPLE_MYKAD;
    const read = await s.call('GET', '/MyKad/myKad');
    expect(read.status).toBe(200);
    expect(read.body.idNumber).toBe(SAMPLE_MYKAD.idNumber);
    readers = [];
    expect((await s.call('GET', '/MyKad/myKad')).body).toMatchObject({ status: 404, message: 'No card reader is connected', code: 'mykad.noReader' });
  });
  it('is not there when no card-connector simulator runs in-process', async () => {
    expect((await bare.call('GET', '/MyKad/getReaderList')).status).toBe(404);
  });
});
