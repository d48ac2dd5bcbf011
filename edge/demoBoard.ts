// The demo's wired door (issue 47): `npm run edge -- --demo --osdp PATH --demo-board N` wires one door of the demo
// controller to a board at OSDP bus address N, as an installer would on Configure / Hardware (docs/EDGE.md "Wiring a
// door to real I/O"): an interface at N (a reader interface, reused when there is one), the door's card reader moved to
// N, its lock strike on the board's relay 0, its door contact (normally closed) on input 0 and an exit button (normally
// open, made when the door has none) on input 1. `npm run reader -- --tty PATH --address N` on the other end of the
// line then is that reader: its cards are decided at the door, its `open`, `close` and `exit` move the door's inputs,
// and its relay is the strike. Everything goes through the server's API as the demo administrator.
import { API, TENANT_HEADER, cardReadersResource, inputsResource, interfacesResource, outputsResource } from '../contract';

export interface DemoSession {
  http: string;
  headers: Record<string, string>;
  client: { id: number; name: string };
}

/** Signed in as the demo administrator, in the client whose name has `clientName` (else its first). */
export async function demoSession(server: string, who = { username: 'admin', password: 'Gatehouse1!' }, clientName = 'Northwind'): Promise<DemoSession> {
  const http = server.replace(/\/+$/, '');
  const login = await fetch(http + API.login, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(who) });
  if (login.status !== 200) throw new Error(`sign-in of ${who.username} at ${http}: ${login.status} ${(await login.text()).slice(0, 200)}`);
  const { token } = (await login.json()) as { token: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const clients = (await (await fetch(`${http}${API.clients}?size=100`, { headers: auth })).json()) as { items: { id: number; name: string }[] };
  const client = clients.items.find((c) => c.name.toLowerCase().includes(clientName.toLowerCase())) ?? clients.items[0];
  if (!client) throw new Error(`${who.username} works in no client`);
  return { http, client, headers: { ...auth, [TENANT_HEADER]: String(client.id) } };
}

type Row = Record<string, unknown> & { id: number };

export interface DemoWiring {
  door: string;
  address: number;
  board: string;
}

/** One door of controller `controllerId` wired to a board at bus address `address` (see above); what was wired. */
export async function demoWireBoard(server: string, controllerId: number, address: number, session?: DemoSession): Promise<DemoWiring> {
  const { http, headers } = session ?? (await demoSession(server));
  const call = async (method: string, path: string, body?: unknown): Promise<Row> => {
    const r = await fetch(http + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as Row;
  };
  const list = async (api: string) =>
    ((await call('GET', `${api}?size=500`)) as unknown as { items: Row[] }).items.filter((r) => r.controllerId === controllerId);
  /** a row changed through its PUT: its stored fields as read, `change` over them */
  const put = async (resource: { api: string; fields: Record<string, unknown> }, row: Row, change: Record<string, unknown>) => {
    const stored = Object.keys(resource.fields).filter((f) => !(resource.fields[f] as { virtual?: boolean; readOnly?: boolean }).virtual);
    const body = Object.fromEntries(stored.map((f) => [f, row[f] ?? null]));
    return call('PUT', `${resource.api}/${row.id}`, { ...body, updatedAt: row.updatedAt, ...change });
  };
  const [readers, outputs, inputs, boards] = await Promise.all([
    list(cardReadersResource.api),
    list(outputsResource.api),
    list(inputsResource.api),
    list(interfacesResource.api),
  ]);
  // the first door of the controller with a card reader, a lock strike and a door contact
  const reader = readers.find(
    (r) => outputs.some((o) => o.doorId === r.doorId && o.kind === 'strike') && inputs.some((i) => i.doorId === r.doorId && i.kind === 'door-contact'),
  );
  if (!reader) throw new Error(`controller ${controllerId} has no door with a card reader, a lock strike and a door contact`);
  const doorId = reader.doorId;
  const board =
    boards.find((b) => b.busAddress === address) ??
    (await call('POST', interfacesResource.api, { name: `Demo board ${address}`, kind: 'reader', controllerId, busAddress: address }));
  const boardId = board.id;
  if (reader.address !== address) await put(cardReadersResource, reader, { address });
  await put(
    outputsResource,
    outputs.find((o) => o.doorId === doorId && o.kind === 'strike')!,
    { boardId, point: 0 },
  );
  await put(
    inputsResource,
    inputs.find((i) => i.doorId === doorId && i.kind === 'door-contact')!,
    { boardId, point: 0, normallyClosed: true },
  );
  const exit = inputs.find((i) => i.doorId === doorId && i.kind === 'exit-button');
  if (exit) await put(inputsResource, exit, { boardId, point: 1, normallyClosed: false });
  else
    await call('POST', inputsResource.api, {
      name: `${String(reader.doorName)} exit button`,
      kind: 'exit-button',
      controllerId,
      doorId,
      normallyClosed: false,
      boardId,
      point: 1,
    });
  return { door: String(reader.doorName), address, board: String(board.name) };
}
