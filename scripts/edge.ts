// `npm run edge -- --server URL --key KEY [--data DIR] [--readers MS] [--osdp /dev/ttyUSB0 [--osdp-baud 9600]
// [--osdp-install]] [--journal-days 30]` (or EDGE_SERVER, EDGE_KEY, EDGE_DATA, EDGE_OSDP, EDGE_OSDP_INSTALL=1):
// Gatehouse Edge, the controller process beside the doors (edge/main.ts, docs/EDGE.md). `--demo` signs in as the demo
// administrator, makes (or reuses) a controller key in Northwind and runs that controller's doors with simulated
// readers presenting cards now and then. `--osdp-baud` is the line's starting speed: once a COMSET from the console
// moved the line to another, the edge keeps that one in its data directory and speaks at it after a restart.
// `--demo --osdp PATH --demo-board N` (EDGE_DEMO_BOARD) also wires one of the demo controller's doors to a board at
// bus address N (edge/demoBoard.ts): `npm run reader -- --tty <the line's other end> --address N` is then its reader,
// its relay the door's strike and its inputs the door's contact and exit button.
import { parseArgs } from 'node:util';
import { demoKey, startEdge } from '../edge/main';
import { demoWireBoard } from '../edge/demoBoard';
import { Bus, openSerial } from '../edge/osdp';

const { values } = parseArgs({
  options: {
    server: { type: 'string', default: process.env.EDGE_SERVER ?? 'http://localhost:8080' },
    key: { type: 'string', default: process.env.EDGE_KEY ?? '' },
    data: { type: 'string', default: process.env.EDGE_DATA ?? './data-edge' },
    demo: { type: 'boolean', default: false },
    readers: { type: 'string', default: process.env.EDGE_READERS ?? '' },
    osdp: { type: 'string', default: process.env.EDGE_OSDP ?? '' },
    'osdp-baud': { type: 'string', default: process.env.EDGE_OSDP_BAUD ?? '9600' },
    'osdp-install': { type: 'boolean', default: process.env.EDGE_OSDP_INSTALL === '1' },
    'journal-days': { type: 'string', default: process.env.EDGE_JOURNAL_DAYS ?? '' },
    'demo-board': { type: 'string', default: process.env.EDGE_DEMO_BOARD ?? '' },
  },
  allowPositionals: true,
});

async function main() {
  const key = values.demo ? await demoKey(values.server!, values.data!) : values.key!;
  if (!key) {
    console.error('Give the controller key: --key gh_… (or EDGE_KEY), or --demo');
    process.exit(2);
  }
  const board = values['demo-board'] ? Number(values['demo-board']) : null;
  if (board !== null && (!values.demo || !values.osdp || !Number.isInteger(board) || board < 0 || board > 126)) {
    console.error('--demo-board N (0-126) wires a door of the demo to the board at OSDP address N: give it with --demo and --osdp PATH');
    process.exit(2);
  }
  const everyMs = Number(values.readers || (values.demo ? 3000 : 0));
  const baudRate = Number(values['osdp-baud']);
  const osdp = values.osdp ? new Bus(await openSerial(values.osdp, baudRate), { baudRate }) : undefined;
  const edge = startEdge({
    server: values.server!,
    key,
    dataDir: values.data!,
    readers: everyMs > 0 ? { everyMs } : undefined,
    osdp,
    osdpInstall: values['osdp-install'],
    journalMaxAgeMs: Number(values['journal-days']) > 0 ? Number(values['journal-days']) * 86_400_000 : undefined,
  });
  console.log(`Gatehouse Edge: ${values.server} (data in ${values.data})${everyMs ? `, simulated readers every ${everyMs} ms` : ''}`);
  if (board !== null) {
    while (edge.link.controllerId === null) await new Promise((r) => setTimeout(r, 200));
    const w = await demoWireBoard(values.server!, edge.link.controllerId, board);
    console.log(
      `Demo: ${w.door} wired to ${w.board} at OSDP address ${w.address} (its reader, its strike on relay 0, its contact on input 0, an exit button on input 1): run npm run reader -- --tty <the other end of ${values.osdp}> --address ${w.address}`,
    );
  }
  const stop = () => {
    edge.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
