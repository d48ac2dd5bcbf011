// Hardware [0.5.x] (issue 12): controllers (their settings; controllers are enrolled, not typed in), and the card
// readers, inputs and outputs wired to them, each at a door. A door's readers say which way a swipe goes (entry or
// exit: the zones of anti-passback); its inputs are the contact, exit button and sensors; its outputs the strike,
// sounder and lights. Deleting a controller or a door that still has them is refused (409), naming them.
// Issue 47: an input or output may say where it is wired, on a board of its controller's bus (an OSDP reader
// interface or I/O board, Interfaces) at its point there; the controller's Gatehouse Edge then drives and reads it on
// that board (docs/EDGE.md). Without a board it is simulated.
import { PRIV } from '../privileges';
import { choice, defineResource, number, ref, switchField, text, timestamp } from './define';

/** A dotted IPv4 address (each part 0–255). */
export const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** A controller's status as its heart-beat reports it (controllers.status). */
export const CONTROLLER_STATUSES = [
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
] as const;

/** A Gatehouse Edge controller's link as the server last saw it (edge_controllers: connected, not since disconnected). */
export const EDGE_LINK_STATES = [
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
] as const;
/** A controller's Gatehouse Edge key (issue 47): in use, or revoked (none issued: empty). */
export const EDGE_KEY_STATES = [
  { value: 'active', label: 'In use' },
  { value: 'revoked', label: 'Revoked' },
] as const;

export const controllersResource = defineResource({
  name: 'controllers',
  table: 'controllers',
  api: '/event/manage/controllers',
  route: '/hardware/controllers',
  section: 'hardware',
  label: { one: 'Controller', many: 'Controllers' },
  icon: 'desktop',
  privileges: PRIV.controllers,
  scope: { tenant: true },
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true }),
    ipAddress: text({ label: 'IP address', max: 15, required: true, pattern: IPV4, help: 'IPv4, e.g. 10.1.0.11', search: true, sort: true }),
    divisionId: ref('divisions', { label: 'Division' }),
    // issue 50: a choice, so the list says it in the console's language (it showed "online"/"offline" in 简体中文 too)
    status: choice(CONTROLLER_STATUSES, { required: true, readOnly: true, sort: true, default: 'online', help: 'As its heart-beat reports it' }),
    // issue 50: the version it runs (the list promised it; server/simulator/heartbeat.ts firmwareStep installs one)
    firmware: text({ max: 40, readOnly: true, sort: true }),
    // Gatehouse Edge (issue 47, server/edge/keys.ts): online or offline since when, the snapshot version it was sent and
    // applied, its buffered events and version; empty for a controller without an edge key
    edge: text({ label: 'Edge', max: 400, virtual: true, readOnly: true }),
    // since when online or offline
    edgeSince: timestamp({ label: 'Edge since', virtual: true }),
    // the summary's parts, which the console composes in the user's zone and language (the text above is for exports)
    edgeState: choice(EDGE_LINK_STATES, { label: 'Edge link', virtual: true, readOnly: true }),
    edgeSnapshot: number({ label: 'Edge snapshot version', virtual: true, readOnly: true }),
    edgeApplied: number({ label: 'Edge snapshot applied', virtual: true, readOnly: true }),
    // the snapshot the edge holds: when the server built that version (its rules' last change) and when the edge applied it
    edgeBuiltAt: timestamp({ label: 'Edge snapshot built', virtual: true }),
    edgeAppliedAt: timestamp({ label: 'Edge snapshot applied at', virtual: true }),
    // its doors in a zone of hard anti-passback: while the edge is offline they let a repeat through and log it (soft)
    edgeSoftApb: number({ label: 'Edge doors with soft anti-passback offline', virtual: true, readOnly: true }),
    edgePending: number({ label: 'Edge buffered events', virtual: true, readOnly: true }),
    edgeVersion: text({ label: 'Edge version', max: 40, virtual: true, readOnly: true }),
    // its doors' degraded policies, counted (`keep:2,locked:1`), and the client's limit of days offline before they apply
    edgeDegraded: text({ label: 'When stale', max: 200, virtual: true, readOnly: true }),
    edgeMaxOfflineDays: number({ label: 'Edge days offline allowed', virtual: true, readOnly: true }),
    // its edge key: issued on its page (shown once), revoked there (the edge on it is disconnected at once)
    edgeKey: choice(EDGE_KEY_STATES, { label: 'Edge key', virtual: true, readOnly: true }),
  },
  list: { title: ['name'], columns: ['ipAddress', 'status', 'firmware', 'edge', 'edgeSnapshot', 'edgeDegraded'], sort: ['name', 'asc'] },
  form: [{ title: 'Controller settings', description: 'Its name, address on the site network and division.', fields: ['name', 'ipAddress', 'divisionId'] }],
  export: ['csv', 'ndjson'],
  // a name opens its diagnostic for whoever may see it [0.5.6.4], else its settings
  // issue 46: its OSDP readers as its Gatehouse Edge reports them (identity, secure channel, counters, Re-pair)
  screens: {
    editRoute: '/hardware/controllers/settings/:id',
    editTitle: 'Controller settings',
    detailsRoute: '/hardware/controllers/diagnostic/:ipAddress',
    recordPanel: 'osdpReaders',
    // issue 47: the key its Gatehouse Edge signs in with (`npm run edge -- --server URL --key KEY`), issued here and
    // shown once; issuing a new one or revoking it disconnects an edge on the old key at once
    recordSummary: ['edgeKey', 'edgeState', 'edgeSince', 'edgeVersion'],
    recordActions: [
      {
        action: 'edge-key',
        label: 'Issue edge key',
        privilege: PRIV.controllers.edit,
        icon: 'key',
        reason: { label: 'Why (an edge on the old key is disconnected)', required: false, max: 200, placeholder: 'New controller box installed' },
        done: 'Edge key issued for {name}',
      },
      {
        action: 'revoke-edge-key',
        label: 'Revoke edge key',
        privilege: PRIV.controllers.edit,
        icon: 'disable',
        intent: 'danger',
        when: { field: 'edgeKey', values: ['active'] },
        reason: { label: 'Why (its edge is disconnected at once)', required: false, max: 200, placeholder: 'Controller box stolen' },
        done: 'Edge key revoked for {name}: its edge is disconnected',
      },
    ],
    shownOnce: [{ field: 'apiKey', label: 'Edge key' }],
  },
});

export const READER_DIRECTIONS = [
  { value: 'entry', label: 'Entry' },
  { value: 'exit', label: 'Exit' },
] as const;

export const cardReadersResource = defineResource({
  name: 'cardReaders',
  table: 'card_readers',
  api: '/event/manage/card-readers',
  route: '/hardware/card-reader',
  section: 'hardware',
  label: { one: 'Card reader', many: 'Card readers' },
  icon: 'mobile-phone',
  privileges: PRIV.cardReaders,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another card reader' }),
    doorId: ref('doors', { label: 'Door', required: true, filter: true }),
    doorName: text({ label: 'Door', max: 200, virtual: true, readOnly: true, from: 'doorId', sort: true }),
    direction: choice(READER_DIRECTIONS, { required: true, default: 'entry', filter: true, sort: true }),
    controllerId: ref('controllers', { label: 'Controller', required: true, filter: true }),
    controllerName: text({ label: 'Controller', max: 100, virtual: true, readOnly: true, from: 'controllerId', sort: true }),
    location: text({ max: 200, search: true, placeholder: 'Level 2, east stair', help: 'Where it is mounted, for whoever services it' }),
    address: number({ label: 'Bus address', min: 0, max: 255, default: 0, help: '0–255 on the controller’s reader bus' }),
  },
  list: { title: ['name'], columns: ['doorName', 'direction', 'controllerName', 'address', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Card reader',
      description: 'An entry reader leads into the door’s entry zone, an exit reader out to its exit zone.',
      fields: ['name', 'doorId', 'direction', 'controllerId', 'address', 'location'],
    },
  ],
  export: ['csv', 'ndjson'],
  // issue 46: the OSDP reader at its bus address as its controller's Gatehouse Edge reports it, with Re-pair
  screens: { recordPanel: 'osdpReader' },
});

export const INPUT_KINDS = [
  { value: 'door-contact', label: 'Door contact' },
  { value: 'exit-button', label: 'Exit button' },
  { value: 'sensor', label: 'Sensor' },
  { value: 'tamper', label: 'Tamper' },
] as const;

/** Where an input or output is wired (issue 47): the words the forms say. OSDP numbers a board's points from 0. */
const WIRING = 'The board of its controller it is wired to, and its point there. Without a board it is simulated.';
const INPUT_POINT_HELP = 'The board’s input number, from 0 as OSDP counts (its first input is 0)';
const OUTPUT_POINT_HELP = 'The board’s output number, from 0 as OSDP counts (its first relay is 0)';

export const inputsResource = defineResource({
  name: 'inputs',
  table: 'inputs',
  api: '/event/manage/inputs',
  route: '/hardware/input',
  section: 'hardware',
  label: { one: 'Input', many: 'Inputs' },
  icon: 'log-in',
  privileges: PRIV.inputs,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another input' }),
    kind: choice(INPUT_KINDS, { label: 'Type', required: true, default: 'door-contact', filter: true, sort: true }),
    controllerId: ref('controllers', { label: 'Controller', required: true, filter: true }),
    controllerName: text({ label: 'Controller', max: 100, virtual: true, readOnly: true, from: 'controllerId', sort: true }),
    doorId: ref('doors', { label: 'Door' }),
    doorName: text({ label: 'Door', max: 200, virtual: true, readOnly: true, from: 'doorId', sort: true }),
    location: text({ max: 200, search: true, placeholder: 'Level 2, east stair', help: 'Where it is mounted, for whoever services it' }),
    normallyClosed: switchField({ label: 'Normally closed', default: true }),
    supervised: switchField({ label: 'Supervised (end-of-line resistors)', default: false }),
    // issue 47: where it is wired: a board of its controller's bus and its point there (server/resources/boardPoints.ts
    // checks the board is the controller's; the edge drives it with OSDP); no board: simulated
    boardId: ref('interfaces', { label: 'Board', help: 'A reader interface or I/O board of its controller (none: simulated)' }),
    boardName: text({ label: 'Board', max: 100, virtual: true, readOnly: true, from: 'boardId' }),
    point: number({ label: 'Point', min: 0, max: 255, help: INPUT_POINT_HELP }),
  },
  list: {
    title: ['name'],
    columns: ['kind', 'controllerName', 'doorName', 'normallyClosed', 'supervised', 'boardName', 'point', 'updatedAt'],
    sort: ['name', 'asc'],
  },
  form: [
    {
      title: 'Input',
      description: 'A contact, button or sensor wired to a controller, at a door or on its own.',
      fields: ['name', 'kind', 'controllerId', 'doorId', 'location', 'normallyClosed', 'supervised'],
    },
    { title: 'Wiring', description: WIRING, fields: ['boardId', 'point'] },
  ],
  export: ['csv', 'ndjson'],
});

export const OUTPUT_KINDS = [
  { value: 'strike', label: 'Lock strike' },
  { value: 'sounder', label: 'Sounder' },
  { value: 'light', label: 'Light' },
  { value: 'relay', label: 'Relay' },
] as const;

export const outputsResource = defineResource({
  name: 'outputs',
  table: 'outputs',
  api: '/event/manage/outputs',
  route: '/hardware/output',
  section: 'hardware',
  label: { one: 'Output', many: 'Outputs' },
  description: 'Relays, locks and sounders.',
  icon: 'log-out',
  privileges: PRIV.outputs,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another output' }),
    kind: choice(OUTPUT_KINDS, { label: 'Type', required: true, default: 'strike', filter: true, sort: true }),
    controllerId: ref('controllers', { label: 'Controller', required: true, filter: true }),
    controllerName: text({ label: 'Controller', max: 100, virtual: true, readOnly: true, from: 'controllerId', sort: true }),
    doorId: ref('doors', { label: 'Door' }),
    doorName: text({ label: 'Door', max: 200, virtual: true, readOnly: true, from: 'doorId', sort: true }),
    location: text({ max: 200, search: true, placeholder: 'Level 2, east stair', help: 'Where it is mounted, for whoever services it' }),
    pulseSeconds: number({ label: 'Pulse (seconds)', min: 0, max: 3600, default: 5, help: '0: held until switched off' }),
    // issue 47: where it is wired: a board of its controller's bus and its point there (server/resources/boardPoints.ts
    // checks the board is the controller's; the edge drives it with OSDP); no board: simulated
    boardId: ref('interfaces', { label: 'Board', help: 'A reader interface or I/O board of its controller (none: simulated)' }),
    boardName: text({ label: 'Board', max: 100, virtual: true, readOnly: true, from: 'boardId' }),
    point: number({ label: 'Point', min: 0, max: 255, help: OUTPUT_POINT_HELP }),
    // issue 47: a magnetic lock is wired fail-safe: energised to lock, so its board point is on while locked
    failSafe: switchField({ label: 'Fail-safe (energised to lock)', default: false }),
  },
  list: { title: ['name'], columns: ['kind', 'controllerName', 'doorName', 'pulseSeconds', 'boardName', 'point', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Output',
      description: 'A strike, sounder, light or relay driven by a controller.',
      fields: ['name', 'kind', 'controllerId', 'doorId', 'location', 'pulseSeconds'],
    },
    { title: 'Wiring', description: WIRING, fields: ['boardId', 'point', 'failSafe'] },
  ],
  export: ['csv', 'ndjson'],
  // a manual pulse (`POST …/:id/pulse`): on for its pulse time, then off by itself, each an event naming who
  screens: { rowActions: [{ action: 'pulse', label: 'Pulse', privilege: PRIV.outputs.edit, icon: 'flash', done: '{name} pulsed' }] },
});

// ---------- interfaces (issue 12) [0.5.1.x] ----------
// Boards on a controller's bus (reader interfaces, I/O boards, elevator boards), each at one bus address. Added from
// what discovery finds on the buses (`/hardware/interface/pre-add`) or by hand; their timing and supervision are a
// second, edit-only view of the same rows (`/hardware/interface/settings/:id`).
export const INTERFACE_KINDS = [
  { value: 'reader', label: 'Reader interface' },
  { value: 'io', label: 'I/O board' },
  { value: 'elevator', label: 'Elevator board' },
] as const;

export const interfacesResource = defineResource({
  name: 'interfaces',
  table: 'interfaces',
  api: '/event/manage/interfaces',
  route: '/hardware/interface',
  section: 'hardware',
  label: { one: 'Interface', many: 'Interfaces' },
  icon: 'exchange',
  privileges: PRIV.interfaces,
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another interface' }),
    kind: choice(INTERFACE_KINDS, { label: 'Type', required: true, default: 'reader', filter: true, sort: true }),
    controllerId: ref('controllers', { label: 'Controller', required: true, filter: true }),
    controllerName: text({ label: 'Controller', max: 100, virtual: true, readOnly: true, from: 'controllerId', sort: true }),
    // OSDP's addresses: 0–126 (0x7F is the broadcast address, never a board's); migration 198 holds the table to it too
    busAddress: number({ label: 'Bus address', min: 0, max: 126, required: true, sort: true, help: '0–126 on the controller’s OSDP bus' }),
    serialNumber: text({ label: 'Serial number', max: 40, search: true, pattern: /^[A-Z0-9-]+$/, upper: true, help: 'Capitals, digits and dashes' }),
    location: text({ max: 200, search: true, placeholder: 'Riser cupboard, level 2', help: 'Where it is mounted, for whoever services it' }),
  },
  list: { title: ['name'], columns: ['kind', 'controllerName', 'busAddress', 'serialNumber', 'location', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    { title: 'Interface', description: 'A board on a controller’s bus.', fields: ['name', 'kind', 'controllerId', 'busAddress', 'serialNumber', 'location'] },
  ],
  export: ['csv', 'ndjson'],
  screens: {
    addRoute: '/hardware/interface/pre-add',
    addTitle: 'Add interface',
    rowLinks: [{ label: 'Settings', route: '/hardware/interface/settings/:id', icon: 'cog' }],
  },
});

export const interfaceSettingsResource = defineResource({
  name: 'interfaceSettings',
  table: 'interfaces',
  api: '/event/manage/interface-settings',
  route: '/hardware/interface',
  section: 'hardware',
  label: { one: 'Interface settings', many: 'Interface settings' },
  icon: 'exchange',
  privileges: { view: PRIV.interfaces.view, edit: PRIV.interfaces.edit },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, readOnly: true, sort: true }),
    pollMs: number({ label: 'Poll every (ms)', min: 50, max: 5000, required: true, default: 200, help: '50–5000 ms between two polls of the board' }),
    offlineAfterS: number({
      label: 'Offline after (s)',
      min: 1,
      max: 600,
      required: true,
      default: 10,
      help: 'Unanswered polls for this long mark it offline',
    }),
    supervised: switchField({ label: 'Supervised lines (end-of-line resistors)', default: true }),
    tamperAlarm: switchField({ label: 'Raise an alarm when its cover is opened', default: true }),
  },
  list: { title: ['name'], columns: ['pollMs', 'offlineAfterS', 'supervised'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Timing and supervision',
      description: 'How the controller polls the board and watches its lines.',
      fields: ['pollMs', 'offlineAfterS', 'supervised', 'tamperAlarm'],
    },
  ],
  screens: { editRoute: '/hardware/interface/settings/:id', editTitle: 'Interface settings' },
});
