// An OSDP reader (PD) of ours on a serial line, for the demo and tests (issue 46):
//   npm run reader -- --tty PATH [--address N] [--baud N] [--key HEX] [--inputs 1,0] [--outputs N]
// Without --key it starts in install mode (pairs with SCBK-D, takes its key by KEYSET and keeps it while it runs).
// Type a line and Enter:
//   c              present the demo card (26-bit H10301, facility 18, card 41409)
//   c 18:41409     a 26-bit card of that facility and number
//   c 0110…        a card of these raw bits
//   p 1234         a PIN (digits, * and #)
//   t / f          tamper / power failure on or off
//   open / close   the door contact (input 0, normally closed: its circuit open / closed)
//   exit           the exit button (input 1, normally open) pressed, released a second later
//   i N V          input N reads V (0 open, 1 closed; a supervised line: 2 shorted, 3 cut, 4 fault, 5 unknown)
//   q              quit
// Its inputs start as --inputs says (default 1,0: the contact closed, the exit button not pressed) and are told to the
// controller in the reply to its next poll (ISTATR); its relays (--outputs, default 1) print when the controller
// switches them (`{"output":…}`, then `{"relays":[…]}`).
// What the controller shows (LED, beeper, text) is printed as JSON lines; keys are never printed.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { closeSerial, openSerial, parseKey, Reader } from '../edge/osdp';
import { encode, STANDARD_FORMATS } from '../contract/cardFormat';

const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`);
const { values } = parseArgs({
  options: {
    tty: { type: 'string' },
    address: { type: 'string', default: '0' },
    baud: { type: 'string', default: '9600' },
    key: { type: 'string' },
    inputs: { type: 'string', default: '1,0' },
    outputs: { type: 'string', default: '1' },
  },
});
const address = Number(values.address);
const inputs = values.inputs!.split(',').map(Number);
const outputs = Number(values.outputs);
if (
  !values.tty ||
  !Number.isInteger(address) ||
  address < 0 ||
  address > 126 ||
  !inputs.every((v) => Number.isInteger(v) && v >= 0 && v <= 255) ||
  !Number.isInteger(outputs) ||
  outputs < 0 ||
  outputs > 16
) {
  out({ error: 'usage: reader --tty PATH [--address N (0-126)] [--baud N] [--key HEX] [--inputs 1,0] [--outputs N (0-16)]' });
  process.exit(2);
}
let scbk: Buffer | undefined;
try {
  scbk = values.key ? parseKey(values.key) : undefined;
} catch (e) {
  out({ error: (e as Error).message });
  process.exit(2);
}

const port = await openSerial(values.tty, Number(values.baud)).catch((e: Error) => {
  out({ error: `cannot open ${values.tty}: ${e.message}` });
  process.exit(1);
});
const reader = new Reader(port, { address, scbk, inputs, outputs });
port.on('error', (e) => {
  out({ error: `the line failed: ${e.message}` });
  process.exit(1);
});
const COLOURS = ['black', 'red', 'green', 'amber', 'blue', 'magenta', 'cyan', 'white'];
reader.on('led', (list: { temporary?: { onColor: number; timer: number }; permanent?: { onColor: number } }[]) =>
  list.forEach((l) =>
    out({
      led: {
        temporary: l.temporary && COLOURS[l.temporary.onColor],
        permanent: l.permanent && COLOURS[l.permanent.onColor],
        ms: (l.temporary?.timer ?? 0) * 100,
      },
    }),
  ),
);
reader.on('buzzer', (b: { count: number; onTime: number }) => out({ buzzer: { beeps: b.count, ms: b.onTime * 100 } }));
reader.on('text', (t: { text: string }) => out({ text: t.text }));
reader.on('out', (o: unknown) => {
  out({ output: o });
  setImmediate(() => out({ relays: reader.outputs })); // as the reader has applied it (it tells 'out' first)
});
reader.on('secure', () => out({ secure: true }));
reader.on('keyset', () => out({ paired: true }));
reader.on('securityFailure', (reason: string) => out({ securityFailure: reason }));
reader.on('comset', (c: { address: number; baud: number }) => out({ comset: c }));
out({ reader: { tty: values.tty, address, installMode: !scbk } });

const H10301 = STANDARD_FORMATS[0];
const rl = createInterface({ input: process.stdin });
const quit = async () => {
  reader.close();
  await closeSerial(port);
  process.exit(0);
};
rl.on('line', (raw) => {
  const [cmd, arg, value] = raw.trim().split(/\s+/);
  if (cmd === 'c') {
    let bits: string;
    if (!arg) bits = encode(H10301, 18, 41409);
    else if (/^\d+:\d+$/.test(arg)) bits = encode(H10301, Number(arg.split(':')[0]), Number(arg.split(':')[1]));
    else if (/^[01]{1,1024}$/.test(arg)) bits = arg;
    else return out({ error: 'c [FACILITY:CARD | BITS]' });
    reader.presentCard(bits);
    out({ presented: { bits: bits.length } });
  } else if (cmd === 'p' && arg && /^[0-9*#]{1,32}$/.test(arg)) {
    reader.enterKeys(arg);
    out({ entered: arg.length });
  } else if (cmd === 't') reader.setStatus({ tamper: !reader.tamper });
  else if (cmd === 'f') reader.setStatus({ power: !reader.power });
  else if (cmd === 'open' || cmd === 'close') setInput(0, cmd === 'open' ? 0 : 1);
  else if (cmd === 'exit') {
    if (setInput(1, 1)) setTimeout(() => setInput(1, 0), 1000).unref();
  } else if (cmd === 'i' && /^\d+$/.test(arg ?? '') && /^\d+$/.test(value ?? '') && Number(value) <= 255) setInput(Number(arg), Number(value));
  else if (cmd === 'q') void quit();
  else if (cmd) out({ error: 'c [FACILITY:CARD | BITS], p DIGITS, t, f, open, close, exit, i N V or q' });
});
/** An input set (told in the reply to the next poll) and its states printed; false (said) when the reader has no such input. */
function setInput(point: number, value: number): boolean {
  try {
    reader.setInput(point, value);
  } catch (e) {
    out({ error: (e as Error).message });
    return false;
  }
  out({ inputs: reader.inputs });
  return true;
}
rl.on('close', () => {
  // stdin closed (a pipe ended): keep answering the line until a signal
});
process.on('SIGINT', () => void quit());
process.on('SIGTERM', () => void quit());
