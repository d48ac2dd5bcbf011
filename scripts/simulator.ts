// `npm run simulator -- --controllers 500 --rate 5000 [--seconds 60] [--url http://localhost:8080] [--token …]`:
// the hardware simulator as its own process, sending through the device interface. The token is the one the server
// prints at start-up (or INGEST_TOKEN). Prints what was sent and accepted every second.
import { parseArgs } from 'node:util';
import { runDeviceSimulator } from './deviceSimulator';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.GATEHOUSE_URL ?? 'http://localhost:8080' },
    token: { type: 'string', default: process.env.INGEST_TOKEN ?? '' },
    controllers: { type: 'string', default: '50' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '3600' },
  },
  allowPositionals: true,
});
if (!values.token) {
  console.error('An ingest token is needed: --token (the server prints it at start-up) or INGEST_TOKEN.');
  process.exit(2);
}
const controllers = Number(values.controllers), rate = Number(values.rate), seconds = Number(values.seconds);
for (const [k, v] of Object.entries({ controllers, rate, seconds })) {
  if (!Number.isInteger(v) || v < 1) { console.error(`--${k} must be a whole number above 0`); process.exit(2); }
}
console.log(`Simulating ${controllers} controllers at ${rate} events/s against ${values.url} for ${seconds} s`);
runDeviceSimulator({
  url: values.url!, token: values.token!, controllers, rate, durationS: seconds,
  onSecond: (s) => console.log(`${String(s.second).padStart(5)} s  sent ${s.sent}  accepted ${s.accepted}  refused ${s.rejected}  requests in flight ${s.inFlight}`),
}).then((r) => {
  console.log(`done: sent ${r.sent}, accepted ${r.accepted}, refused ${r.rejected}, failed requests ${r.failedRequests}`);
  process.exit(r.failedRequests ? 1 : 0);
}).catch((e) => { console.error((e as Error).message); process.exit(1); });
