// `npm run companion [-- --port 47812]`: a desktop companion simulator on this computer (§7).
import { parseArgs } from 'node:util';
import { startCompanionSimulator } from '../server/simulator/companion';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' } } });
const sim = await startCompanionSimulator({
  port: values.port ? Number(values.port) : undefined,
  host: values.host,
  log: (line) => console.log(line),
});
console.log(`Gatehouse companion simulator on ${sim.url} (check-port ${sim.url}/api/check-port, messages ws://…:${sim.port}/api/messages). Ctrl+C stops it.`);
const stop = async () => {
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
