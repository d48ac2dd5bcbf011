// The OSDP readers' panel selectors (issue 46): the secure channel in an installer's words, counters in a fixed order
// with errors flagged, capabilities by the standard's names, why the list is empty, and who is offered Re-pair.
import { describe, expect, it } from 'vitest';
import { OSDP_CHANNEL_STATES, PRIV, type OsdpReaderRow } from '../contract';
import { CHANNEL_SHOWN, capabilitiesOf, countersOf, emptyReasonOf, errorCount, mayRepair, needsLook, vendorOf } from './osdpReaders.selectors';

const reader = (over: Partial<OsdpReaderRow> = {}): OsdpReaderRow => ({
  address: 1,
  state: 'online',
  channel: 'secure',
  identity: { vendor: '0a0b0c', model: 2, version: 1, serial: 123456, firmware: '1.4.2' },
  capabilities: [
    { function: 4, name: 'readerLedControl', compliance: 1, count: 1 },
    { function: 1, name: 'contactStatusMonitoring', compliance: 1, count: 2 },
    { function: 99, name: 'function99', compliance: 0, count: 0 },
  ],
  tamper: false,
  power: false,
  counters: { commands: 10, replies: 10, timeouts: 0, crc: 0, naks: 0, secureChannel: 0, retries: 0 },
  reason: null,
  cardReader: { id: 7, name: 'Lobby entry' },
  ...over,
});

describe('OSDP reader selectors', () => {
  it('says every channel state of the edge as paired / secure / refused words with an intent', () => {
    expect(CHANNEL_SHOWN.secure).toMatchObject({ label: 'Secure', intent: 'success' });
    expect(CHANNEL_SHOWN.paired.label).toBe('Paired');
    expect(CHANNEL_SHOWN.refused).toMatchObject({ label: 'Refused', intent: 'danger' });
    expect(Object.keys(CHANNEL_SHOWN).sort()).toEqual([...OSDP_CHANNEL_STATES].sort());
  });

  it('lists CRC, NAK, timeouts and secure channel failures first, even when the edge sent none of them, and flags errors', () => {
    const shown = countersOf(reader({ counters: { commands: 5, crc: 2, zebra: 1 } }));
    expect(shown.slice(0, 4).map((c) => [c.key, c.value])).toEqual([
      ['crc', 2],
      ['naks', 0],
      ['timeouts', 0],
      ['secureChannel', 0],
    ]);
    expect(shown.map((c) => c.key)).toEqual(['crc', 'naks', 'timeouts', 'secureChannel', 'commands', 'zebra']);
    expect(shown.find((c) => c.key === 'crc')!.alert).toBe(true);
    expect(shown.find((c) => c.key === 'commands')!.alert).toBe(false);
    expect(errorCount(reader({ counters: { crc: 2, naks: 1, commands: 50, retries: 4 } }))).toBe(3);
  });

  it('names capabilities by function code in order, keeping the edge’s name for an unknown code, and sizes in bytes', () => {
    expect(capabilitiesOf(reader()).map((c) => c.label)).toEqual(['Contact status monitoring', 'LED control', 'function99']);
    // the receive buffer's size in bytes: compliance is its low byte, count its high one (§7.5)
    expect(capabilitiesOf(reader({ capabilities: [{ function: 10, name: 'receiveBufferSize', compliance: 0x80, count: 2 }] }))[0]).toMatchObject({
      bytes: 640,
    });
    expect(capabilitiesOf(reader())[0].bytes).toBeNull();
  });

  it('writes the vendor OUI with dashes, and none without an identity', () => {
    expect(vendorOf(reader())).toBe('0A-0B-0C');
    expect(vendorOf(reader({ identity: null }))).toBeNull();
  });

  it('tells a controller without Gatehouse Edge from one that never reported and one that reported no reader', () => {
    expect(emptyReasonOf({ edge: false, reportedAt: null, readers: [] })).toBe('not-edge');
    expect(emptyReasonOf({ edge: true, reportedAt: null, readers: [] })).toBe('never-reported');
    expect(emptyReasonOf({ edge: true, reportedAt: '2026-12-02T10:00:00.000Z', readers: [] })).toBe('none-reported');
    expect(emptyReasonOf({ edge: true, reportedAt: '2026-12-02T10:00:00.000Z', readers: [reader()] })).toBeNull();
  });

  it('offers Re-pair only to holders of edit card readers, and only for a reader with a card reader record', () => {
    expect(mayRepair(new Set([PRIV.cardReaders.edit]), reader())).toBe(true);
    expect(mayRepair(new Set([PRIV.cardReaders.view, PRIV.controllers.view]), reader())).toBe(false);
    expect(mayRepair(new Set([PRIV.cardReaders.edit]), reader({ cardReader: null }))).toBe(false);
  });

  it('marks a reader that needs a look: offline, refused, tamper, power failure or errors counted', () => {
    expect(needsLook(reader())).toBe(false);
    expect(needsLook(reader({ state: 'offline' }))).toBe(true);
    expect(needsLook(reader({ channel: 'refused' }))).toBe(true);
    expect(needsLook(reader({ tamper: true }))).toBe(true);
    expect(needsLook(reader({ power: true }))).toBe(true);
    expect(needsLook(reader({ counters: { timeouts: 1 } }))).toBe(true);
  });
});
