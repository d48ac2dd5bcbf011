// A card-reader connector simulator (§4, §5, §7): a WebSocket server on the first free of the three connector
// ports, speaking `{type, version, data}` with a scriptable reader and MyKad-like card. A `version` other than
// v1.0.0 makes it announce the wrong version, to see the console's outdated message. The same object serves
// the card-reader REST endpoints (/MyKad/*) through mykadRoutes.ts.
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import {
  CONNECTOR_MAX_MESSAGE_CHARS,
  CONNECTOR_PORTS,
  CONNECTOR_VERSION,
  MyKad,
  parseConnectorCommand,
  validate,
  type ConnectorCommand,
  type ConnectorIncomingType,
  type MyKadReader,
} from '../../contract';
import { generatePhotoPng, listenOnFirstFree, socketServerControls } from './companion';

export const SAMPLE_MYKAD: MyKad = {
  name: 'NURUL AINI BINTI ISMAIL',
  idNumber: '900214-10-5566',
  dateOfBirth: '1990-02-14',
  address: '12 Jalan Bukit Bintang, 55100 Kuala Lumpur',
  gender: 'F',
  nationality: 'WARGANEGARA',
  photo: { name: 'mykad-photo.png', mimeType: 'image/png', data: generatePhotoPng(48, 7).toString('base64') },
};

export interface CardConnectorSimulatorOptions {
  port?: number;
  host?: string;
  /** The version it announces; anything but v1.0.0 is refused by the console (§5). */
  version?: string;
  /** A reader is attached at start (default true). */
  reader?: boolean;
  log?: (line: string) => void;
}

export interface CardConnectorSimulator {
  port: number;
  url: string;
  version: string;
  /** Console messages received (validated), and the errors of those that were not. */
  received: ConnectorCommand[];
  rejected: string[];
  card(): MyKad | null;
  readerAttached(): boolean;
  connectReader(): void;
  disconnectReader(): void;
  insertCard(card?: MyKad): void;
  removeCard(): void;
  /** Reads the inserted card: reading_data, then data_received. Returns the card, or null with no card. */
  readCard(): MyKad | null;
  /** The /MyKad/getReaderList view of the reader. */
  readers(): MyKadReader[];
  clientCount(): number;
  dropClients(): void;
  broadcastRaw(data: string): void;
  close(): Promise<void>;
}

export async function startCardConnectorSimulator(options: CardConnectorSimulatorOptions = {}): Promise<CardConnectorSimulator> {
  const host = options.host ?? '127.0.0.1';
  const version = options.version ?? CONNECTOR_VERSION;
  const log = options.log ?? (() => {});
  let reader = options.reader ?? true;
  let card: MyKad | null = null;
  const server = createServer((_req, res) => {
    res.writeHead(426, { 'content-type': 'text/plain' }).end('Upgrade to WebSocket');
  });
  // bound first, so a taken port's error is not also reported by the WebSocket server
  const port = await listenOnFirstFree(server, options.port !== undefined ? [options.port] : CONNECTOR_PORTS, host);
  const wss = new WebSocketServer({ server, maxPayload: CONNECTOR_MAX_MESSAGE_CHARS });
  const broadcast = (type: ConnectorIncomingType, data: unknown = null) => {
    const text = JSON.stringify({ type, version, data });
    for (const c of wss.clients) c.send(text);
  };

  const sim: CardConnectorSimulator = {
    port: 0,
    url: '',
    version,
    received: [],
    rejected: [],
    card: () => card,
    readerAttached: () => reader,
    connectReader: () => {
      reader = true;
      broadcast('reader_connected');
    },
    disconnectReader: () => {
      reader = false;
      card = null;
      broadcast('reader_disconnected');
    },
    insertCard: (next = SAMPLE_MYKAD) => {
      const r = validate(next, MyKad);
      if (!r.ok) throw new Error(`Not a MyKad: ${r.violations.map((v) => `${v.field} ${v.message}`).join(', ')}`);
      if (!reader) sim.connectReader();
      card = r.value;
      broadcast('card_inserted');
    },
    removeCard: () => {
      card = null;
      broadcast('card_removed');
    },
    readCard: () => {
      if (!card) return null;
      broadcast('reading_data');
      broadcast('data_received', card);
      return card;
    },
    readers: () => (reader ? [{ name: 'Gatehouse Simulated MyKad Reader', connected: true, cardPresent: card !== null }] : []),
    ...socketServerControls(server, wss),
  };

  wss.on('connection', (ws) => {
    log(`card connector: console connected (announcing ${version})`);
    const send = (type: ConnectorIncomingType, data: unknown = null) => ws.send(JSON.stringify({ type, version, data }));
    send('connecting');
    send('connected');
    if (version === CONNECTOR_VERSION) send('version_valid');
    if (reader) send('reader_connected');
    if (card) send('card_inserted');
    ws.on('message', (data, isBinary) => {
      const parsed = parseConnectorCommand(isBinary ? null : data.toString('utf8'));
      if (!parsed.ok) {
        sim.rejected.push(parsed.error);
        return;
      }
      sim.received.push(parsed.message);
      if (parsed.message.type === 'read_card') sim.readCard();
      else log(`card connector: the console refused version ${version}`);
    });
  });

  sim.port = port;
  sim.url = `ws://${host}:${port}`;
  return sim;
}
