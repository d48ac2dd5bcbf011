// What holds in the live hardware state (./hardwareStatus.ts: the hardware screens, the floor plan's device colours),
// written apart from its transitions and read by nothing in the machine. The model test hands them to the harness by
// state (model-tests/hardwareStatus.model.test.ts, `expectOracle(…, byState)`), which checks them at every step of
// every path generated from the graph. The machine has one state: '' holds in it.

/** The part of the snapshot the invariants read (not imported from ./hardwareStatus, so nothing is shared with it). */
type Held = {
  context: {
    statuses: Record<string, { id: string | number; name: string | null; status: string; kind?: string }>;
    doors: Record<string, { id: string | number; name: string | null; doorStatus: string }>;
    controllers: Record<string, { id: string | number; name: string | null; status: string | undefined }>;
  };
};
/** §4: statuses are shown as lower-case words joined by hyphens ("door-forced-open"), whatever the device sent. */
const word = (s: unknown) => typeof s === 'string' && /^[a-z0-9]+(-[a-z0-9]+)*$/.test(s);
const keyedById = (all: Record<string, { id: string | number }>) => Object.entries(all).every(([key, v]) => key === String(v.id));
/** The device kinds of §4's status codes: interface (1012/1013), card reader (4002/4003), input (2000-2004), output (3000/3001). */
const KINDS = ['interface', 'cardReader', 'input', 'output'];

export const invariants = {
  '': {
    'each device, door and controller is kept once, under its own id': ({ context: c }: Held) =>
      keyedById(c.statuses) && keyedById(c.doors) && keyedById(c.controllers),
    'a device status is lower-case hyphenated words, its kind (when known) one of §4': ({ context: c }: Held) =>
      Object.values(c.statuses).every((d) => word(d.status) && (d.kind === undefined || KINDS.includes(d.kind))),
    'a door status is lower-case hyphenated words (closed when the heartbeat said none)': ({ context: c }: Held) =>
      Object.values(c.doors).every((d) => word(d.doorStatus)),
    'a controller status is lower-case hyphenated words, or none when its heartbeat had none (§3)': ({ context: c }: Held) =>
      Object.values(c.controllers).every((d) => d.status === undefined || word(d.status)),
  },
};
