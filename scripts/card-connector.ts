// `npm run card-connector [-- --version v0.9.0] [-- --port 24680] [-- --card]`: a card-reader connector
// simulator on the first free of its three ports (§4, §7). Type a letter and Enter to script the card:
// i insert, r remove, d read, c connect reader, x disconnect reader, q quit.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startCardConnectorSimulator } from '../server/simulator/cardConnector';

const { values } = parseArgs({ options: { port: { type: 'string' }, host: { type: 'string' }, version: { type: 'string' }, card: { type: 'boolean' } } });
const sim = await startCardConnectorSimulator({
  port: values.port ? Number(values.port) : undefined,
  host: values.host,
  version: values.version,
  log: (line) => console.log(line),
});
if (values.card) sim.insertCard();
console.log(`Gatehouse card connector simulator on ${sim.url}, announcing ${sim.version}.`);
console.log('Keys: i insert card, r remove card, d read card, c connect reader, x disconnect reader, q quit.');

const stop = async () => {
  await sim.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
if (process.stdin.isTTY || !process.stdin.readableEnded) {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const key = line.trim().toLowerCase();
    if (key === 'i') {
      sim.insertCard();
      console.log('card inserted');
    } else if (key === 'r') {
      sim.removeCard();
      console.log('card removed');
    } else if (key === 'd') console.log(sim.readCard() ? 'card read' : 'no card to read');
    else if (key === 'c') {
      sim.connectReader();
      console.log('reader connected');
    } else if (key === 'x') {
      sim.disconnectReader();
      console.log('reader disconnected');
    } else if (key === 'q') void stop();
  });
}
