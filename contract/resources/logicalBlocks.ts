// Logical blocks [0.4.8.x] (issue 12): "if this happens [during this schedule] then do that". A block watches one
// kind of event (an input becoming active, an intrusion, a door forced or held open, a door unlocked or locked, a
// card granted or denied), optionally at one input or door only, optionally only while a schedule is open (in the
// client's time zone, special days included), and then pulses an output, unlocks, locks or briefly opens a door,
// or raises an alarm. The server runs them on every stored event (server/logic/blocks.ts); what a block does is
// itself an event naming the block, and never starts another block (no loops).
import { EVENT_CODES } from '../monitor';
import { choice, defineResource, ref, requiredWhen, switchField, text } from './define';

export const LOGIC_TRIGGERS = [
  { value: 'input.active', label: 'An input becomes active' },
  { value: 'intrusion', label: 'An intrusion (input of an armed alarm zone)' },
  { value: 'door.forced', label: 'A door is forced open' },
  { value: 'door.held', label: 'A door is held open' },
  { value: 'door.unlocked', label: 'A door is unlocked' },
  { value: 'door.locked', label: 'A door is locked' },
  { value: 'access.granted', label: 'A card is granted' },
  { value: 'access.denied', label: 'A card is denied' },
] as const;
export type LogicTrigger = (typeof LOGIC_TRIGGERS)[number]['value'];

/** The event codes each trigger stands for. */
export const LOGIC_TRIGGER_CODES: Record<LogicTrigger, readonly number[]> = {
  'input.active': [EVENT_CODES.inputActive],
  intrusion: [EVENT_CODES.intrusion],
  'door.forced': [EVENT_CODES.doorForcedOpen],
  'door.held': [EVENT_CODES.doorHeldOpen],
  'door.unlocked': [EVENT_CODES.doorUnlocked, EVENT_CODES.doorMomentaryUnlock],
  'door.locked': [EVENT_CODES.doorLocked],
  'access.granted': [EVENT_CODES.accessGranted],
  'access.denied': [5001, 5002, 5003, 5004, 5005, 5006, 5007, 5008, 5009, 5010, 5011, 5012, 5013],
};
/** Triggers that happen at an input (the block's input narrows them); the others happen at a door. */
export const INPUT_TRIGGERS: readonly LogicTrigger[] = ['input.active', 'intrusion'];

export const LOGIC_ACTIONS = [
  { value: 'pulse-output', label: 'Pulse an output' },
  { value: 'unlock-door', label: 'Unlock a door' },
  { value: 'lock-door', label: 'Lock a door' },
  { value: 'momentary-unlock', label: 'Open a door briefly' },
  { value: 'raise-alarm', label: 'Raise an alarm' },
] as const;
export type LogicAction = (typeof LOGIC_ACTIONS)[number]['value'];
const DOOR_ACTIONS = ['unlock-door', 'lock-door', 'momentary-unlock'] as const;

export const logicalBlocksResource = defineResource({
  name: 'logicalBlocks',
  table: 'logical_blocks',
  api: '/event/manage/logical-blocks',
  route: '/configure/logical-blocks',
  section: 'configure',
  label: { one: 'Logical block', many: 'Logical blocks' },
  icon: 'flow-branch',
  privileges: { view: '0.4.8.0', add: '0.4.8.1', edit: '0.4.8.2', delete: '0.4.8.3' },
  scope: { tenant: true },
  timestamps: true,
  fields: {
    name: text({ max: 100, required: true, search: true, sort: true, unique: 'tenant', uniqueMessage: 'is already the name of another logical block' }),
    active: switchField({ label: 'On', default: true, sort: true }),
    trigger: choice(LOGIC_TRIGGERS, { label: 'When', required: true, default: 'input.active', filter: true, sort: true }),
    inputId: ref('inputs', { label: 'At input', help: 'Inputs becoming active and intrusions: this input only (empty: any input)' }),
    doorId: ref('doors', { label: 'At door', help: 'Door and card events: this door only (empty: any door)' }),
    scheduleId: ref('schedules', { label: 'Only while', help: 'Only while this schedule is open (empty: at any time)' }),
    action: choice(LOGIC_ACTIONS, { label: 'Then', required: true, default: 'pulse-output', filter: true, sort: true }),
    outputId: ref('outputs', { label: 'Output' }),
    actionDoorId: ref('doors', { label: 'Door to move' }),
    alarmText: text({ label: 'Alarm message', max: 200, placeholder: 'Sounder zone B: check the loading bay' }),
    description: text({ max: 500, widget: 'textarea', wide: true, search: true }),
  },
  rules: [
    requiredWhen('outputId', 'action', ['pulse-output'], 'is required to pulse an output'),
    requiredWhen('actionDoorId', 'action', DOOR_ACTIONS, 'is required to move a door'),
  ],
  list: { title: ['name'], columns: ['active', 'trigger', 'action', 'updatedAt'], sort: ['name', 'asc'] },
  form: [
    {
      title: 'Logical block',
      description: 'When this happens, while the schedule is open, the server does that. What it does is an event naming the block.',
      fields: ['name', 'active', 'description'],
    },
    { title: 'When', fields: ['trigger', 'inputId', 'doorId', 'scheduleId'] },
    { title: 'Then', fields: ['action', 'outputId', 'actionDoorId', 'alarmText'] },
  ],
  export: ['csv', 'ndjson'],
});
