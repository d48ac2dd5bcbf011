// `npm run edge -- --server URL --key KEY [--data DIR] [--readers MS] [--osdp /dev/ttyUSB0 [--osdp-baud 9600]
// [--osdp-install]] [--journal-days 30]` (or EDGE_SERVER, EDGE_KEY, EDGE_DATA, EDGE_OSDP, EDGE_OSDP_INSTALL=1):
// Gatehouse Edge, the controller process beside the doors (edge/main.ts, docs/EDGE.md). `--demo` signs in as the demo
// administrator, makes (or reuses) a controller key in Northwind and runs that controller's doors with simulated
// readers presenting cards now and then. `--osdp-baud` is the line's starting speed: once a COMSET from the console
// moved the line to another, the edge keeps that one in its data directory and speaks at it after a restart.
import { parseArgs } from 'node:util';
import { demoKey, startEdge } from '../edge/main';
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
  },
  allowPositionals: true,
});

async function main() {
  const key = values.demo ? await demoKey(values.server!, values.data!) : values.key!;
  if (!key) {
    console.error('Give the controller key: --key gh_… (or EDGE_KEY), or --demo');
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
