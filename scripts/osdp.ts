// The technician's tool for an OSDP line (issue 46; OSDP-Bench is the field's model). docs/OSDP.md has the details.
//   npm run osdp -- scan PATH [--baud N] [--addresses 0-126] [--all-speeds]
//     one JSON line per reader that answers osdp_ID (address, baud, vendor OUI, model, serial, firmware, capabilities);
//     with --all-speeds each other OSDP speed too (a broadcast ID first, then every address where anyone answered);
//     exit 0, or 1 when nothing answered
//   npm run osdp -- watch PATH --address N (--install | --key HEX) [--baud N]
//     opens the secure channel (--install pairs with SCBK-D, sets a fresh key by KEYSET and prints it once), then one
//     JSON line per card read and PIN, each answered with a green LED and a beep, until stopped (Ctrl-C, exit 0)
// Every failure is one JSON line {"error": reason, …} and a non-zero exit (2: the command line was wrong).
import { parseArgs } from 'node:util';
import { BAUD_RATES, Bus, closeSerial, discover, openSerial, parseKey, type ReaderConfig } from '../edge/osdp';

const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
function fail(error: string, code = 1, more: Record<string, unknown> = {}): never {
  out({ error, ...more });
  process.exit(code);
}

const { values, positionals } = parseArgs({
  options: {
    baud: { type: 'string', default: '9600' },
    address: { type: 'string' },
    addresses: { type: 'string', default: '0-126' },
    install: { type: 'boolean', default: false },
    key: { type: 'string' },
    'online-timeout': { type: 'string', default: '5000' },
    'all-speeds': { type: 'boolean', default: false },
  },
  allowPositionals: true,
});
const [command, path] = positionals;
const baudRate = Number(values.baud);
if (!['scan', 'watch'].includes(command ?? '') || !path) fail('usage: osdp scan PATH [--baud N] | osdp watch PATH --address N (--install | --key HEX)', 2);
if (![9600, 19200, 38400, 57600, 115200, 230400].includes(baudRate)) fail(`--baud ${values.baud} is not an OSDP speed`, 2);

function addressList(s: string): number[] {
  const list = s.split(',').flatMap((part) => {
    const [a, b] = part.split('-').map(Number);
    return b === undefined ? [a] : Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
  if (!list.length || list.some((n) => !Number.isInteger(n) || n < 0 || n > 126)) fail(`--addresses ${s}: addresses are 0-126`, 2);
  return list;
}

async function scan() {
  const port = await openSerial(path, baudRate).catch((e: Error) => fail(`cannot open ${path}: ${e.message}`));
  port.on('error', (e) => fail(`the line failed: ${e.message}`));
  const speeds = values['all-speeds'] ? BAUD_RATES.filter((b) => b !== 230400) : [];
  const found = await discover(port, { baudRate, addresses: addressList(values.addresses!), speeds });
  await closeSerial(port);
  for (const f of found)
    out({
      address: f.address,
      baud: f.baud ?? baudRate,
      vendor: f.identity.vendor,
      model: f.identity.model,
      version: f.identity.version,
      serial: f.identity.serial,
      firmware: f.identity.firmware,
      capabilities: f.capabilities?.map((c) => ({ name: c.name, compliance: c.compliance, count: c.count })) ?? [],
    });
  if (!found.length) fail('no reader answered', 1, { path, baud: baudRate, ...(speeds.length ? { speeds } : {}) });
  process.exit(0);
}

async function watch() {
  const address = Number(values.address);
  if (values.address === undefined || !Number.isInteger(address) || address < 0 || address > 126) fail('--address N (0-126) is needed', 2);
  if (values.install === (values.key !== undefined)) fail('give either --install or --key HEX', 2);
  let scbk: Buffer | undefined;
  try {
    scbk = values.key ? parseKey(values.key) : undefined;
  } catch (e) {
    fail((e as Error).message, 2);
  }
  const cfg: ReaderConfig = values.install ? { address, install: true } : { address, scbk };
  const port = await openSerial(path, baudRate).catch((e: Error) => fail(`cannot open ${path}: ${e.message}`));
  const bus = new Bus(port, { baudRate });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await bus.stop();
    await closeSerial(port);
    process.exit(code);
  };
  const failWith = (error: string, more: Record<string, unknown> = {}) => {
    if (stopping) return;
    out({ error, address, ...more });
    void stop(1);
  };
  bus.on('keyset', (k) => out({ paired: { address: k.address, key: k.scbk.toString('hex') } }));
  bus.on('online', (o) => out({ online: { address: o.address, secure: o.secure, ...o.identity } }));
  bus.on('alarm', (a) => failWith(a.reason));
  bus.on('lineError', (e) => failWith(`the line failed: ${e.message}`));
  bus.on('offline', (o) => failWith(`offline: ${o.reason}`));
  bus.on('nak', (n) => failWith(`NAK of ${n.command}: ${n.reason}`, { nak: n.code }));
  bus.on('tamper', (t) => out({ tamper: t.active }));
  bus.on('power', (p) => out({ powerFailure: p.failure }));
  const answer = () => bus.showGranted(address).catch((e: Error) => failWith(e.message));
  bus.on('card', (c) => {
    out({ card: { bits: c.bitCount, hex: c.hex } });
    void answer();
  });
  bus.on('pin', (p) => {
    out({ pin: p.keys });
    void answer();
  });
  bus.add(cfg);
  bus.start();
  setTimeout(() => {
    const r = bus.reader(address);
    if (r && r.state !== 'online') failWith(r.reason ?? 'no answer', { counters: r.counters });
  }, Number(values['online-timeout']));
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
}

await (command === 'scan' ? scan() : watch());
