// `npm run simulator -- --controllers 500 --rate 5000 [--seconds 60] [--url http://localhost:8080] [--key gh_… …]`:
// the hardware simulator as its own process, sending through the device interface with service-account API keys
// (role "Device interface", one per client; made at /manage/service-accounts). Without --key (or GATEHOUSE_KEYS,
// comma-separated) it signs in as --user (demo `admin`) and makes one such account in each of that user's clients.
// Prints what was sent and accepted every second.
import { parseArgs } from 'node:util';
import { provisionDeviceKeys, runDeviceSimulator } from './deviceSimulator';

const { values } = parseArgs({
  options: {
    url: { type: 'string', default: process.env.GATEHOUSE_URL ?? 'http://localhost:8080' },
    key: { type: 'string', multiple: true, default: (process.env.GATEHOUSE_KEYS ?? '').split(',').filter(Boolean) },
    user: { type: 'string', default: process.env.GATEHOUSE_USER ?? 'admin' },
    password: { type: 'string', default: process.env.GATEHOUSE_PASSWORD ?? 'Gatehouse1!' },
    controllers: { type: 'string', default: '50' },
    rate: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '3600' },
  },
  allowPositionals: true,
});
const controllers = Number(values.controllers),
  rate = Number(values.rate),
  seconds = Number(values.seconds);
for (const [k, v] of Object.entries({ controllers, rate, seconds })) {
  if (!Number.isInteger(v) || v < 1) {
    console.error(`--${k} must be a whole number above 0`);
    process.exit(2);
  }
}
console.log(`Simulating ${controllers} controllers at ${rate} events/s against ${values.url} for ${seconds} s`);
const keys = values.key!.length ? Promise.resolve(values.key!) : provisionDeviceKeys(values.url!, { username: values.user!, password: values.password! });
keys
  .then((k) =>
    runDeviceSimulator({
      url: values.url!,
      keys: k,
      controllers,
      rate,
      durationS: seconds,
      onSecond: (s) =>
        console.log(`${String(s.second).padStart(5)} s  sent ${s.sent}  accepted ${s.accepted}  refused ${s.rejected}  requests in flight ${s.inFlight}`),
    }),
  )
  .then((r) => {
    console.log(
      `done: sent ${r.sent}, accepted ${r.accepted}, refused ${r.rejected}, failed requests ${r.failedRequests}, batches sent again after a 503 ${r.deferred}`,
    );
    process.exit(r.failedRequests ? 1 : 0);
  })
  .catch((e) => {
    console.error((e as Error).message);
    process.exit(1);
  });
