// Door states and which operator commands make sense in each (issue 10). One table drives the server (a command
// that makes no sense for the door's state is 409 unless the request says `force: true`) and the console (the
// buttons a door row offers, and which doors "need attention").
import type { DoorCommand } from './monitor';

/** How long "Open briefly" leaves a door unlocked before the controller relocks it by itself. */
export const DOOR_MOMENTARY_MS = 5000;

export const DOOR_STATUSES = {
  closed: 'closed',
  locked: 'locked',
  unlocked: 'unlocked',
  /** unlocked by "Open briefly": relocks by itself unless a later command says otherwise */
  unlockedBriefly: 'unlocked-briefly',
  forcedOpen: 'forced-open',
  heldOpen: 'held-open',
  offline: 'offline',
  tamper: 'tamper',
} as const;

/** Alarm states: someone has to look at the door; listed first and counted apart from normal traffic. */
export const DOOR_ATTENTION_STATUSES: readonly string[] = [DOOR_STATUSES.forcedOpen, DOOR_STATUSES.heldOpen, DOOR_STATUSES.offline, DOOR_STATUSES.tamper];
export const doorNeedsAttention = (status: string) => DOOR_ATTENTION_STATUSES.includes(status);

export type DoorCommandCheck =
  | { allowed: true }
  /** `reason` completes a sentence that starts with the door's name (`code`: the sentence's key, contract/messages.ts);
   *  `forceHelps`: the console offers the forced command */
  | { allowed: false; code: string; reason: string; forceHelps: boolean };

const ok: DoorCommandCheck = { allowed: true };
const no = (code: string, reason: string, forceHelps = false): DoorCommandCheck => ({ allowed: false, code: `door.${code}`, reason, forceHelps });

const RULES: Partial<Record<string, Record<DoorCommand, DoorCommandCheck>>> = {
  [DOOR_STATUSES.locked]: { lock: no('alreadyLocked', 'is already locked.'), 'momentary-unlock': ok, unlock: ok },
  [DOOR_STATUSES.unlocked]: {
    lock: ok,
    unlock: no('alreadyUnlocked', 'is already unlocked.'),
    'momentary-unlock': no('unlockedUntilLocked', 'is unlocked until someone locks it: lock it instead.'),
  },
  // a later command wins over the pending relock: lock now, keep it unlocked, or open briefly again (restarts the time)
  [DOOR_STATUSES.unlockedBriefly]: { lock: ok, unlock: ok, 'momentary-unlock': ok },
  // the strike reports locked but the door was forced: re-sending Lock is worth offering, unlocking is not
  [DOOR_STATUSES.forcedOpen]: {
    lock: no('forcedOpenLockReportsLocked', 'is forced open while its lock reports locked; lock it again only to re-send the command.', true),
    unlock: no('forcedOpen', 'is forced open: send someone to secure it first.'),
    'momentary-unlock': no('forcedOpen', 'is forced open: send someone to secure it first.'),
  },
  // locking a held-open door makes it lock as soon as it closes
  [DOOR_STATUSES.heldOpen]: {
    lock: ok,
    unlock: no('heldOpenAlready', 'is held open already.'),
    'momentary-unlock': no('heldOpenAlready', 'is held open already.'),
  },
  [DOOR_STATUSES.offline]: {
    lock: no('offline', 'is offline: no command reaches it until it is back.'),
    unlock: no('offline', 'is offline: no command reaches it until it is back.'),
    'momentary-unlock': no('offline', 'is offline: no command reaches it until it is back.'),
  },
  // the reader tamper alarm's own instructions: keep the door locked until it is checked
  [DOOR_STATUSES.tamper]: {
    lock: ok,
    unlock: no('tampered', 'reports tampering: keep it locked until it is checked.'),
    'momentary-unlock': no('tampered', 'reports tampering: keep it locked until it is checked.'),
  },
};

/** Every reason a door command is refused for (its key and its English, which completes a sentence that starts with
 *  the door's name: `{door} is already locked.`). */
export const DOOR_COMMAND_REFUSALS: readonly { code: string; reason: string }[] = [
  ...new Map(
    Object.values(RULES).flatMap((r) => Object.values(r!).flatMap((c) => (c.allowed ? [] : [[c.code, { code: c.code, reason: c.reason }] as const]))),
  ).values(),
];

/**
 * Issue 50: a closed door is locked or unlocked as its mode leaves it: unlocked in the Unlocked mode (free passage),
 * locked in every other (card, card and PIN, locked down). A "Closed" door said neither, yet offered Lock, Open
 * briefly and Unlock.
 */
export function closedDoorLock(mode: string | null | undefined): typeof DOOR_STATUSES.locked | typeof DOOR_STATUSES.unlocked {
  return mode === 'unlocked' ? DOOR_STATUSES.unlocked : DOOR_STATUSES.locked;
}
/** The state a door's offered commands follow: a closed door's lock (closedDoorLock), else its status. */
export const commandStateOf = (status: string, mode?: string | null) => (status === DOOR_STATUSES.closed ? closedDoorLock(mode) : status);

/**
 * Whether `command` makes sense for a door in `status` (a closed door, or a state nobody described, takes any: the
 * server does not refuse a command to a closed door, whose lock it infers from the mode rather than hears, so Lock
 * may always be sent again; the console offers a closed door the commands of its lock, doorCommandsFor).
 */
export function checkDoorCommand(status: string, command: DoorCommand): DoorCommandCheck {
  return RULES[status]?.[command] ?? ok;
}

/** The commands to offer for a door in `status`, in button order; `force` marks the one offered despite a refusal. */
export function doorCommandsFor(status: string, mode?: string | null): { command: DoorCommand; force: boolean }[] {
  const out: { command: DoorCommand; force: boolean }[] = [];
  for (const command of ['lock', 'momentary-unlock', 'unlock'] as const) {
    const c = checkDoorCommand(commandStateOf(status, mode), command);
    if (c.allowed) out.push({ command, force: false });
    else if (c.forceHelps) out.push({ command, force: true });
  }
  return out;
}
