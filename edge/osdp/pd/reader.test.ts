// Our reader simulator, driven with raw packets over a real pseudo-terminal pair: every NAK it gives, its sequence
// numbers, and install mode. What the controller does with each is in ../bus.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { BROADCAST, Command, Nak, Reply, Scs } from '../constants.js';
import { encodeFrame, recheck, type Frame } from '../frame.js';
import { LineReader } from '../line.js';
import { sealPacket } from '../channel.js';
import { clientCryptogram, hostCryptogram, initialRMac, SCBK_D, SecureSession, sessionKeys } from '../secure.js';
import { ptyPair, type PtyPair } from '../testkit.js';
import { Reader } from './reader.js';

let pty: PtyPair | undefined;
let pd: Reader | undefined;
let cp: LineReader | undefined;
afterEach(async () => {
  pd?.close();
  cp?.close();
  await pty?.close();
});

async function setup(opts: { scbk?: Buffer; inputs?: number[]; outputs?: number } = {}) {
  pty = await ptyPair();
  pd = new Reader(pty.b, { address: 5, ...opts });
  const replies: Frame[] = [];
  cp = new LineReader(pty.a, (e) => e.kind === 'frame' && replies.push(e.frame));
  const ask = async (packet: Buffer): Promise<Frame | undefined> => {
    const before = replies.length;
    pty!.a.write(packet);
    // every packet asked here has a reply: wait for it (a loaded machine, or a mutation run's instrumented code, took
    // longer than the 300 ms this once was); what must not be answered is checked by a later reply, never by a wait
    const end = performance.now() + 10_000;
    while (replies.length === before && performance.now() < end) await new Promise((r) => setTimeout(r, 5));
    return replies[before];
  };
  const cmd = (sqn: number, code: number, data: number[] = [], extra: { address?: number; crc?: boolean } = {}) =>
    encodeFrame({ address: extra.address ?? 5, sqn, code, data: Buffer.from(data), crc: extra.crc });
  return { ask, cmd };
}
const nakOf = (f: Frame | undefined) => (f?.code === Reply.NAK ? f.data[0] : undefined);

describe('the reader simulator', () => {
  it('answers ID, also at the broadcast address, and not at another address', async () => {
    const { ask, cmd } = await setup();
    expect((await ask(cmd(0, Command.ID, [0])))?.code).toBe(Reply.PDID);
    expect((await ask(cmd(0, Command.ID, [0], { address: BROADCAST })))?.code).toBe(Reply.PDID);
    // another address's packet is not answered: the next reply is the one to the next packet of ours (an answer to the
    // other's would come first, or make this POLL a repeat of its sequence number)
    pty!.a.write(cmd(1, Command.ID, [0], { address: 6 }));
    expect((await ask(cmd(1, Command.POLL)))?.code).toBe(Reply.ACK);
  });

  it('NAKs a bad CRC (1), a bad length (2), an unknown command (3) and a bad record (9)', async () => {
    const { ask, cmd } = await setup();
    const bad = cmd(0, Command.POLL);
    bad[bad.length - 1] ^= 0x55;
    expect(nakOf(await ask(bad))).toBe(Nak.CHECK);
    expect(nakOf(await ask(cmd(0, Command.POLL, [1, 2])))).toBe(Nak.LENGTH);
    expect(nakOf(await ask(cmd(1, 0x99)))).toBe(Nak.UNKNOWN_COMMAND);
    expect(nakOf(await ask(cmd(2, Command.BUZ, [0, 9, 1, 1, 1])))).toBe(Nak.RECORD);
    expect(nakOf(await ask(cmd(3, Command.TEXT, [0, 1, 0, 1, 1, 2, 0x41, 0x07])))).toBe(Nak.RECORD);
  });

  it('NAKs an unexpected sequence number (4) and resends its last reply to a repeated one', async () => {
    const { ask, cmd } = await setup();
    const first = await ask(cmd(0, Command.ID, [0]));
    expect(nakOf(await ask(cmd(2, Command.POLL)))).toBe(Nak.SEQUENCE);
    const again = await ask(cmd(0, Command.ID, [0]));
    expect(again?.raw.equals(first!.raw)).toBe(true);
    expect((await ask(cmd(1, Command.POLL)))?.code).toBe(Reply.ACK);
    pd!.presentCard('1011');
    const card = await ask(cmd(2, Command.POLL));
    expect(card?.code).toBe(Reply.RAW);
    // the repeat gets the card again, not a second read
    expect((await ask(cmd(2, Command.POLL)))?.raw.equals(card!.raw)).toBe(true);
    expect((await ask(cmd(3, Command.POLL)))?.code).toBe(Reply.ACK);
  });

  it('keeps its outputs as OUT sets them: permanent on and off, a timed on back to off, OSTATR reporting them; NAKs an output it does not have (9)', async () => {
    const { ask, cmd } = await setup({ outputs: 2 });
    const out = (sqn: number, records: number[]) => ask(cmd(sqn, Command.OUT, records));
    const ostat = async (sqn: number) => [...(await ask(cmd(sqn, Command.OSTAT)))!.data];
    expect((await ask(cmd(0, Command.OSTAT)))?.code).toBe(Reply.OSTATR);
    expect((await out(1, [1, 2, 0, 0]))?.code).toBe(Reply.ACK); // output 1 permanent on
    expect(await ostat(2)).toEqual([0, 1]);
    expect((await out(3, [1, 1, 0, 0, 0, 5, 2, 0]))?.code).toBe(Reply.ACK); // output 1 off; output 0 on for 200 ms
    expect(await ostat(1)).toEqual([1, 0]);
    const end = performance.now() + 10_000;
    while (pd!.outputs[0] !== 0 && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
    expect(await ostat(2)).toEqual([0, 0]);
    expect(nakOf(await out(3, [2, 2, 0, 0]))).toBe(Nak.RECORD);
    expect(await ostat(1)).toEqual([0, 0]);
  });

  it('tells an input change in the reply to the next POLL (ISTATR, every input), each change in order, and answers ISTAT with them now', async () => {
    const { ask, cmd } = await setup({ inputs: [1, 0] });
    expect([...(await ask(cmd(0, Command.ISTAT)))!.data]).toEqual([1, 0]);
    expect((await ask(cmd(1, Command.POLL)))?.code).toBe(Reply.ACK);
    pd!.setInput(0, 0);
    pd!.setInput(1, 1);
    pd!.setInput(1, 1); // no change: nothing to tell
    const first = await ask(cmd(2, Command.POLL));
    expect([first?.code, ...first!.data]).toEqual([Reply.ISTATR, 0, 0]);
    const second = await ask(cmd(3, Command.POLL));
    expect([second?.code, ...second!.data]).toEqual([Reply.ISTATR, 0, 1]);
    expect((await ask(cmd(1, Command.POLL)))?.code).toBe(Reply.ACK);
    expect([...(await ask(cmd(2, Command.ISTAT)))!.data]).toEqual([0, 1]);
  });

  it('NAKs a security block it does not know (5) and a secure command without a session (6)', async () => {
    const { ask } = await setup();
    const odd = encodeFrame({ address: 5, sqn: 0, code: Command.POLL, scb: { type: 0x20, data: Buffer.alloc(0) } });
    expect(nakOf(await ask(odd))).toBe(Nak.SCB_UNSUPPORTED);
    const mac = encodeFrame({ address: 5, sqn: 0, code: Command.POLL, scb: { type: Scs.CMD_MAC, data: Buffer.alloc(0) } }, () => Buffer.alloc(4));
    expect(nakOf(await ask(mac))).toBe(Nak.SECURITY);
  });

  it('in install mode opens the channel with SCBK-D, takes a KEYSET only inside it, then refuses plain text', async () => {
    const { ask, cmd } = await setup();
    expect(nakOf(await ask(cmd(0, Command.KEYSET, [1, 16, ...Array(16).fill(1)])))).toBe(Nak.SECURITY);
    const acu = Buffer.from('0102030405060708', 'hex');
    const chlng = encodeFrame({ address: 5, sqn: 0, code: Command.CHLNG, data: acu, scb: { type: Scs.CHLNG, data: Buffer.from([0]) } });
    const cc = (await ask(chlng))!;
    expect(cc.code).toBe(Reply.CCRYPT);
    const pdRandom = cc.data.subarray(8, 16);
    const keys = sessionKeys(SCBK_D, acu);
    expect(cc.data.subarray(16).equals(clientCryptogram(keys.sEnc, acu, pdRandom))).toBe(true);
    const hc = hostCryptogram(keys.sEnc, acu, pdRandom);
    const rm = (await ask(encodeFrame({ address: 5, sqn: 1, code: Command.SCRYPT, data: hc, scb: { type: Scs.SCRYPT, data: Buffer.from([0]) } })))!;
    expect(rm.code).toBe(Reply.RMAC_I);
    expect(rm.data.equals(initialRMac(keys, hc))).toBe(true);
    const session = new SecureSession(keys, rm.data);
    const key = Buffer.alloc(16, 0x42);
    const ack = (await ask(sealPacket(session, 'command', { address: 5, sqn: 2, code: Command.KEYSET, data: Buffer.from([1, 16, ...key]) })))!;
    expect(ack.scb?.type).toBe(Scs.REPLY_MAC);
    expect(pd!.paired).toBe(true);
    // paired: plain text is refused, and so is SCBK-D
    expect(nakOf(await ask(cmd(3, Command.POLL)))).toBe(Nak.SECURITY);
    expect(nakOf(await ask(encodeFrame({ ...chlngSpec(acu), sqn: 0 })))).toBe(Nak.SECURITY);
  });

  it('NAKs a wrong host cryptogram and a forged MAC with 6, and ends the session', async () => {
    const { ask } = await setup({ scbk: Buffer.alloc(16, 9) });
    const acu = Buffer.alloc(8, 1);
    const cc = (await ask(encodeFrame({ address: 5, sqn: 0, code: Command.CHLNG, data: acu, scb: { type: Scs.CHLNG, data: Buffer.from([1]) } })))!;
    expect(cc.code).toBe(Reply.CCRYPT);
    expect(
      nakOf(await ask(encodeFrame({ address: 5, sqn: 1, code: Command.SCRYPT, data: Buffer.alloc(16), scb: { type: Scs.SCRYPT, data: Buffer.from([1]) } }))),
    ).toBe(Nak.SECURITY);
    const keys = sessionKeys(Buffer.alloc(16, 9), acu);
    const cc2 = (await ask(encodeFrame({ address: 5, sqn: 0, code: Command.CHLNG, data: acu, scb: { type: Scs.CHLNG, data: Buffer.from([1]) } })))!;
    const hc = hostCryptogram(keys.sEnc, acu, cc2.data.subarray(8, 16));
    await ask(encodeFrame({ address: 5, sqn: 1, code: Command.SCRYPT, data: hc, scb: { type: Scs.SCRYPT, data: Buffer.from([1]) } }));
    expect(pd!.secure).toBe(true);
    const session = new SecureSession(keys, initialRMac(keys, hc));
    const poll = Buffer.from(sealPacket(session, 'command', { address: 5, sqn: 2, code: Command.POLL }));
    poll[poll.length - 4] ^= 1;
    expect(nakOf(await ask(recheck(poll)))).toBe(Nak.SECURITY);
    expect(pd!.secure).toBe(false);
  });
});

const chlngSpec = (acu: Buffer) => ({ address: 5, code: Command.CHLNG, data: acu, scb: { type: Scs.CHLNG, data: Buffer.from([0]) } });
